/**
 * The Redis this library's tests run against: REDIS_URL, else redis://127.0.0.1:6379. Libraries'
 * tests may import libraries only (eslint.config.mjs), so @hookgate/devtools' ensureRedis is out
 * of reach; this is its first two steps. Nothing is skipped when there is no Redis: the tests fail
 * with this message.
 */
import { Redis } from 'ioredis';

export async function findTestRedis(): Promise<string> {
  const url = process.env['REDIS_URL'] || 'redis://127.0.0.1:6379';
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return url;
  } catch (error) {
    throw new Error(
      `the @hookgate/queue tests need a Redis at ${url} (${error instanceof Error ? error.message : String(error)}): ` +
        'start one there (`redis-server --save "" --appendonly no`), or set REDIS_URL=redis://host:port',
    );
  } finally {
    client.disconnect();
  }
}
