import { HG_ERR_LEDGER_REDIS_UNREACHABLE, isHookgateError } from '@hookgate/errors';
import { describe, expect, it } from 'vitest';
import { connectRedis, RedisUnreachableError } from './redis.js';

describe('connectRedis', () => {
  it('refuses an unreachable Redis with the catalogued error, the socket error as its cause', async () => {
    // Port 1 is never a Redis: the connection is refused at once.
    const error = await connectRedis({ REDIS_URL: 'redis://:secret@127.0.0.1:1' }, { connectTimeoutMs: 2_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RedisUnreachableError);
    expect(isHookgateError(error, HG_ERR_LEDGER_REDIS_UNREACHABLE.code)).toBe(true);
    const unreachable = error as RedisUnreachableError;
    expect({ name: unreachable.name, message: unreachable.message, remedy: unreachable.remedy }).toEqual({
      name: 'RedisUnreachableError',
      message:
        'ledger: cannot reach Redis at redis://:***@127.0.0.1:1 (REDIS_URL): connect ECONNREFUSED 127.0.0.1:1. Start Redis there, or set REDIS_URL to a reachable Redis.',
      remedy: HG_ERR_LEDGER_REDIS_UNREACHABLE.remedy,
    });
    expect((unreachable.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  }, 10_000);
});
