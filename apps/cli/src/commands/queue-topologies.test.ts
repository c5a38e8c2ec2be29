/**
 * `hookgate queue status` and `retry` through a real Redis Sentinel and on a real Redis Cluster
 * (devtools starts both; redis-server processes of the test's own, stopped by pid).
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startRedisCluster,
  startRedisSentinel,
  type RedisClusterTopology,
  type RedisSentinelTopology,
} from '@hookgate/devtools';
import { REDIS_CLIENT_BEHAVIOUR, createRedisClient, reconcileQueueName } from '@hookgate/queue';
import { sampleJob } from '@hookgate/queue/testing';
import { queueStatusCommand, type QueueStatus } from './queue-status.js';
import { capture } from '../test/captured-stream.js';

let sentinel: RedisSentinelTopology;
let cluster: RedisClusterTopology;
const cleanups: (() => Promise<unknown> | void)[] = [];
beforeAll(async () => {
  [sentinel, cluster] = await Promise.all([startRedisSentinel(), startRedisCluster()]);
}, 60_000);
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await Promise.all([sentinel?.stop(), cluster?.stop()]);
});

/** Waiting jobs in two plugin queues, added through the topology's own client. */
async function seed(url: string, prefix: string): Promise<void> {
  const connection = createRedisClient(url, REDIS_CLIENT_BEHAVIOUR.worker());
  const queues = ['ledger', 'quota'].map((plugin) => new Queue(reconcileQueueName(plugin), { connection, prefix }));
  cleanups.push(async () => {
    await Promise.all(queues.map((q) => q.close()));
    connection.disconnect();
  });
  await queues[0]!.add('side-effect', sampleJob({}, { uid: 'l1' }), { jobId: 'l1' });
  await queues[0]!.add('side-effect', sampleJob({}, { uid: 'l2' }), { jobId: 'l2' });
  await queues[1]!.add('side-effect', sampleJob({ plugin: 'quota' }), { jobId: 'q1' });
}

async function status(url: string, prefix: string): Promise<{ code: number; status?: QueueStatus; err: string }> {
  const out = capture();
  const err = capture();
  const code = await queueStatusCommand({ redis: url, prefix, output: 'json' }, {}, out.stream, err.stream);
  return { code, err: err.text(), ...(code === 0 ? { status: JSON.parse(out.text()) as QueueStatus } : {}) };
}

describe('hookgate queue status on other topologies', () => {
  it('finds and counts the queues through Sentinel', async () => {
    await seed(sentinel.url, '{hg-cli-sentinel}');
    const { code, status: found, err } = await status(sentinel.url, '{hg-cli-sentinel}');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(found!.queues.map((q) => [q.plugin, q.counts.waiting])).toEqual([
      ['ledger', 2],
      ['quota', 1],
    ]);
  });

  it('finds and counts the queues on Cluster (the prefix slot may be on any master)', async () => {
    await seed(cluster.url, '{hg-cli-cluster}');
    const { code, status: found, err } = await status(cluster.url, '{hg-cli-cluster}');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(found!.queues.map((q) => [q.plugin, q.counts.waiting])).toEqual([
      ['ledger', 2],
      ['quota', 1],
    ]);
  });

  it('refuses a Cluster prefix without a hash tag, and a Sentinel URL without a master, in one line', async () => {
    expect(await status(cluster.url, 'hookgate')).toMatchObject({
      code: 1,
      err: 'hookgate queue status: --prefix "hookgate": has no {hash tag}, which Redis Cluster needs (every key of a queue must hash to one slot): use a prefix such as {hookgate}\n',
    });
    const noMaster = sentinel.url.replace(/\/hookgate$/, '').replace('redis+sentinel://', 'redis+sentinel://:secret@');
    const refused = await status(noMaster, '{hookgate}');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /^hookgate queue status: --redis "redis\+sentinel:\/\/:\*\*\*@127\.0\.0\.1:\d+": must name the master/,
    );
  });

  it('fails fast with the redacted URL when the Sentinel does not know the master', async () => {
    const unknown = `${sentinel.url.replace('redis+sentinel://', 'redis+sentinel://:secret@')}-other`;
    const { code, err } = await status(unknown, '{hookgate}');
    expect(code).toBe(1);
    expect(err).toMatch(
      /^hookgate queue status: cannot reach Redis at redis\+sentinel:\/\/:\*\*\*@127\.0\.0\.1:\d+\/hookgate-other: /,
    );
    expect(err).not.toContain('secret');
  });
});
