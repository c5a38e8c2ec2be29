import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ensureRedis } from './redis.js';
import {
  startRedisCluster,
  startRedisSentinel,
  type RedisClusterTopology,
  type RedisSentinelTopology,
} from './redis-topologies.js';

let sentinel: RedisSentinelTopology;
let cluster: RedisClusterTopology;
beforeAll(async () => {
  [sentinel, cluster] = await Promise.all([startRedisSentinel(), startRedisCluster()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([sentinel?.stop(), cluster?.stop()]);
});

describe('startRedisSentinel', () => {
  it('names its Sentinel in a redis+sentinel URL, and a failover moves the master to the replica', async () => {
    expect(sentinel.url).toMatch(/^redis\+sentinel:\/\/127\.0\.0\.1:\d+\/hookgate$/);
    const before = await sentinel.masterUrl();
    const { from, to } = await sentinel.failover();
    expect(from).toBe(before);
    expect(await sentinel.masterUrl()).toBe(to);
    const promoted = new Redis(to, { maxRetriesPerRequest: 1 });
    try {
      expect(await promoted.set('hgtest-topologies:after-failover', '1')).toBe('OK');
    } finally {
      promoted.disconnect();
    }
  }, 60_000);
});

describe('startRedisCluster', () => {
  it('starts three masters that share the 16384 slots', async () => {
    expect(cluster.nodeUrls).toHaveLength(3);
    const node = new Redis(cluster.nodeUrls[0]!, { maxRetriesPerRequest: 1 });
    try {
      const info = String(await node.call('CLUSTER', 'INFO'));
      expect(info).toMatch(/cluster_state:ok/);
      expect(info).toMatch(/cluster_slots_assigned:16384/);
      expect(info).toMatch(/cluster_size:3/);
    } finally {
      node.disconnect();
    }
  });
});

describe('ensureRedis with a topology URL', () => {
  it('takes a redis+sentinel or redis+cluster REDIS_URL that answers (PING to its first host)', async () => {
    for (const url of [sentinel.url, cluster.url]) {
      expect(await ensureRedis({ env: { REDIS_URL: url } })).toMatchObject({ url, source: 'REDIS_URL' });
    }
  });
});
