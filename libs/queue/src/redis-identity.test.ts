import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { parseRunId, readRedisRunId } from './redis-identity.js';
import { connectRedis, type RedisWithClient } from '@hookgate/devtools';

describe('parseRunId', () => {
  it.each([
    {
      name: 'an INFO server answer (CRLF lines)',
      info: '# Server\r\nredis_version:7.0.15\r\nrun_id:0f2c4a0b9d2bb1c7b4d1e6f0a3c9e8d7b6a5f4e3\r\ntcp_port:6379\r\n',
      want: '0f2c4a0b9d2bb1c7b4d1e6f0a3c9e8d7b6a5f4e3',
    },
    { name: 'LF lines', info: 'redis_version:7.2.0\nrun_id:abc123\n', want: 'abc123' },
    {
      name: 'no run_id (another server, or INFO hidden)',
      info: '# Server\r\nredis_version:7.0.0\r\n',
      want: undefined,
    },
    { name: 'a field that only ends in run_id', info: 'master_run_id:abc\r\n', want: undefined },
  ])('$name', ({ info, want }) => {
    expect(parseRunId(info)).toBe(want);
  });

  it('refuses an answer without run_id', async () => {
    await expect(readRedisRunId({ info: async () => 'redis_version:7\r\n' })).rejects.toThrow(/no run_id/);
  });
});

describe('readRedisRunId against Redis', () => {
  let redis: RedisWithClient;
  let client: Redis;
  beforeAll(async () => {
    redis = await connectRedis();
    client = redis.client;
  });
  afterAll(() => redis.close());

  it('reads a 40-hex run_id, the same on every read while Redis runs', async () => {
    const first = await readRedisRunId(client);
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(await readRedisRunId(client)).toBe(first);
  });
});
