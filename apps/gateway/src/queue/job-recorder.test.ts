/**
 * JobRecorder against a real Redis and real spool files. Redis that stops and comes back is a
 * redis-server of the test's own (startRedisServer, killed by pid), restarted on the same port;
 * unreachable Redis is an unused port.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ensureRedis, freePort, startRedisServer, type RedisHandle } from '@hookgate/devtools';
import { HG_ERR_SPOOL_FULL } from '@hookgate/errors';
import { Spool } from '@hookgate/spool';
import { readLastRunId } from './redis-identity-file.js';
import {
  deletePrefix,
  metricValue,
  openTestRecorder,
  sampleJob,
  storedJob,
  type TestRecorder,
} from './test/recorder-fixtures.js';

let shared: RedisHandle;
beforeAll(async () => {
  shared = await ensureRedis();
});
afterAll(() => shared.stop());

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(redisUrl: string, options: { maxBytes?: number; replayWindowMinutes?: number } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-recorder-'));
  const prefix = `{hgtest-${randomUUID()}}`;
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  cleanups.push(() => deletePrefix(shared.url, prefix));
  const paths = { redisUrl, prefix, dir: join(dir, 'spool'), identityFile: join(dir, 'redis-run-id') };
  const open = async (): Promise<TestRecorder> => {
    const opened = await openTestRecorder({ ...paths, ...options });
    cleanups.push(() => opened.recorder.close());
    return opened;
  };
  return { ...paths, open };
}

/** A private redis-server that the test may stop and start again on the same port. */
async function privateRedis(): Promise<{
  url: string;
  port: number;
  current: () => RedisHandle;
  restart(): Promise<void>;
  stop(): Promise<void>;
}> {
  const port = await freePort();
  let handle = await startRedisServer(5000, port);
  cleanups.push(() => handle.stop());
  return {
    url: handle.url,
    port,
    current: () => handle,
    stop: () => handle.stop(),
    async restart() {
      await handle.stop();
      handle = await startRedisServer(5000, port);
    },
  };
}

describe('JobRecorder with Redis up', () => {
  it('adds each job under its deterministic id in its plugin queue, and counts a repeat as duplicate', async () => {
    const { open, prefix } = await setup(shared.url);
    const { recorder, registry } = await open();
    await expect.poll(() => recorder.redisUp()).toBe(true);
    const jobs = [sampleJob('ledger', 'a'), sampleJob('dns', 'b')];
    expect(await recorder.record(jobs, 5000)).toEqual({ ok: true, via: 'redis' });
    for (const job of jobs) {
      const stored = await storedJob(shared.url, prefix, job);
      expect(stored).toMatchObject({ ...job });
    }
    expect(await recorder.record([jobs[0]!], 5000)).toEqual({ ok: true, via: 'redis' });
    expect(await metricValue(registry, 'hookgate_side_effect_jobs_total{plugin="ledger",outcome="added"}')).toBe(1);
    expect(await metricValue(registry, 'hookgate_side_effect_jobs_total{plugin="ledger",outcome="duplicate"}')).toBe(1);
    expect(await metricValue(registry, 'hookgate_side_effect_jobs_total{plugin="dns",outcome="added"}')).toBe(1);
  });
});

describe('JobRecorder: reviews recorded together', () => {
  it('spools exactly the jobs Redis refused within a batch; their neighbours are acknowledged and not spooled', async () => {
    const { open, prefix } = await setup(shared.url);
    const { recorder, registry } = await open();
    await expect.poll(() => recorder.redisUp()).toBe(true);
    const admin = new Redis(shared.url);
    cleanups.push(async () => void (await admin.quit()));
    // BullMQ's add script INCRs the queue's id counter: a value that is no integer makes Redis refuse it.
    const brokenCounter = `${prefix}:hookgate-reconcile-broken:id`;
    await admin.set(brokenCounter, 'not-a-number');
    const mixed = [sampleJob('ledger', 'a'), sampleJob('broken', 'b'), sampleJob('ledger', 'c')];
    const alone = sampleJob('dns', 'd');

    // Two reviews at once: their jobs go to Redis in one batch.
    const outcomes = await Promise.all([recorder.record(mixed, 5000), recorder.record([alone], 5000)]);

    expect(outcomes).toEqual([
      { ok: true, via: 'spool' },
      { ok: true, via: 'redis' },
    ]);
    expect(recorder.stats().pendingRecords).toBe(1);
    for (const job of [mixed[0]!, mixed[2]!, alone]) expect(await storedJob(shared.url, prefix, job)).not.toBeNull();
    expect(await storedJob(shared.url, prefix, mixed[1]!)).toBeNull();
    const count = (plugin: string, outcome: string) =>
      metricValue(registry, `hookgate_side_effect_jobs_total{plugin="${plugin}",outcome="${outcome}"}`);
    expect(await count('ledger', 'added')).toBe(2);
    expect(await count('ledger', 'spooled')).toBe(0);
    expect(await count('broken', 'spooled')).toBe(1);
    expect(await count('dns', 'added')).toBe(1);

    // Once Redis takes it, the drain hands on the refused job alone: the spool held nothing else.
    await admin.del(brokenCounter);
    await expect.poll(() => recorder.stats().pendingRecords, { timeout: 10_000 }).toBe(0);
    expect(await storedJob(shared.url, prefix, mixed[1]!)).toMatchObject({ ...mixed[1]! });
    const handedOn = (plugin: string) =>
      metricValue(
        registry,
        `hookgate_side_effect_jobs_handed_on_total{plugin="${plugin}",via="drain",outcome="added"}`,
      );
    expect(await handedOn('broken')).toBe(1);
    expect(await handedOn('ledger')).toBe(0);
  });
});

describe('JobRecorder with Redis down', () => {
  it('spools while Redis is down and drains in order when it is back, none twice', async () => {
    const redis = await privateRedis();
    const { open, prefix } = await setup(redis.url);
    const { recorder, registry } = await open();
    await expect.poll(() => recorder.redisUp()).toBe(true);
    await redis.stop();
    const jobs = Array.from({ length: 5 }, (_, i) => sampleJob('ledger', `k${i}`));
    for (const job of jobs) expect(await recorder.record([job], 2000)).toEqual({ ok: true, via: 'spool' });
    expect(recorder.stats().pendingRecords).toBe(5);
    expect(recorder.redisUp()).toBe(false);
    await redis.restart();
    await expect.poll(() => recorder.stats().pendingRecords, { timeout: 10_000 }).toBe(0);
    for (const job of jobs) expect(await storedJob(redis.url, prefix, job)).toMatchObject({ ...job });
    expect(await metricValue(registry, 'hookgate_side_effect_jobs_total{plugin="ledger",outcome="spooled"}')).toBe(5);
    expect(
      await metricValue(
        registry,
        'hookgate_side_effect_jobs_handed_on_total{plugin="ledger",via="drain",outcome="added"}',
      ),
    ).toBe(5);
    await expect.poll(() => recorder.redisUp()).toBe(true);
    expect(await recorder.record([sampleJob('ledger', 'after')], 2000)).toEqual({ ok: true, via: 'redis' });
  });

  it('drains what a previous run left in the spool', async () => {
    const unused = `redis://127.0.0.1:${await freePort()}`;
    const { open, dir, identityFile } = await setup(unused);
    const first = await open();
    const job = sampleJob('ledger', 'left-behind');
    expect(await first.recorder.record([job], 2000)).toEqual({ ok: true, via: 'spool' });
    await first.recorder.close();
    const prefix = `{hgtest-${randomUUID()}}`;
    cleanups.push(() => deletePrefix(shared.url, prefix));
    const second = await openTestRecorder({ redisUrl: shared.url, prefix, dir, identityFile });
    cleanups.push(() => second.recorder.close());
    await expect.poll(() => second.recorder.stats().pendingRecords, { timeout: 10_000 }).toBe(0);
    expect(await storedJob(shared.url, prefix, job)).toMatchObject({ ...job });
  });

  it('refuses with HG_ERR_SPOOL_FULL and why when the spool is full, never evicting', async () => {
    const unused = `redis://127.0.0.1:${await freePort()}`;
    const { open } = await setup(unused, { maxBytes: 4096 });
    const { recorder, registry } = await open();
    const outcomes = [];
    for (let i = 0; i < 12; i++) outcomes.push(await recorder.record([sampleJob('ledger', `k${i}`)], 2000));
    const refused = outcomes.filter((o) => !o.ok);
    expect(refused.length).toBeGreaterThan(0);
    expect(outcomes.slice(0, outcomes.length - refused.length).every((o) => o.ok)).toBe(true);
    expect(refused[0]).toMatchObject({ ok: false, code: HG_ERR_SPOOL_FULL.code });
    expect(refused[0]!.ok === false && refused[0]!.reason).toMatch(
      /Redis did not take them \(.*not connected.*\).*spool .* is full/,
    );
    expect(recorder.stats().pendingRecords).toBe(12 - refused.length);
    expect(await metricValue(registry, 'hookgate_side_effect_jobs_total{plugin="ledger",outcome="error"}')).toBe(
      refused.length,
    );
  });

  it('skips a spool record or job that cannot be added (not JSON, not a job, a plugin no queue can have), logging and counting it, and drains its neighbours', async () => {
    const { open, dir } = await setup(shared.url);
    const spool = await Spool.open({ dir });
    const before = sampleJob('ledger', 'before');
    const after = sampleJob('ledger', 'after');
    await spool.append(Buffer.from(JSON.stringify([before])));
    await spool.append(Buffer.from('{"not":"jobs"'));
    await spool.append(Buffer.from(JSON.stringify([{ schema: 9 }, after, { ...after, plugin: 'Not A Queue' }])));
    await spool.close();
    const { recorder, registry, logs } = await open();
    await expect.poll(() => recorder.stats().pendingRecords, { timeout: 10_000 }).toBe(0);
    expect(await metricValue(registry, 'hookgate_side_effect_spool_undecodable_total')).toBe(3);
    expect(logs.filter((l) => String(l['msg']).includes('holds what is not a job'))).toHaveLength(2);
    expect(
      await metricValue(
        registry,
        'hookgate_side_effect_jobs_handed_on_total{plugin="ledger",via="drain",outcome="added"}',
      ),
    ).toBe(2);
  });
});

describe('JobRecorder when Redis restarts empty', () => {
  it('replays the jobs acknowledged within the window; ids make the replay a no-op for jobs still there', async () => {
    const redis = await privateRedis();
    const { open, prefix } = await setup(redis.url);
    const { recorder, registry, logs } = await open();
    await expect.poll(() => recorder.redisUp()).toBe(true);
    const jobs = [sampleJob('ledger', 'one'), sampleJob('ledger', 'two')];
    for (const job of jobs) expect(await recorder.record([job], 2000)).toEqual({ ok: true, via: 'redis' });
    // The background batch that keeps them for replay is written within ~50 ms.
    await expect.poll(() => recorder.stats().retainedAcknowledgedRecords).toBeGreaterThan(0);
    await redis.restart();
    await expect
      .poll(() => metricValue(registry, 'hookgate_side_effect_replays_total{result="done"}'), { timeout: 10_000 })
      .toBe(1);
    for (const job of jobs) expect((await storedJob(redis.url, prefix, job))?.admission.uid).toBe(job.admission.uid);
    // Added, not duplicates: the new Redis had lost them.
    expect(
      await metricValue(
        registry,
        'hookgate_side_effect_jobs_handed_on_total{plugin="ledger",via="replay",outcome="added"}',
      ),
    ).toBe(2);
    expect(logs.some((l) => String(l['msg']).includes('replaying the jobs acknowledged'))).toBe(true);
  });

  it('replays at start when Redis changed identity while the gateway was down too', async () => {
    const redis = await privateRedis();
    const { open, prefix, identityFile } = await setup(redis.url);
    const first = await open();
    await expect.poll(() => first.recorder.redisUp()).toBe(true);
    const job = sampleJob('ledger', 'kept');
    await first.recorder.record([job], 2000);
    await expect.poll(() => first.recorder.stats().retainedAcknowledgedRecords).toBeGreaterThan(0);
    await expect.poll(() => readLastRunId(identityFile)).toMatch(/^[0-9a-f]+$/);
    await first.recorder.close();
    await redis.restart();
    const second = await open();
    await expect.poll(() => storedJob(redis.url, prefix, job), { timeout: 10_000 }).not.toBeNull();
    expect(await metricValue(second.registry, 'hookgate_side_effect_replays_total{result="done"}')).toBe(1);
  });

  it('replays nothing with a replay window of 0', async () => {
    const redis = await privateRedis();
    const { open, prefix } = await setup(redis.url, { replayWindowMinutes: 0 });
    const { recorder, registry } = await open();
    await expect.poll(() => recorder.redisUp()).toBe(true);
    const job = sampleJob('ledger', 'not-kept');
    await recorder.record([job], 2000);
    await redis.restart();
    await expect.poll(() => recorder.redisUp(), { timeout: 10_000 }).toBe(true);
    // A second record goes to the new Redis; the first one is not replayed.
    const next = sampleJob('ledger', 'next');
    await expect.poll(async () => (await recorder.record([next], 2000)).ok).toBe(true);
    expect(await storedJob(redis.url, prefix, job)).toBeNull();
    expect(recorder.stats().retainedAcknowledgedRecords).toBe(0);
    expect(await metricValue(registry, 'hookgate_side_effect_replays_total{result="done"}')).toBe(0);
  });
});
