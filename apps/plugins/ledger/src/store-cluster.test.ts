/**
 * The ledger on a real Redis Cluster (three masters, devtools; killed by pid): its multi-key claim
 * script and its listing work with a hash-tagged keyPrefix, and connectRedis refuses a keyPrefix
 * without a tag before connecting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type RedisClusterTopology } from '@hookgate/devtools';
import type { RedisClient } from '@hookgate/queue/redis-client';
import { connectRedis } from './redis.js';
import { createLedgerStore } from './store.js';

let cluster: RedisClusterTopology;
let redis: RedisClient;
beforeAll(async () => {
  cluster = await startRedisCluster();
  redis = await connectRedis({ REDIS_URL: cluster.url }, { keyPrefix: '{hookgate-ledger}:' });
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

describe('the ledger on Redis Cluster', () => {
  it('claims several keys at once (one script), lists and inspects them', async () => {
    const store = createLedgerStore(redis, { keyPrefix: '{hookgate-ledger}:', pendingTtlMs: 60_000 });
    const ref = { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', namespace: 'shop', name: 'web' };
    expect(await store.claim(['hosts/a', 'hosts/b', 'hosts/c'], 'owner-a', 't1', false, ref)).toEqual({ ok: true });
    expect(await store.claim(['hosts/c', 'hosts/d'], 'owner-b', 't2', false)).toEqual({
      ok: false,
      index: 0,
      holder: 'owner-a',
    });
    const { held } = await store.listHeld('', 100);
    expect(held.map((h) => h.key).sort()).toEqual(['hosts/a', 'hosts/b', 'hosts/c']);
    // inspect is a MULTI of two commands on one key.
    expect((await store.inspect('hosts/a'))?.owner).toBe('owner-a');
  });

  it('refuses a keyPrefix without a hash tag, saying what to set', async () => {
    await expect(connectRedis({ REDIS_URL: cluster.url }, { keyPrefix: 'hookgate:ledger:' })).rejects.toThrow(
      'ledger: keyPrefix "hookgate:ledger:" has no {hash tag}, which Redis Cluster needs (every key of a queue must hash to one slot): set keyPrefix: "{hookgate-ledger}:" in the ledger configuration',
    );
  });

  it('refuses a malformed REDIS_URL, password hidden', async () => {
    await expect(connectRedis({ REDIS_URL: 'redis+cluster://:secret@n1/0' })).rejects.toThrow(
      'ledger: REDIS_URL "redis+cluster://:***@n1/0": must not have a path: Redis Cluster has only database 0',
    );
  });
});
