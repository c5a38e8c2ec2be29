/**
 * Bad input along the reconcile pipeline, every part its own process (gateway, controller,
 * plugins; real Redis; the fake apiserver over HTTP): a damaged record in a stopped gateway's
 * spool, an undecodable job put straight into a plugin queue, a plugin whose Reconcile answers
 * bytes that are no ReconcileResponse, and one whose Reconcile never answers. Each is logged and
 * counted, nothing crashes, and the neighbouring jobs are reconciled.
 */
import { randomUUID } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { GatewayProcess } from '@hookgate/devtools';
import {
  SideEffectProducer,
  buildSideEffectJob,
  computeJobId,
  reconcileQueueName,
  type SideEffectJob,
} from '@hookgate/queue';
import { AdmissionClient } from '../src/admission-client.js';
import { startPlugin } from '../src/plugin-process.js';
import {
  RECONCILE_HOOK,
  controllerConfig,
  jobView,
  podReview,
  printedLines,
  reconcileCounts,
  reconcileGatewayConfig,
  storePod,
  type PodReview,
} from '../src/reconcile-pipeline.js';
import { metricValue, useReconcileEnvironment } from '../src/reconcile-environment.js';
import { startRestartableRedis } from '../src/restartable-redis.js';

const RECONCILE_PLUGIN = 'reconciles';
const GARBAGE_PLUGIN = 'garbage';

const env = useReconcileEnvironment({ name: 'bad-input', plugin: RECONCILE_PLUGIN, releaseFile: 'never-released' });
const { cleanups, casePrefix } = env;

async function gateway(
  redisUrl: string,
  prefix: string,
  stateDir: string,
): Promise<{ gateway: GatewayProcess; client: AdmissionClient }> {
  const config = reconcileGatewayConfig({
    plugin: { name: RECONCILE_PLUGIN, target: env.reconcilePlugin.target },
    redisUrl,
    prefix,
  });
  return cleanups.gateway(config, stateDir);
}

async function admitted(client: AdmissionClient, review: PodReview): Promise<boolean | undefined> {
  const answer = await client.post('/validate', review.body, { timeout: '10s' });
  expect(answer.status).toBe(200);
  return answer.review.response?.allowed;
}

/** A job as the gateway makes it, for a request a hook denied: NOT_PERSISTED without a read, so Reconcile comes at once. */
function deniedJob(plugin: string, key: string): SideEffectJob & { requestUid: string } {
  const requestUid = randomUUID();
  const [namespace = '', name = ''] = key.split('/');
  const job = buildSideEffectJob({
    plugin,
    effect: { hook: RECONCILE_HOOK, kind: 'effect', key, payload: Buffer.from('{"effect":true}') },
    admission: {
      uid: requestUid,
      operation: 'CREATE',
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: '',
      namespace,
      name,
      generateName: '',
      dryRun: false,
      phase: 'validating',
    },
    decision: { allowed: false, by: 'hook', hook: 'deny.plugin.test', code: 403 },
    gateway: 'bad-input-e2e',
    time: Date.now(),
  });
  return { ...job, requestUid };
}

const jobIdOfDenied = (job: ReturnType<typeof deniedJob>) =>
  computeJobId({
    plugin: job.plugin,
    requestUid: job.requestUid,
    hook: job.hook,
    effectKind: job.effect.kind,
    effectKey: job.effect.key,
  });

async function addJobs(prefix: string, jobs: readonly SideEffectJob[]): Promise<void> {
  const producer = new SideEffectProducer({ redisUrl: env.redis.url, prefix });
  try {
    // The producer fails fast while it connects (the gateway would spool): wait until it is ready.
    await expect.poll(() => producer.connectionStatus, { timeout: 5_000, interval: 20 }).toBe('ready');
    for (const job of jobs) expect((await producer.add(job)).outcome).toBe('added');
  } finally {
    await producer.close();
  }
}

/** Frame offsets of a spool segment (libs/spool README: 16-byte header; magic, length, seq, time, CRC, payload). */
function frames(segment: Buffer): { offset: number; length: number }[] {
  const found: { offset: number; length: number }[] = [];
  let offset = 16;
  while (offset + 28 <= segment.length) {
    const length = segment.readUInt32LE(offset + 4);
    found.push({ offset, length });
    offset += 28 + length;
  }
  return found;
}

describe('a damaged record in the spool', () => {
  it('is logged and counted when the gateway restarts, and the records around it are delivered and reconciled', async () => {
    const redis = await startRestartableRedis();
    cleanups.push(() => redis.stop());
    await redis.stop();
    const prefix = `{spool-${randomUUID().slice(0, 8)}}`;
    const stateDir = join(env.dir, `state-${randomUUID().slice(0, 8)}`);
    const first = await gateway(redis.url, prefix, stateDir);
    const reviews = [podReview('spooled'), podReview('spooled'), podReview('spooled')];
    for (const review of reviews) {
      expect(await admitted(first.client, review)).toBe(true);
      storePod(env.api, review);
    }
    expect(await metricValue(first.gateway.metricsUrl, 'hookgate_side_effect_spool_pending_records')).toBe(3);
    await first.gateway.stop();

    // One record per review, in order: damage the middle one's payload (its CRC no longer matches).
    const spoolDir = join(stateDir, 'spool');
    const [segmentName, ...others] = (await readdir(spoolDir)).filter((f) => f.endsWith('.seg'));
    expect(others).toEqual([]);
    const segment = await readFile(join(spoolDir, segmentName!));
    const records = frames(segment);
    expect(records).toHaveLength(3);
    const middle = records[1]!;
    segment.write('garbage', middle.offset + 28 + Math.floor(middle.length / 2), 'latin1');
    await writeFile(join(spoolDir, segmentName!), segment);

    await redis.start();
    const [second, ctl] = await Promise.all([
      gateway(redis.url, prefix, stateDir),
      cleanups.controller(
        controllerConfig({
          redisUrl: redis.url,
          prefix,
          plugins: [{ name: RECONCILE_PLUGIN, target: env.reconcilePlugin.target }],
          kubeconfig: env.kubeconfig,
        }),
      ),
    ]);
    const warning = await second.gateway.waitForLog(
      (l) => l.level === 'warn' && /damaged records were skipped/.test(String(l.msg)),
    );
    expect(warning).toMatchObject({ corruptRecords: 1, tornTails: 0 });
    expect(await metricValue(second.gateway.metricsUrl, 'hookgate_side_effect_spool_corrupt_records')).toBe(1);

    const own = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    cleanups.push(async () => own.disconnect());
    const neighbours = [reviews[0]!, reviews[2]!];
    for (const review of neighbours) {
      await expect
        .poll(async () => (await jobView(own, prefix, RECONCILE_PLUGIN, review.jobId(RECONCILE_PLUGIN))).state, {
          timeout: 20_000,
          interval: 100,
        })
        .toBe('completed');
      await expect
        .poll(() => reconcileCounts(env.reconcilePlugin, review.uid).applied, { timeout: 5_000 })
        .toEqual(['PERSISTED']);
    }
    // The damaged record's job is lost (the warning says so), not half-delivered.
    expect((await jobView(own, prefix, RECONCILE_PLUGIN, reviews[1]!.jobId(RECONCILE_PLUGIN))).state).toBe('absent');
    expect(await metricValue(second.gateway.metricsUrl, 'hookgate_side_effect_spool_pending_records')).toBe(0);
    expect(second.gateway.exitCode()).toBeNull();
    expect(ctl.exitCode()).toBeNull();
  });
});

describe('an undecodable job in a plugin queue', () => {
  it('is failed at once, logged and counted; the controller keeps reconciling the jobs after it', async () => {
    const prefix = casePrefix();
    const ctl = await cleanups.controller(
      controllerConfig({
        redisUrl: env.redis.url,
        prefix,
        plugins: [{ name: RECONCILE_PLUGIN, target: env.reconcilePlugin.target }],
        kubeconfig: env.kubeconfig,
      }),
    );
    const connection = new Redis(env.redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(reconcileQueueName(RECONCILE_PLUGIN), { connection, prefix });
    cleanups.push(async () => {
      await queue.close();
      connection.disconnect();
    });
    await queue.add('reconcile', { schema: 99, effect: 'not an effect' }, { jobId: 'undecodable-1', attempts: 3 });
    await queue.add('reconcile', 'just a string', { jobId: 'undecodable-2', attempts: 3 });
    const after = deniedJob(RECONCILE_PLUGIN, 'default/after-garbage');
    await addJobs(prefix, [after]);

    for (const jobId of ['undecodable-1', 'undecodable-2']) {
      await expect
        .poll(async () => (await jobView(env.redisClient, prefix, RECONCILE_PLUGIN, jobId)).state, { timeout: 15_000 })
        .toBe('failed');
      expect((await jobView(env.redisClient, prefix, RECONCILE_PLUGIN, jobId)).failedReason).toMatch(
        /^undecodable side-effect job \(.+\): it can never be reconciled/,
      );
      const line = await ctl.waitForLog((l) => l.level === 'warn' && l['jobId'] === jobId);
      expect(String(line.msg)).toContain('reconcile job left in the failed set after 1 attempt(s)');
    }
    await expect
      .poll(async () => (await jobView(env.redisClient, prefix, RECONCILE_PLUGIN, jobIdOfDenied(after))).state, {
        timeout: 15_000,
      })
      .toBe('completed');
    expect(
      await metricValue(ctl.healthUrl, 'hookgate_reconcile_total', {
        plugin: RECONCILE_PLUGIN,
        outcome: 'none',
        result: 'fail',
      }),
    ).toBe(2);
    expect(
      await metricValue(ctl.healthUrl, 'hookgate_reconcile_total', {
        plugin: RECONCILE_PLUGIN,
        outcome: 'none',
        result: 'dead-lettered',
      }),
    ).toBe(2);
    expect(ctl.exitCode()).toBeNull();
  });
});

describe('a plugin answering garbage or hanging in Reconcile', () => {
  it('has those jobs retried or delayed, never a crash, while the other jobs are reconciled', async () => {
    const prefix = casePrefix();
    const garbage = await startPlugin('garbage-reconcile-plugin.ts', [`unix://${join(env.dir, 'garbage.sock')}`]);
    cleanups.push(() => garbage.stop());
    const ctl = await cleanups.controller(
      controllerConfig({
        redisUrl: env.redis.url,
        prefix,
        plugins: [
          { name: GARBAGE_PLUGIN, target: garbage.target },
          { name: RECONCILE_PLUGIN, target: env.reconcilePlugin.target },
        ],
        kubeconfig: env.kubeconfig,
        extra: { reconcileTimeoutMs: 800, attempts: 3 },
      }),
    );
    const garbled = deniedJob(GARBAGE_PLUGIN, 'garbage/one');
    const garbageNeighbours = [deniedJob(GARBAGE_PLUGIN, 'fine/one'), deniedJob(GARBAGE_PLUGIN, 'fine/two')];
    const hanging = deniedJob(RECONCILE_PLUGIN, 'default/hang-one');
    const hangNeighbours = [
      deniedJob(RECONCILE_PLUGIN, 'default/ok-one'),
      deniedJob(RECONCILE_PLUGIN, 'default/ok-two'),
    ];
    await addJobs(prefix, [garbled, hanging, ...garbageNeighbours, ...hangNeighbours]);

    const state = async (job: ReturnType<typeof deniedJob>) =>
      (await jobView(env.redisClient, prefix, job.plugin, jobIdOfDenied(job))).state;
    for (const job of [...garbageNeighbours, ...hangNeighbours])
      await expect.poll(() => state(job), { timeout: 15_000 }).toBe('completed');
    for (const job of hangNeighbours)
      await expect
        .poll(() => reconcileCounts(env.reconcilePlugin, job.requestUid).applied, { timeout: 5_000 })
        .toEqual(['NOT_PERSISTED']);

    // Garbage is the plugin's answer (not a transport failure): retried with attempts, then the failed set.
    await expect.poll(() => state(garbled), { timeout: 15_000 }).toBe('failed');
    expect(printedLines(garbage).filter((l) => l.reconcile === 'garbage/one')).toHaveLength(3);
    const deadLettered = await ctl.waitForLog((l) => l.level === 'warn' && l['jobId'] === jobIdOfDenied(garbled));
    expect(deadLettered).toMatchObject({ plugin: GARBAGE_PLUGIN, effectKey: 'garbage/one', attempts: 3 });
    expect(
      await metricValue(ctl.healthUrl, 'hookgate_reconcile_total', {
        plugin: GARBAGE_PLUGIN,
        outcome: 'NOT_PERSISTED',
        result: 'retry',
      }),
    ).toBe(3);
    expect(
      await metricValue(ctl.healthUrl, 'hookgate_reconcile_total', {
        plugin: GARBAGE_PLUGIN,
        outcome: 'NOT_PERSISTED',
        result: 'dead-lettered',
      }),
    ).toBe(1);
    expect(String(deadLettered['reason'])).toMatch(/garbage.*Reconcile/);

    // A Reconcile that never answers times out: delayed without using attempts, called again and again.
    await expect
      .poll(() => reconcileCounts(env.reconcilePlugin, hanging.requestUid).calls, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    expect(['delayed', 'active', 'waiting']).toContain(await state(hanging));
    expect(
      await metricValue(ctl.healthUrl, 'hookgate_reconcile_total', {
        plugin: RECONCILE_PLUGIN,
        outcome: 'NOT_PERSISTED',
        result: 'delay',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(ctl.exitCode()).toBeNull();
  });
});
