/** The primary's publisher of registered plugins against a real Redis; an unreachable one is an unused port. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedis, freePort, type RedisHandle } from '@hookgate/devtools';
import { createLogger } from '@hookgate/observability';
import { readRegisteredPlugins, registeredPluginsKey } from '@hookgate/queue';
import type { RegistrySnapshot, ServedRegistration } from '../registry/index.js';
import { startRegisteredPluginsPublisher, type RegisteredPluginsPublisher } from './registered-plugins-publisher.js';

let redis: RedisHandle;
let client: Redis;
beforeAll(async () => {
  redis = await ensureRedis();
  client = new Redis(redis.url);
});
afterAll(async () => {
  await client.quit();
  await redis.stop();
});
const publishers: RegisteredPluginsPublisher[] = [];
const prefixes: string[] = [];
afterEach(async () => {
  for (const publisher of publishers.splice(0)) await publisher.close();
  for (const prefix of prefixes.splice(0)) {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
  }
});

const log = createLogger({ component: 'test', level: 'silent' });

function registration(plugin: string, target: string): ServedRegistration {
  return {
    plugin,
    target,
    configurations: [],
    leaseSeconds: 30,
    registeredAt: 1_000,
    renewedAt: 1_000,
    expiresAt: 31_000,
    lease: 'active',
    served: [],
  };
}

function start(url: string, snapshot: () => RegistrySnapshot, refreshMs?: number) {
  const prefix = `{hg-pub-${randomUUID().slice(0, 8)}}`;
  prefixes.push(prefix);
  const publisher = startRegisteredPluginsPublisher({
    redis: { url, prefix, connectTimeoutMs: 500 },
    registrySocket: `/tmp/${prefix}/registry.sock`,
    snapshot,
    log,
    ...(refreshMs === undefined ? {} : { refreshMs }),
  });
  publishers.push(publisher);
  return { publisher, prefix };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached in 5 s');
}

describe('startRegisteredPluginsPublisher', () => {
  it('publishes the snapshot once connected, again on each change, and withdraws it at close', async () => {
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    let snapshot: RegistrySnapshot = {
      generation: 1,
      registrations: [
        registration('ledger', 'unix:///l.sock'),
        { ...registration('quota', '10.0.0.5:7000'), tls: { ca, serverName: 'quota.plugins' } },
      ],
    };
    const { publisher, prefix } = start(redis.url, () => snapshot);
    const first = await until(
      () => readRegisteredPlugins(client, prefix),
      (r) => r.sets.length === 1,
    );
    expect(first.sets[0]).toMatchObject({
      gateway: publisher.gateway,
      generation: 1,
      plugins: [
        { name: 'ledger', target: 'unix:///l.sock', registeredAt: 1_000, expiresAt: 31_000 },
        {
          name: 'quota',
          target: '10.0.0.5:7000',
          tls: { ca, serverName: 'quota.plugins' },
          registeredAt: 1_000,
          expiresAt: 31_000,
        },
      ],
    });
    expect(await client.pttl(registeredPluginsKey(prefix, publisher.gateway))).toBeGreaterThan(0);

    snapshot = { generation: 2, registrations: [] };
    publisher.changed();
    await until(
      () => readRegisteredPlugins(client, prefix),
      (r) => r.sets[0]?.generation === 2,
    );
    expect((await readRegisteredPlugins(client, prefix)).sets[0]?.plugins).toEqual([]);

    await publisher.close();
    expect(await readRegisteredPlugins(client, prefix)).toEqual({ sets: [], problems: [] });
  });

  it('republishes without a change (the refresh), putting back a set that was lost', async () => {
    const snapshot: RegistrySnapshot = { generation: 3, registrations: [registration('quota', '127.0.0.1:7000')] };
    const { publisher, prefix } = start(redis.url, () => snapshot, 100);
    await until(
      () => readRegisteredPlugins(client, prefix),
      (r) => r.sets.length === 1,
    );
    await client.del(registeredPluginsKey(prefix, publisher.gateway));
    const back = await until(
      () => readRegisteredPlugins(client, prefix),
      (r) => r.sets.length === 1,
    );
    expect(back.sets[0]?.plugins.map((p) => p.name)).toEqual(['quota']);
  });

  it('with Redis unreachable, neither throws nor hangs its close', async () => {
    const port = await freePort();
    const { publisher } = start(`redis://127.0.0.1:${port}`, () => ({ generation: 1, registrations: [] }), 50);
    publisher.changed();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await publisher.close();
  });
});
