/**
 * A Redis for a test (ensureRedis) with an ioredis client of it, and the clean-up of the keys a test
 * wrote under its own prefix: what the Redis-backed tests of several packages set up the same way.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { ensureRedis, type RedisHandle } from './redis.js';

export interface RedisWithClient {
  readonly redis: RedisHandle;
  readonly client: Redis;
  /** Quits the client, then stops a Redis that ensureRedis started. */
  close(): Promise<void>;
}

export async function connectRedis(options: RedisOptions = {}): Promise<RedisWithClient> {
  const redis = await ensureRedis();
  const client = new Redis(redis.url, options);
  return {
    redis,
    client,
    close: async () => {
      await client.quit();
      await redis.stop();
    },
  };
}

/** Deletes every key under `<prefix>:` (a test's own queue or registry prefix). */
export async function deletePrefixedKeys(client: Redis, prefix: string): Promise<void> {
  const keys = await client.keys(`${prefix}:*`);
  if (keys.length > 0) await client.del(...keys);
}
