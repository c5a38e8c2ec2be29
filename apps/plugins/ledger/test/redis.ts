/**
 * Real Redis for the ledger's tests, found by @hookgate/devtools' ensureRedis (REDIS_URL, else
 * 127.0.0.1:6379, else a redis-server of its own), with a unique key prefix per test and
 * everything under it deleted afterwards.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { ensureRedis, type RedisHandle } from '@hookgate/devtools';

export { ensureRedis, type RedisHandle };

export interface TestRedis {
  readonly url: string;
  readonly redis: Redis;
  /** Closes the client and stops a redis-server ensureRedis started (by pid). */
  close(): Promise<void>;
}

export async function openTestRedis(): Promise<TestRedis> {
  const handle = await ensureRedis();
  const redis = new Redis(handle.url, { maxRetriesPerRequest: 1, lazyConnect: false });
  return {
    url: handle.url,
    redis,
    async close() {
      await redis.quit();
      await handle.stop();
    },
  };
}

export function uniquePrefix(): string {
  return `hookgate-test:ledger:${randomUUID()}:`;
}

export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 200);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
