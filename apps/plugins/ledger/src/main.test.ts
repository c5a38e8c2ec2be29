/** The ledger process itself (src/main.ts): startup errors, serving, graceful SIGTERM. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runPluginMain } from '@hookgate/plugin-sdk/testing';
import { ensureRedis, uniquePrefix, type RedisHandle } from '../test/redis.js';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

describe('ledger main', () => {
  let redis: RedisHandle;
  beforeAll(async () => {
    redis = await ensureRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  const validConfig = () =>
    `keyPrefix: "${uniquePrefix()}"\nledgers: [{ name: hostnames, kinds: [networking.k8s.io/Ingress], annotation: example.com/host }]\n`;

  it('serves, then exits 0 on SIGTERM', async () => {
    const run = await runPluginMain({ pluginDir, config: validConfig(), env: { REDIS_URL: redis.url } });
    expect(run.health).toBe('SERVING');
    expect(run.exitCode).toBe(0);
  }, 30_000);

  const failures: { name: string; config: () => string; redisUrl?: string; stderr: string }[] = [
    {
      name: 'unreachable Redis: exits 1 saying where and what to do',
      config: validConfig,
      redisUrl: 'redis://127.0.0.1:1',
      stderr:
        'ledger: cannot reach Redis at redis://127.0.0.1:1 (REDIS_URL): connect ECONNREFUSED 127.0.0.1:1. Start Redis there, or set REDIS_URL to a reachable Redis.',
    },
    {
      name: 'invalid configuration: exits 1 naming the field',
      config: () => 'ledgers: [{ name: hostnames, kinds: [ingresses], annotation: example.com/host }]\n',
      stderr: 'ledgers[0].kinds[0]: Invalid value: "ingresses"',
    },
  ];
  for (const c of failures) {
    it(
      c.name,
      async () => {
        const run = await runPluginMain({ pluginDir, config: c.config(), env: { REDIS_URL: c.redisUrl ?? redis.url } });
        expect(run.exitCode).toBe(1);
        expect(run.stderr).toContain(c.stderr);
      },
      30_000,
    );
  }
});
