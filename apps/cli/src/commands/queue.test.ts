/**
 * `hookgate queue status` and `hookgate queue retry` against real queues on a real Redis
 * (ensureRedis), each test on a prefix of its own; a gateway's /metrics is a real HTTP server.
 * One case runs the installed `hookgate` binary as a user would.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, REPO_ROOT, ensureRedis, type RedisHandle } from '@hookgate/devtools';
import { reconcileQueueName } from '@hookgate/queue';
import { sampleJob } from '@hookgate/queue/testing';
import { queueRetryCommand } from './queue-retry.js';
import { queueStatusCommand, type QueueStatus } from './queue-status.js';
import { capture } from '../test/captured-stream.js';

let redis: RedisHandle;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = await ensureRedis();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await redis?.stop();
});

/** Two plugin queues on a fresh prefix: ledger with 2 waiting and 2 failed jobs, quota with 1 waiting. */
async function seed(): Promise<{ prefix: string; ledger: Queue; failedIds: string[] }> {
  const prefix = `{hgtest-${randomUUID().slice(0, 8)}}`;
  const ledger = new Queue(reconcileQueueName('ledger'), { connection: { url: redis.url }, prefix });
  const quota = new Queue(reconcileQueueName('quota'), { connection: { url: redis.url }, prefix });
  cleanups.push(async () => {
    for (const queue of [ledger, quota]) {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
  const failing = [randomUUID(), randomUUID()];
  for (const id of failing)
    await ledger.add('side-effect', sampleJob({}, { uid: id }), { jobId: `f-${id}`, attempts: 3 });
  // A worker that fails them for good, then stops: they stay in the failed set.
  const worker = new Worker(
    ledger.name,
    async () => {
      throw new UnrecoverableError('plugin said not done');
    },
    { connection: { url: redis.url }, prefix },
  );
  await new Promise<void>((resolve) => {
    let failed = 0;
    worker.on('failed', () => ++failed === failing.length && resolve());
  });
  await worker.close();
  await ledger.add('side-effect', sampleJob({}, { uid: 'w1' }), { jobId: 'w1' });
  await ledger.add('side-effect', sampleJob({}, { uid: 'w2' }), { jobId: 'w2' });
  await quota.add('side-effect', sampleJob({ plugin: 'quota' }), { jobId: 'q1' });
  return { prefix, ledger, failedIds: failing.map((id) => `f-${id}`) };
}

async function gatewayMetrics(body: string): Promise<string> {
  const server: Server = createServer((_req, res) => res.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/metrics`;
}

describe('hookgate queue status', () => {
  it('counts jobs per plugin and state (json), with the spool from the gateway metrics', async () => {
    const { prefix } = await seed();
    const metrics = await gatewayMetrics(
      [
        '# TYPE hookgate_side_effect_spool_pending_records gauge',
        'hookgate_side_effect_spool_pending_records 7',
        'hookgate_side_effect_spool_pending_bytes 2048',
        'hookgate_side_effect_spool_oldest_pending_age_seconds 12.5',
      ].join('\n'),
    );
    const out = capture();
    const err = capture();
    const code = await queueStatusCommand(
      { redis: redis.url, prefix, output: 'json', gatewayMetrics: metrics },
      {},
      out.stream,
      err.stream,
    );
    expect(err.text()).toBe('');
    expect(code).toBe(0);
    const status = JSON.parse(out.text()) as QueueStatus;
    expect(status.queues.map((q) => [q.plugin, q.counts.waiting, q.counts.failed])).toEqual([
      ['ledger', 2, 2],
      ['quota', 1, 0],
    ]);
    expect(status.spool).toEqual({ pendingRecords: 7, pendingBytes: 2048, oldestPendingAgeSeconds: 12.5 });
  });

  it('says the spool is not shown without --gateway-metrics, and a Redis that does not answer in one line', async () => {
    const { prefix } = await seed();
    const out = capture();
    expect(
      await queueStatusCommand({ redis: redis.url, prefix, output: 'text' }, {}, out.stream, capture().stream),
    ).toBe(0);
    expect(out.text()).toMatch(/^PLUGIN +WAITING +PRIORITIZED +ACTIVE +DELAYED +FAILED/m);
    expect(out.text()).toMatch(/^ledger +2 +0 +0 +0 +2 +0 +-$/m);
    expect(out.text()).toContain("spool: not shown: the spool is the gateway's; pass --gateway-metrics");
    expect(out.text()).toContain('2 failed job(s)');

    const err = capture();
    const code = await queueStatusCommand(
      { redis: 'redis://:secret@127.0.0.1:9', prefix, output: 'text' },
      {},
      capture().stream,
      err.stream,
    );
    expect(code).toBe(1);
    expect(err.text()).toMatch(
      /^hookgate queue status: cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:9\/?: .*pass --redis URL or set REDIS_URL\n$/,
    );
    expect(err.text()).not.toContain('secret');
  });
});

describe('hookgate queue retry', () => {
  it("moves one plugin's failed jobs back to waiting with their attempts reset", async () => {
    const { prefix, ledger, failedIds } = await seed();
    const out = capture();
    const code = await queueRetryCommand(
      { redis: redis.url, prefix, plugin: ['ledger'], output: 'text' },
      {},
      out.stream,
      capture().stream,
    );
    expect(code).toBe(0);
    expect(out.text()).toBe('ledger: 2 failed job(s) moved back to waiting\n');
    for (const id of failedIds) {
      expect(await ledger.getJobState(id)).toBe('waiting');
      expect((await ledger.getJob(id))?.attemptsMade).toBe(0);
    }
  });

  it('refuses to guess which queues, and names a job that is not failed', async () => {
    const { prefix } = await seed();
    const err = capture();
    expect(
      await queueRetryCommand({ redis: redis.url, prefix, output: 'text' }, {}, capture().stream, err.stream),
    ).toBe(2);
    expect(err.text()).toContain('--plugin NAME (repeatable) or --all');
    const notFailed = capture();
    const code = await queueRetryCommand(
      { redis: redis.url, prefix, plugin: ['ledger'], job: 'w1', output: 'text' },
      {},
      capture().stream,
      notFailed.stream,
    );
    expect(code).toBe(1);
    expect(notFailed.text()).toContain('job "w1" of ledger is waiting, not failed');
  });

  it('the hookgate binary retries every queue with --all and prints json', async () => {
    const { prefix } = await seed();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI_BIN, 'queue', 'retry', '--all', '--redis', redis.url, '--prefix', prefix, '--output', 'json'],
      { cwd: REPO_ROOT, timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toMatchObject({
      retried: [
        { plugin: 'ledger', retried: 2 },
        { plugin: 'quota', retried: 0 },
      ],
    });
  }, 60_000);
});
