/**
 * WorkerJobRecorder (a worker's own Redis hand-over) wired to a real JobRecorder (the primary's
 * spool, counters and replay copy) as the gateway wires them over IPC, here in one process. Real
 * redis-servers of the test's own, stopped, paused and restarted on their port (by pid).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { freePort, startRedisServer, type RedisHandle } from '@hookgate/devtools';
import { createLogger } from '@hookgate/observability';
import { prepareJob, type SideEffectJob } from '@hookgate/queue';
import { metricValue, openTestRecorder, sampleJob, storedJob, type TestRecorder } from './test/recorder-fixtures.js';
import { WorkerJobRecorder } from './worker-job-recorder.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Pair {
  readonly primary: TestRecorder;
  readonly worker: WorkerJobRecorder;
  /** What the primary told the worker, in order (true: add directly). */
  readonly routes: boolean[];
  /** How many jobs the primary was asked to record (everything that did not go to Redis from the worker). */
  readonly viaPrimary: () => number;
  readonly prefix: string;
  readonly redis: { url: string; restart(): Promise<void>; stop(): Promise<void>; start(): Promise<void> };
}

async function pair(options: { addTimeoutMs?: number } = {}): Promise<Pair> {
  const port = await freePort();
  let handle: RedisHandle | undefined = await startRedisServer(5000, port);
  cleanups.push(async () => handle?.stop());
  const redis = {
    url: handle.url,
    async stop() {
      await handle?.stop();
      handle = undefined;
    },
    async start() {
      handle = await startRedisServer(5000, port);
    },
    async restart() {
      await this.stop();
      await this.start();
    },
  };
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-worker-recorder-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const addTimeoutMs = options.addTimeoutMs ?? 1000;
  const prefix = `{hgtest-${randomUUID()}}`;
  const primary = await openTestRecorder({
    redisUrl: redis.url,
    prefix,
    dir: join(dir, 'spool'),
    identityFile: join(dir, 'redis-run-id'),
    addTimeoutMs,
  });
  cleanups.push(() => primary.recorder.close());
  let viaPrimary = 0;
  const worker = new WorkerJobRecorder({
    redis: {
      url: redis.url,
      prefix,
      addTimeoutMs,
      connectTimeoutMs: 500,
    },
    log: createLogger({
      component: 'test',
      level: 'debug',
      destination: new Writable({ write: (_c, _e, done) => done() }),
    }),
    viaPrimary: (jobs, waitMs, fallback) => {
      viaPrimary += jobs.length;
      return primary.recorder.recordPrepared(jobs, waitMs, fallback);
    },
    sendAcknowledged: async (batch) => primary.recorder.acknowledgedElsewhere(batch),
  });
  cleanups.push(() => worker.close());
  const routes: boolean[] = [];
  primary.recorder.onRouteChange((direct) => {
    routes.push(direct);
    worker.setDirect(direct);
  });
  return { primary, worker, routes, viaPrimary: () => viaPrimary, redis, prefix };
}

/** Redis stops answering writes for `ms` (its connections stay up). */
async function pauseWrites(url: string, ms: number): Promise<void> {
  const admin = new Redis(url, { lazyConnect: true });
  try {
    await admin.connect();
    await admin.call('CLIENT', 'PAUSE', String(ms), 'WRITE');
  } finally {
    admin.disconnect();
  }
}

async function stored(p: Pair, job: SideEffectJob) {
  return storedJob(p.redis.url, p.prefix, job);
}

describe('WorkerJobRecorder', () => {
  it('adds from the worker; the primary counts the batch and keeps it for a replay after Redis restarts empty', async () => {
    const p = await pair();
    // Both connections come up on their own; until the worker's does, its jobs go through the primary.
    await expect.poll(() => p.primary.recorder.redisUp() && p.worker.redisUp()).toBe(true);
    const jobs = [sampleJob('ledger', 'a'), sampleJob('dns', 'b')];
    expect(await p.worker.record(jobs, 5000)).toEqual({ ok: true, via: 'redis' });
    expect(p.viaPrimary()).toBe(0);
    for (const job of jobs) expect((await stored(p, job))?.effect.key).toBe(job.effect.key);

    // Counted once the batch reached the primary; a repeat is a duplicate.
    await expect
      .poll(() => metricValue(p.primary.registry, 'hookgate_side_effect_jobs_total{plugin="ledger",outcome="added"}'))
      .toBe(1);
    expect(await p.worker.record([jobs[0]!], 5000)).toEqual({ ok: true, via: 'redis' });
    await expect
      .poll(() =>
        metricValue(p.primary.registry, 'hookgate_side_effect_jobs_total{plugin="ledger",outcome="duplicate"}'),
      )
      .toBe(1);

    // Redis restarted empty: the primary replays what the worker added.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await p.redis.restart();
    await expect.poll(async () => (await stored(p, jobs[1]!)) !== null, { timeout: 10_000 }).toBe(true);
    expect(await stored(p, jobs[0]!)).not.toBeNull();

    // A batch that reaches the primary after the replay (a worker that stalled, or wrote to the
    // Redis that was replaced) is added again as well.
    const late = sampleJob('ledger', 'acknowledged-by-the-old-redis');
    p.primary.recorder.acknowledgedElsewhere({ jobs: [prepareJob(late)], outcomes: ['added'] });
    await expect.poll(async () => (await stored(p, late)) !== null, { timeout: 5_000 }).toBe(true);
  }, 20_000);

  it('goes through the primary while its own connection is down, and the spool drains when Redis is back', async () => {
    const p = await pair();
    await expect.poll(() => p.primary.recorder.redisUp()).toBe(true);
    await p.redis.stop();
    const job = sampleJob('ledger', 'down');
    expect(await p.worker.record([job], 5000)).toEqual({ ok: true, via: 'spool' });
    expect(p.viaPrimary()).toBe(1);
    // The primary spools: every worker goes through it until the spool drained.
    expect(p.routes).toEqual([false]);
    await p.redis.start();
    await expect.poll(async () => (await stored(p, job)) !== null, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => p.routes, { timeout: 10_000 }).toEqual([false, true]);
  }, 20_000);

  it('spools a review that ran out of time without taking the gateway off Redis', async () => {
    const p = await pair({ addTimeoutMs: 1000 });
    await expect.poll(() => p.primary.recorder.redisUp() && p.worker.redisUp()).toBe(true);
    await pauseWrites(p.redis.url, 500);
    // 150 ms left: Redis gets 50 of them (100 are kept for the spool), far less than addTimeoutMs.
    const hurried = sampleJob('ledger', 'hurried');
    expect(await p.worker.record([hurried], 150)).toEqual({ ok: true, via: 'spool' });
    expect(p.routes).toEqual([]);
    expect(p.worker.redisUp()).toBe(true);
    await expect.poll(async () => (await stored(p, hurried)) !== null, { timeout: 10_000 }).toBe(true);
  }, 20_000);

  it('spools what Redis does not acknowledge in time, sends every job through the primary until the spool drained, then adds directly again', async () => {
    const p = await pair({ addTimeoutMs: 300 });
    await expect.poll(() => p.primary.recorder.redisUp() && p.worker.redisUp()).toBe(true);
    // Redis stops answering writes for 1.5 s (the connection stays up): the worker's add times out.
    await pauseWrites(p.redis.url, 1500);
    const late = sampleJob('ledger', 'late');
    expect(await p.worker.record([late], 2000)).toEqual({ ok: true, via: 'spool' });
    expect(p.routes).toEqual([false]);
    // While the primary spools, the worker does not try Redis itself.
    const next = sampleJob('ledger', 'next');
    expect(await p.worker.record([next], 2000)).toEqual({ ok: true, via: 'spool' });
    expect(p.viaPrimary()).toBe(2);

    await expect.poll(() => p.routes.at(-1), { timeout: 10_000 }).toBe(true);
    for (const job of [late, next]) expect(await stored(p, job)).not.toBeNull();
    const after = sampleJob('ledger', 'after');
    expect(await p.worker.record([after], 2000)).toEqual({ ok: true, via: 'redis' });
    expect(p.viaPrimary()).toBe(2);
  }, 20_000);
});
