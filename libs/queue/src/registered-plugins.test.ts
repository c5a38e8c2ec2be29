/** Publishing and reading run-time plugin sets on a real Redis (ensureRedis), a prefix per test. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedis, type RedisHandle } from '@hookgate/devtools';
import {
  decodePublishedPluginSet,
  publishRegisteredPlugins,
  readRegisteredPlugins,
  registeredPluginsIndexKey,
  registeredPluginsKey,
  unionOfRegisteredPlugins,
  withdrawRegisteredPlugins,
  type PublishedPluginSet,
} from './registered-plugins.js';

function setOf(gateway: string, plugins: PublishedPluginSet['plugins'], generation = 1): PublishedPluginSet {
  return { schema: 1, gateway, generation, publishedAt: 1_000, plugins };
}
const ledger = { name: 'ledger', target: 'unix:///run/hookgate/ledger.sock', registeredAt: 10, expiresAt: 100 };
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const quota = {
  name: 'quota',
  target: '10.0.0.5:7000',
  tls: { ca: CA, serverName: 'quota.plugins' },
  registeredAt: 20,
  expiresAt: 200,
};

describe('registered plugins on Redis', () => {
  let redis: RedisHandle;
  let client: Redis;
  const prefixes: string[] = [];
  const freshPrefix = () => {
    const prefix = `{hg-reg-${randomUUID().slice(0, 8)}}`;
    prefixes.push(prefix);
    return prefix;
  };
  beforeAll(async () => {
    redis = await ensureRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await client.keys(`${prefix}:*`);
      if (keys.length > 0) await client.del(...keys);
    }
    await client.quit();
    await redis.stop();
  });

  it('reads back what two gateways published, and the union of their plugins', async () => {
    const prefix = freshPrefix();
    await publishRegisteredPlugins(client, prefix, setOf('gw-a', [ledger]), 60_000);
    await publishRegisteredPlugins(client, prefix, setOf('gw-b', [ledger, quota], 7), 60_000);
    const read = await readRegisteredPlugins(client, prefix);
    expect(read.problems).toEqual([]);
    expect(read.sets.map((s) => [s.gateway, s.generation, s.plugins.length])).toEqual([
      ['gw-a', 1, 1],
      ['gw-b', 7, 2],
    ]);
    const union = unionOfRegisteredPlugins(read.sets);
    expect(union.conflicts).toEqual([]);
    expect([...union.plugins.values()]).toEqual([
      { ...ledger, gateways: ['gw-a', 'gw-b'] },
      { ...quota, gateways: ['gw-b'] },
    ]);
  });

  it('publishing again replaces a gateway set; withdrawing removes it', async () => {
    const prefix = freshPrefix();
    await publishRegisteredPlugins(client, prefix, setOf('gw-a', [ledger, quota]), 60_000);
    await publishRegisteredPlugins(client, prefix, setOf('gw-a', [quota], 2), 60_000);
    expect((await readRegisteredPlugins(client, prefix)).sets.map((s) => s.plugins.map((p) => p.name))).toEqual([
      ['quota'],
    ]);
    await withdrawRegisteredPlugins(client, prefix, 'gw-a');
    expect(await readRegisteredPlugins(client, prefix)).toEqual({ sets: [], problems: [] });
    expect(await client.exists(registeredPluginsIndexKey(prefix), registeredPluginsKey(prefix, 'gw-a'))).toBe(0);
  });

  it('a set whose TTL lapsed no longer counts, and its gateway leaves the index', async () => {
    const prefix = freshPrefix();
    await publishRegisteredPlugins(client, prefix, setOf('gw-gone', [ledger]), 60_000);
    await publishRegisteredPlugins(client, prefix, setOf('gw-live', [quota]), 60_000);
    // The lapse itself is Redis's PX; deleting the key is what it leaves behind.
    await client.del(registeredPluginsKey(prefix, 'gw-gone'));
    const read = await readRegisteredPlugins(client, prefix);
    expect(read.sets.map((s) => s.gateway)).toEqual(['gw-live']);
    expect(await client.smembers(registeredPluginsIndexKey(prefix))).toEqual(['gw-live']);
  });

  it('sets the TTL it is given', async () => {
    const prefix = freshPrefix();
    await publishRegisteredPlugins(client, prefix, setOf('gw-a', [ledger]), 30_000);
    const ttl = await client.pttl(registeredPluginsKey(prefix, 'gw-a'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('skips an unreadable set with a line naming its key, and keeps the others', async () => {
    const prefix = freshPrefix();
    await publishRegisteredPlugins(client, prefix, setOf('gw-a', [ledger]), 60_000);
    await client.sadd(registeredPluginsIndexKey(prefix), 'gw-bad');
    await client.set(registeredPluginsKey(prefix, 'gw-bad'), '{"schema":1,"gateway":"gw-bad"');
    const read = await readRegisteredPlugins(client, prefix);
    expect(read.sets.map((s) => s.gateway)).toEqual(['gw-a']);
    expect(read.problems).toEqual([`${registeredPluginsKey(prefix, 'gw-bad')}: not JSON`]);
  });
});

describe('decodePublishedPluginSet', () => {
  const good = setOf('gw', [ledger]);
  it.each([
    { name: 'another schema', value: { ...good, schema: 2 }, want: /schema 2 is not 1/ },
    { name: 'no gateway', value: { ...good, gateway: '' }, want: /^gateway:/ },
    { name: 'a bad generation', value: { ...good, generation: -1 }, want: /^generation:/ },
    { name: 'plugins not a list', value: { ...good, plugins: {} }, want: /^plugins: must be a list/ },
    {
      name: 'a bad plugin name',
      value: { ...good, plugins: [{ ...ledger, name: 'Ledger!' }] },
      want: /plugins\[0\].name/,
    },
    { name: 'an empty target', value: { ...good, plugins: [{ ...ledger, target: '' }] }, want: /plugins\[0\].target/ },
    { name: 'no lease end', value: { ...good, plugins: [{ ...ledger, expiresAt: 'soon' }] }, want: /expiresAt/ },
    {
      name: 'tls that is not an object',
      value: { ...good, plugins: [{ ...quota, tls: 'yes' }] },
      want: /^plugins\[0\]\.tls: must be an object$/,
    },
    {
      name: 'tls without a PEM CA',
      value: { ...good, plugins: [{ ...quota, tls: { ca: '' } }] },
      want: /^plugins\[0\]\.tls\.ca: must be a PEM CA bundle$/,
    },
    {
      name: 'an empty server name',
      value: { ...good, plugins: [{ ...quota, tls: { ca: CA, serverName: '' } }] },
      want: /^plugins\[0\]\.tls\.serverName:/,
    },
  ])('refuses $name', ({ value, want }) => {
    expect(decodePublishedPluginSet(JSON.stringify(value))).toMatch(want);
  });

  it('keeps only the known fields', () => {
    const extra = {
      ...good,
      extra: true,
      plugins: [
        { ...ledger, caFile: '/x' },
        { ...quota, tls: { ...quota.tls, key: 'never read' } },
      ],
    };
    expect(decodePublishedPluginSet(JSON.stringify(extra))).toEqual(setOf('gw', [ledger, quota]));
  });

  it('decodes the TLS of a registered plugin, and a set published before TLS existed as plaintext plugins', () => {
    expect(decodePublishedPluginSet(JSON.stringify(setOf('gw', [quota])))).toEqual(setOf('gw', [quota]));
    const { tls: _tls, ...plaintext } = quota;
    const older = { schema: 1, gateway: 'gw', generation: 3, publishedAt: 5, plugins: [plaintext] };
    expect(decodePublishedPluginSet(JSON.stringify(older))).toEqual(older);
  });
});

describe('unionOfRegisteredPlugins', () => {
  it('uses the newest registration when gateways disagree on a target, and reports it', () => {
    const older = { ...ledger, target: 'unix:///a.sock', registeredAt: 5 };
    const newer = { ...ledger, target: 'unix:///b.sock', registeredAt: 50 };
    const union = unionOfRegisteredPlugins([setOf('gw-a', [older]), setOf('gw-b', [newer])]);
    expect(union.plugins.get('ledger')).toEqual({ ...newer, gateways: ['gw-b'] });
    expect(union.conflicts).toEqual([{ name: 'ledger', targets: ['unix:///a.sock', 'unix:///b.sock'] }]);
  });

  it('takes the TLS of the newest registration; only gateways holding that registration extend its lease', () => {
    const older = { ...quota, tls: { ca: CA.replace('MIIB', 'MIIA') }, registeredAt: 5, expiresAt: 900 };
    const newer = { ...quota, registeredAt: 50, expiresAt: 300 };
    const union = unionOfRegisteredPlugins([setOf('gw-a', [older]), setOf('gw-b', [newer])]);
    expect(union.plugins.get('quota')).toEqual({ ...newer, gateways: ['gw-b'] });
    expect(union.conflicts).toEqual([]);
  });

  it('is empty for no sets', () => {
    expect(unionOfRegisteredPlugins([])).toEqual({ plugins: new Map(), conflicts: [] });
  });
});
