/** The Redis the end-to-end tests use: found (REDIS_URL, 127.0.0.1:6379) or started, and really answering. */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { discoverRedis } from './redis.js';

describe('discoverRedis', () => {
  it('finds or starts a Redis that answers PING, and stops what it started', async () => {
    const redis = await discoverRedis();
    const connection = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await connection.connect();
      expect(await connection.ping()).toBe('PONG');
    } finally {
      connection.disconnect();
      await redis.stop();
    }
  });
});
