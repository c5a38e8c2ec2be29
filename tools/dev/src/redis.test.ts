import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ensureRedis, startRedisServer } from './redis.js';

describe('ensureRedis', () => {
  it('uses REDIS_URL when it answers', async () => {
    const base = await ensureRedis({ env: {} });
    try {
      const handle = await ensureRedis({ env: { REDIS_URL: base.url } });
      expect(handle).toMatchObject({ url: base.url, source: 'REDIS_URL' });
    } finally {
      await base.stop();
    }
  });

  it('refuses a REDIS_URL that does not answer instead of silently falling back', async () => {
    await expect(ensureRedis({ env: { REDIS_URL: 'redis://127.0.0.1:1' }, timeoutMs: 500 })).rejects.toThrow(
      /does not answer PING/,
    );
  });

  it('spawns a redis-server of its own that answers, and stops it', async () => {
    // The spawn path, exercised directly even when a default Redis is running.
    const handle = await startRedisServer();
    const client = new Redis(handle.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
      await handle.stop();
    }
  }, 20_000);
});
