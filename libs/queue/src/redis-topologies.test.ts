/**
 * The producer, BullMQ workers, the registered-plugins keys and the identity probe on a real Redis
 * Cluster (three masters) and behind a real Sentinel, each started by the test (devtools).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import {
  startRedisCluster,
  startRedisSentinel,
  type RedisClusterTopology,
  type RedisSentinelTopology,
} from '@hookgate/devtools';
import { sampleJob } from './testing/sample-job.js';
import { SideEffectProducer } from './producer.js';
import { REDIS_CLIENT_BEHAVIOUR, createRedisClient, isCluster, type RedisClient } from './redis-client.js';
import { parseRunId, readRedisRunId } from './redis-identity.js';
import { publishRegisteredPlugins, readRegisteredPlugins } from './registered-plugins.js';
import { reconcileQueueName } from './queue-names.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Adds `count` jobs and has a BullMQ worker (the controller's client behaviour) take them all. */
async function roundTrip(url: string, prefix: string, count: number): Promise<string[]> {
  const producer = new SideEffectProducer({ redisUrl: url, prefix });
  cleanups.push(() => producer.close());
  await expect.poll(() => producer.connectionStatus, { timeout: 10_000 }).toBe('ready');
  const jobs = Array.from({ length: count }, (_, i) => sampleJob({}, { uid: `uid-${i}` }));
  const results = await Promise.all(jobs.map((job) => producer.add(job)));
  expect(results.map((r) => r.outcome)).toEqual(jobs.map(() => 'added'));
  // Again: duplicates (the HGET read-back works across the topology).
  expect((await producer.add(jobs[0]!)).outcome).toBe('duplicate');

  const seen: string[] = [];
  const connection = createRedisClient(url, REDIS_CLIENT_BEHAVIOUR.worker());
  const worker = new Worker(
    reconcileQueueName('ledger'),
    async (job: Job) => {
      seen.push(job.id!);
    },
    { connection, prefix, concurrency: 4 },
  );
  cleanups.push(async () => {
    await worker.close();
    connection.disconnect();
  });
  await expect.poll(() => seen.length, { timeout: 15_000 }).toBe(count);
  return results.map((r) => r.jobId).sort();
}

describe('on Redis Cluster', () => {
  let cluster: RedisClusterTopology;
  let client: RedisClient;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    cleanups.push(() => cluster.stop());
    client = createRedisClient(cluster.url, REDIS_CLIENT_BEHAVIOUR.worker());
    cleanups.push(() => client.disconnect());
  }, 60_000);

  it('the producer adds jobs and a BullMQ worker takes every one', async () => {
    expect(isCluster(client)).toBe(true);
    await roundTrip(cluster.url, '{hg-cluster}', 20);
  }, 60_000);

  it('publishes and reads the registered plugins (MULTI and MGET in the prefix slot)', async () => {
    const prefix = '{hg-registry}';
    const set = { schema: 1 as const, gateway: 'gw-1', generation: 1, publishedAt: 1, plugins: [] };
    await publishRegisteredPlugins(client, prefix, set, 10_000);
    await publishRegisteredPlugins(client, prefix, { ...set, gateway: 'gw-2' }, 10_000);
    const read = await readRegisteredPlugins(client, prefix);
    expect(read.sets.map((s) => s.gateway)).toEqual(['gw-1', 'gw-2']);
  });

  it("the identity is the run_id of the master owning the prefix's slot", async () => {
    const prefix = '{hg-identity}';
    const slot = Number(await client.call('CLUSTER', 'KEYSLOT', prefix));
    const owner = await ownerOf(cluster, slot);
    expect(await readRedisRunId(client, prefix)).toBe(owner);
  });

  it('refuses a prefix without a hash tag, saying why', () => {
    expect(() => new SideEffectProducer({ redisUrl: cluster.url, prefix: 'hookgate' })).toThrow(
      'invalid queue prefix "hookgate": has no {hash tag}, which Redis Cluster needs (every key of a queue must hash to one slot): use a prefix such as {hookgate}',
    );
  });
});

describe('behind Redis Sentinel', () => {
  let sentinel: RedisSentinelTopology;
  beforeAll(async () => {
    sentinel = await startRedisSentinel();
    cleanups.push(() => sentinel.stop());
  }, 60_000);

  it('the producer adds jobs on the master and a worker takes them; the identity is the master', async () => {
    await roundTrip(sentinel.url, '{hg-sentinel}', 10);
    const producer = new SideEffectProducer({ redisUrl: sentinel.url, prefix: '{hg-sentinel}' });
    cleanups.push(() => producer.close());
    await expect.poll(() => producer.connectionStatus, { timeout: 10_000 }).toBe('ready');
    expect(await producer.redisRunId()).toBe(await runIdOf(await sentinel.masterUrl()));
  }, 60_000);
});

async function ownerOf(cluster: RedisClusterTopology, slot: number): Promise<string | undefined> {
  for (const url of cluster.nodeUrls) {
    const node = new Redis(url);
    try {
      const ranges = (await node.call('CLUSTER', 'SLOTS')) as [number, number, [string, number, string]][];
      const [, , [host, port]] = ranges.find(([from, to]) => from <= slot && slot <= to)!;
      return runIdOf(`redis://${host}:${port}`);
    } finally {
      node.disconnect();
    }
  }
  return undefined;
}

async function runIdOf(url: string): Promise<string | undefined> {
  const node = new Redis(url);
  try {
    return parseRunId(await node.info('server'));
  } finally {
    node.disconnect();
  }
}
