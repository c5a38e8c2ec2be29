/**
 * JobRecorder behind a real Redis Sentinel (a master, a replica, one Sentinel; devtools): reviews
 * keep being recorded across a forced failover, none is lost (what the old master took and did not
 * replicate, or what found no master for a moment, is spooled or replayed), and the promoted
 * replica's other run_id is seen as a change of identity.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisSentinel, type RedisSentinelTopology } from '@hookgate/devtools';
import type { SideEffectJob } from '@hookgate/queue';
import { metricValue, openTestRecorder, sampleJob, storedJob, type TestRecorder } from './test/recorder-fixtures.js';

let sentinel: RedisSentinelTopology;
let dir: string;
let opened: TestRecorder | undefined;
beforeAll(async () => {
  sentinel = await startRedisSentinel();
  dir = await mkdtemp(join(tmpdir(), 'hookgate-recorder-sentinel-'));
}, 60_000);
afterAll(async () => {
  await opened?.recorder.close();
  await sentinel?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('JobRecorder behind Redis Sentinel', () => {
  it('records every review across a SENTINEL FAILOVER, loses none, and replays on the new identity', async () => {
    const prefix = `{hgtest-${randomUUID()}}`;
    opened = await openTestRecorder({
      redisUrl: sentinel.url,
      prefix,
      dir: join(dir, 'spool'),
      identityFile: join(dir, 'redis-run-id'),
      addTimeoutMs: 500,
    });
    const { recorder, registry, logs } = opened;
    await expect.poll(() => recorder.redisUp(), { timeout: 10_000 }).toBe(true);

    const jobs: SideEffectJob[] = [];
    const outcomes: unknown[] = [];
    let recording = true;
    // One review every ~10 ms, before, during and after the failover.
    const reviews = (async () => {
      for (let i = 0; recording || i < 40; i++) {
        const job = sampleJob('ledger', `key-${i}`);
        jobs.push(job);
        outcomes.push(await recorder.record([job], 2_000));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await expect.poll(() => jobs.length, { timeout: 10_000 }).toBeGreaterThan(20);
    const { from, to } = await sentinel.failover();
    expect(to).not.toBe(from);
    const atFailover = jobs.length;
    await expect.poll(() => jobs.length, { timeout: 20_000 }).toBeGreaterThan(atFailover + 20);
    recording = false;
    await reviews;

    // Every review was made durable (Redis or spool): none answered with the failurePolicy.
    expect(outcomes.filter((o) => (o as { ok: boolean }).ok !== true)).toEqual([]);
    // The new master's other run_id was seen, and the replay ran.
    await expect
      .poll(() => metricValue(registry, 'hookgate_side_effect_replays_total{result="done"}'), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(1);
    expect(logs.some((l) => String(l['msg']).includes('replaying the jobs acknowledged'))).toBe(true);
    // Spool drained, and every job is in the queue on the master the Sentinel names now.
    await expect.poll(() => recorder.stats().pendingRecords, { timeout: 20_000 }).toBe(0);
    const missing = async () => {
      const absent: string[] = [];
      for (const job of jobs) if ((await storedJob(sentinel.url, prefix, job)) === null) absent.push(job.effect.key);
      return absent;
    };
    await expect.poll(missing, { timeout: 20_000 }).toEqual([]);
    expect(await sentinel.masterUrl()).toBe(to);
  }, 90_000);
});
