/** watchUnservedQueues on a real Redis (ensureRedis): its discovery kept for the interval, served queues left out. */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger, ensureRedis, type RedisHandle } from '@hookgate/devtools';
import { reconcileQueueName } from '@hookgate/queue';
import { watchUnservedQueues } from './unserved-queues.js';

describe('watchUnservedQueues', () => {
  let redis: RedisHandle;
  let client: Redis;
  const prefix = `{hg-unserved-${randomUUID().slice(0, 8)}}`;
  beforeAll(async () => {
    redis = await ensureRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
    await redis.stop();
  });

  const addJob = async (plugin: string) => {
    const queue = new Queue(reconcileQueueName(plugin), { connection: client, prefix });
    await queue.add('side-effect', { any: 1 });
    await queue.close();
  };

  it('discovers at most once per interval, and leaves out the queues served now', async () => {
    let clock = 1_000_000;
    const served = new Set<string>();
    const { logger } = capturedLogger('controller');
    const unserved = watchUnservedQueues({
      connection: client,
      prefix,
      isServed: (plugin) => served.has(plugin),
      logger,
      probeTimeoutMs: 1_000,
      discoveryIntervalMs: 30_000,
      now: () => clock,
    });
    try {
      await addJob('gone');
      const plugins = async () => (await unserved.probes()).map((p) => p.plugin);
      expect(await plugins()).toEqual(['gone']);
      await addJob('later');
      clock += 29_000;
      expect(await plugins()).toEqual(['gone']);
      clock += 1_000;
      expect(await plugins()).toEqual(['gone', 'later']);
      served.add('gone');
      expect(await plugins()).toEqual(['later']);
      const [later] = await unserved.probes();
      expect(await later?.jobCounts()).toEqual({ waiting: 1, prioritized: 0, delayed: 0, failed: 0 });
      expect(await later?.oldestPendingTimestamp()).toBeGreaterThan(0);
    } finally {
      await unserved.close();
    }
    expect(await unserved.probes()).toEqual([]);
  });

  it('a discovery that fails keeps the last list and warns once', async () => {
    let clock = 0;
    const connection = new Redis(redis.url);
    const { logger, logs } = capturedLogger('controller');
    const unserved = watchUnservedQueues({
      connection,
      prefix,
      isServed: () => false,
      logger,
      probeTimeoutMs: 1_000,
      discoveryTimeoutMs: 500,
      now: () => clock,
    });
    try {
      await addJob('kept');
      expect((await unserved.probes()).map((p) => p.plugin)).toContain('kept');
      connection.disconnect();
      clock += 60_000;
      expect((await unserved.probes()).map((p) => p.plugin)).toContain('kept');
      clock += 60_000;
      await unserved.probes();
      expect(logs.filter((l) => l['level'] === 'warn')).toHaveLength(1);
    } finally {
      await unserved.close();
      connection.disconnect();
    }
  });
});
