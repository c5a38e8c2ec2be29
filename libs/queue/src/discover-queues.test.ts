/** discoverPluginQueues on a real Redis (ensureRedis), a prefix of its own, its keys deleted after. */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedis, type RedisHandle } from '@hookgate/devtools';
import { discoverPluginQueues } from './discover-queues.js';
import { reconcileQueueName } from './queue-names.js';

describe('discoverPluginQueues', () => {
  let redis: RedisHandle;
  let client: Redis;
  const tag = `hg-disc-${randomUUID().slice(0, 8)}`;
  const prefix = `{${tag}}`;
  /** A prefix that starts like the one searched: its queues are not listed. */
  const sibling = `{${tag}}x`;
  beforeAll(async () => {
    redis = await ensureRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    for (const p of [prefix, sibling]) {
      const keys = await client.keys(`${p}:*`);
      if (keys.length > 0) await client.del(...keys);
    }
    await client.quit();
    await redis.stop();
  });

  it('finds every plugin with any key of a queue under the prefix, sorted, and nothing else', async () => {
    expect(await discoverPluginQueues(client, prefix)).toEqual([]);
    // A queue with a job, as the gateway's producer leaves it.
    const queue = new Queue(reconcileQueueName('quota'), { connection: client, prefix });
    await queue.add('side-effect', { any: 1 });
    await queue.close();
    // Only a leftover key of a queue (its scheduler, its meta): still a queue nobody may serve.
    await client.set(`${prefix}:${reconcileQueueName('ledger.example.com')}:meta`, 'x');
    await client.set(`${prefix}:${reconcileQueueName('alpha')}:repeat:hookgate-resync`, 'x');
    // Not plugin queues: another queue, a name that is no plugin name, another prefix, no prefix.
    await client.set(`${prefix}:other-queue:meta`, 'x');
    await client.set(`${prefix}:hookgate-reconcile-Not_A_Name:meta`, 'x');
    await client.set(`${sibling}:${reconcileQueueName('sibling')}:meta`, 'x');
    expect(await discoverPluginQueues(client, prefix)).toEqual(['alpha', 'ledger.example.com', 'quota']);
    expect(await discoverPluginQueues(client, sibling)).toEqual(['sibling']);
  });

  it('walks more keys than one SCAN page', async () => {
    const many = `${prefix}:${reconcileQueueName('paged')}`;
    const pipeline = client.pipeline();
    for (let i = 0; i < 2_500; i++) pipeline.set(`${many}:job-${i}`, 'x');
    await pipeline.exec();
    expect(await discoverPluginQueues(client, prefix)).toContain('paged');
  });

  it('rejects when Redis refuses', async () => {
    const closed = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    await expect(discoverPluginQueues(closed, prefix)).rejects.toThrow();
    closed.disconnect();
  });
});
