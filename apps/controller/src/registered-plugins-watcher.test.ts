/**
 * The watcher against a real Redis (ensureRedis, a prefix per test): what gateways publish is read
 * with readRegisteredPlugins and turned into start/stop calls, recorded here.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger, connectRedis, deletePrefixedKeys, type RedisWithClient } from '@hookgate/devtools';
import {
  publishRegisteredPlugins,
  readRegisteredPlugins,
  withdrawRegisteredPlugins,
  type PublishedPlugin,
} from '@hookgate/queue';
import type { ControllerPlugin } from './config.js';
import { watchRegisteredPlugins, type RegisteredPluginsWatcher } from './registered-plugins-watcher.js';

let redis: RedisWithClient;
let client: Redis;
beforeAll(async () => {
  redis = await connectRedis();
  client = redis.client;
});
afterAll(() => redis.close());
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const POLL_MS = 50;

async function start(options: { staticPlugins?: ControllerPlugin[]; failStart?: string } = {}) {
  const prefix = `{hg-watch-${randomUUID().slice(0, 8)}}`;
  cleanups.push(() => deletePrefixedKeys(client, prefix));
  const { logger, logs } = capturedLogger('controller');
  const calls: string[] = [];
  let readable = true;
  const watcher: RegisteredPluginsWatcher = await watchRegisteredPlugins({
    read: () =>
      readable ? readRegisteredPlugins(client, prefix) : Promise.reject(new Error('Redis did not answer in time')),
    staticPlugins: options.staticPlugins ?? [],
    pollMs: POLL_MS,
    logger,
    start: async (plugin) => {
      if (plugin.name === options.failStart) throw new Error('bad target');
      calls.push(`start ${plugin.name} ${plugin.target}${plugin.tls ? ` tls ${plugin.tls.serverName ?? ''}` : ''}`);
    },
    stop: async (name) => void calls.push(`stop ${name}`),
  });
  cleanups.push(() => watcher.close());
  const publish = (gateway: string, plugins: PublishedPlugin[]) =>
    publishRegisteredPlugins(client, prefix, { schema: 1, gateway, generation: 1, publishedAt: 0, plugins }, 60_000);
  return {
    prefix,
    watcher,
    calls,
    logs,
    publish,
    setReadable: (value: boolean) => (readable = value),
  };
}

const plugin = (name: string, target: string, registeredAt = 1): PublishedPlugin => ({
  name,
  target,
  registeredAt,
  expiresAt: 60_000,
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what}: not within 5 s`);
}

describe('watchRegisteredPlugins', () => {
  it('starts a published plugin, serves it afresh when it registers again elsewhere, and stops it once withdrawn', async () => {
    const t = await start();
    await t.publish('gw-a', [plugin('ledger', 'unix:///a.sock')]);
    await until(() => t.calls.length === 1, 'start');
    expect(t.watcher.served()).toEqual(['ledger']);

    await t.publish('gw-a', [plugin('ledger', '127.0.0.2:7000', 2)]);
    await until(() => t.calls.length === 3, 'restart');

    await withdrawRegisteredPlugins(client, t.prefix, 'gw-a');
    await until(() => t.calls.length === 4, 'stop');
    expect(t.calls).toEqual([
      'start ledger unix:///a.sock',
      'stop ledger',
      'start ledger 127.0.0.2:7000',
      'stop ledger',
    ]);
    expect(t.watcher.served()).toEqual([]);
    expect(t.logs.map((l) => l['msg'])).toContain(
      'stopped serving registered plugin ledger: no gateway publishes it any more (deregistered, or its gateway stopped); its jobs wait in its queue',
    );
  });

  it('hands the registered TLS to the plugin it serves, and serves it afresh when the TLS changes', async () => {
    const t = await start();
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    await t.publish('gw-a', [{ ...plugin('quota', '10.0.0.5:7443'), tls: { ca, serverName: 'quota' } }]);
    await until(() => t.calls.length === 1, 'start');
    await t.publish('gw-a', [{ ...plugin('quota', '10.0.0.5:7443'), tls: { ca, serverName: 'quota-2' } }]);
    await until(() => t.calls.length === 3, 'restart');
    expect(t.calls).toEqual([
      'start quota 10.0.0.5:7443 tls quota',
      'stop quota',
      'start quota 10.0.0.5:7443 tls quota-2',
    ]);
    expect(t.logs.find((l) => l['msg'] === 'serving registered plugin quota: reconciling its queue')).toMatchObject({
      tls: true,
    });
  });

  it('does not serve a plugin published without TLS at a network address, saying so once, until it has TLS', async () => {
    const t = await start();
    await t.publish('gw-old', [plugin('quota', '10.0.0.5:7001'), plugin('ledger', 'unix:///a.sock')]);
    await until(() => t.calls.length === 1, 'start of the unix-socket neighbour');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
    expect(t.calls).toEqual(['start ledger unix:///a.sock']);
    const refusals = t.logs.filter((l) => String(l['msg']).startsWith('not serving registered plugin quota'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ level: 'error', plugin: 'quota', target: '10.0.0.5:7001' });

    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    await t.publish('gw-old', [
      { ...plugin('quota', '10.0.0.5:7001', 2), tls: { ca } },
      plugin('ledger', 'unix:///a.sock'),
    ]);
    await until(() => t.calls.length === 2, 'start once it has TLS');
    expect(t.calls[1]).toBe('start quota 10.0.0.5:7001 tls ');
  });

  it('leaves a configured plugin of the same name alone, with one warn line when the targets differ', async () => {
    const t = await start({ staticPlugins: [{ name: 'ledger', target: 'unix:///configured.sock' }] });
    await t.publish('gw-a', [plugin('ledger', 'unix:///registered.sock'), plugin('quota', 'unix:///q.sock')]);
    await until(() => t.calls.length === 1, 'start quota');
    // A few more polls: still one warn line.
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
    expect(t.calls).toEqual(['start quota unix:///q.sock']);
    const warned = t.logs.filter((l) => l['level'] === 'warn' && l['plugin'] === 'ledger');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      configuredTarget: 'unix:///configured.sock',
      registeredTarget: 'unix:///registered.sock',
    });
  });

  it('keeps what it serves while Redis cannot be read, saying so once', async () => {
    const t = await start();
    await t.publish('gw-a', [plugin('ledger', 'unix:///a.sock')]);
    await until(() => t.calls.length === 1, 'start');
    t.setReadable(false);
    await until(() => t.logs.some((l) => String(l['msg']).startsWith('cannot read the registered plugins')), 'warn');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
    expect(t.calls).toEqual(['start ledger unix:///a.sock']);
    expect(t.logs.filter((l) => String(l['msg']).startsWith('cannot read the registered plugins'))).toHaveLength(1);
    t.setReadable(true);
    await until(() => t.logs.some((l) => l['msg'] === 'registered plugins read from Redis again'), 'back');
  });

  it('a plugin it cannot serve is logged once and tried again, its neighbours served', async () => {
    const t = await start({ failStart: 'broken' });
    await t.publish('gw-a', [plugin('broken', 'x'), plugin('quota', 'unix:///q.sock')]);
    await until(() => t.calls.length === 1, 'start quota');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
    expect(t.watcher.served()).toEqual(['quota']);
    expect(t.logs.filter((l) => l['level'] === 'error' && l['plugin'] === 'broken')).toHaveLength(1);
  });
});
