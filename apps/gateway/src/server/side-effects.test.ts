import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionRequest, ReportedSideEffect } from '@hookgate/admission';
import { ensureRedis, freePort, type RedisHandle } from '@hookgate/devtools';
import { HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED } from '@hookgate/errors';
import { createGatewayMetrics, createLogger, createMetricsRegistry } from '@hookgate/observability';
import { jobIdOf, type SideEffectJob } from '@hookgate/queue';
import { createUnrecordedCounter } from '../queue/queue-metrics.js';
import { deletePrefix, openTestRecorder, storedJob } from '../queue/test/recorder-fixtures.js';
import {
  loggingSideEffectSink,
  queuedSideEffectSink,
  type ReviewFacts,
  type SideEffectContext,
  type SideEffectSink,
} from './side-effects.js';

const context: SideEffectContext = {
  uid: 'u1',
  phase: 'validating',
  operation: 'CREATE',
  resource: 'v1/pods',
  namespace: 'ns',
  name: 'web',
  allowed: true,
  dryRun: false,
};

const request = {
  uid: 'u1',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  name: 'web',
  namespace: 'ns',
  operation: 'CREATE',
  userInfo: { username: 'alice' },
  object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', uid: 'obj-1' }, spec: { secret: 'spec-body' } },
  dryRun: false,
} as AdmissionRequest;

const review: ReviewFacts = { request, outcome: { allowed: true, trace: [] }, waitMs: 3000 };

function effect(overrides: Partial<ReportedSideEffect> = {}): ReportedSideEffect {
  return {
    hook: 'quota.example.com',
    configuration: 'c',
    plugin: 'quota',
    failurePolicy: 'Fail',
    kind: 'reservation',
    key: 'ns/web',
    payload: new TextEncoder().encode('secret-payload'),
    ...overrides,
  };
}

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()),
  });
  const registry = createMetricsRegistry();
  return {
    lines,
    registry,
    log: createLogger({ component: 'test', destination, level: 'debug' }),
    metrics: createGatewayMetrics(registry),
  };
}

describe('loggingSideEffectSink (no redis)', () => {
  const cases = [
    { name: 'a normal side effect is logged at info', violation: undefined, level: 'info', label: 'none' },
    { name: 'one on a dryRun request is a violation', violation: 'dry-run' as const, level: 'warn', label: 'dry-run' },
    {
      name: 'one from a sideEffects None hook is a violation',
      violation: 'side-effects-none' as const,
      level: 'warn',
      label: 'side-effects-none',
    },
  ];
  it.each(cases)('$name', async ({ violation, level, label }) => {
    const { lines, registry, log, metrics } = capture();
    const sink = loggingSideEffectSink(log, metrics);
    expect(sink.record([effect(violation ? { violation } : {})], context, review)).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level,
      hook: 'quota.example.com',
      kind: 'reservation',
      key: 'ns/web',
      uid: 'u1',
      namespace: 'ns',
      objectName: 'web',
    });
    expect(JSON.stringify(lines)).not.toContain('secret-payload');
    expect(await registry.metrics()).toContain(
      `hookgate_admission_webhook_side_effects_total{name="quota.example.com",type="validating",kind="reservation",violation="${label}"} 1`,
    );
  });
});

describe('queuedSideEffectSink (redis, through a real JobRecorder)', () => {
  let redis: RedisHandle;
  beforeAll(async () => {
    redis = await ensureRedis();
  });
  afterAll(() => redis.stop());
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function sinkOn(redisUrl: string, maxBytes = 1024 * 1024) {
    const dir = await mkdtemp(join(tmpdir(), 'hookgate-sink-'));
    const prefix = `{hgtest-${randomUUID()}}`;
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    cleanups.push(() => deletePrefix(redis.url, prefix));
    const { recorder } = await openTestRecorder({
      redisUrl,
      prefix,
      dir: join(dir, 'spool'),
      identityFile: join(dir, 'run-id'),
      maxBytes,
    });
    cleanups.push(() => recorder.close());
    const captured = capture();
    const recorded: SideEffectJob[][] = [];
    const sink: SideEffectSink = queuedSideEffectSink({
      log: captured.log,
      metrics: captured.metrics,
      unrecorded: createUnrecordedCounter(captured.registry),
      record: (jobs, waitMs) => (recorded.push([...jobs]), recorder.record(jobs, waitMs)),
      gateway: 'gw-test',
      clock: () => 1_700_000_000_000,
    });
    return { ...captured, sink, prefix, recorder, recorded };
  }

  it('makes one job per side effect (no object body) and resolves once Redis has them', async () => {
    const { sink, prefix, recorder, recorded } = await sinkOn(redis.url);
    await expect.poll(() => recorder.redisUp()).toBe(true);
    const effects = [effect(), effect({ key: 'ns/other', payload: undefined }), effect({ violation: 'dry-run' })];
    const verdict = await sink.record(effects, context, review);
    expect(verdict).toEqual({});
    expect(recorded).toHaveLength(1);
    const jobs = recorded[0]!;
    expect(jobs.map((j) => j.effect.key)).toEqual(['ns/web', 'ns/other']);
    expect(jobs[0]).toMatchObject({
      schema: 1,
      plugin: 'quota',
      hook: 'quota.example.com',
      effect: { kind: 'reservation', key: 'ns/web', payload: Buffer.from('secret-payload').toString('base64') },
      admission: {
        uid: 'u1',
        operation: 'CREATE',
        namespace: 'ns',
        name: 'web',
        objectUid: 'obj-1',
        phase: 'validating',
      },
      decision: { allowed: true },
      gateway: 'gw-test',
      time: 1_700_000_000_000,
    });
    const stored = await storedJob(redis.url, prefix, jobs[0]!);
    expect(stored).toMatchObject({ ...jobs[0] });
    expect(JSON.stringify(stored)).not.toContain('spec-body');
    expect(jobIdOf(jobs[0]!)).toMatch(/^se1-[0-9a-f]{64}$/);
  });

  it('makes no job and waits for nothing when every side effect is a violation', async () => {
    const { sink, recorded, lines } = await sinkOn(redis.url);
    expect(sink.record([effect({ violation: 'side-effects-none' })], context, review)).toBeUndefined();
    expect(recorded).toHaveLength(0);
    expect(lines.map((l) => l['level'])).toEqual(['warn']);
  });

  it('denies for a Fail hook and admits for an Ignore hook when neither Redis nor the spool takes the jobs', async () => {
    const unused = `redis://127.0.0.1:${await freePort()}`;
    const { sink, registry, lines } = await sinkOn(unused, 4096);
    // Fill the spool: its 4 KiB hold a few jobs.
    for (let i = 0; i < 20; i++) {
      const verdict = await sink.record([effect({ key: `fill-${i}`, failurePolicy: 'Ignore' })], context, review);
      if (verdict !== undefined && 'denial' in verdict) break;
    }
    const ignored = await sink.record([effect({ hook: 'soft.example.com', failurePolicy: 'Ignore' })], context, review);
    expect(ignored).toEqual({});
    const denied = await sink.record([effect({ hook: 'strict.example.com' })], context, review);
    expect(denied?.denial).toMatchObject({ code: 500, reason: 'InternalError' });
    expect(denied?.denial?.message).toMatch(
      new RegExp(
        `^Internal error occurred: failed calling webhook "strict.example.com": ${HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED.code}: the side effects hook strict.example.com reported could not be recorded for reconciliation: Redis did not take them .*spool .* is full`,
      ),
    );
    expect(denied?.denial?.details).toEqual({
      causes: [
        {
          reason: HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED.code,
          message: expect.stringContaining('strict.example.com'),
        },
      ],
    });
    const text = await registry.metrics();
    expect(text).toContain('hookgate_side_effect_unrecorded_total{name="strict.example.com",failure_policy="Fail"} 1');
    expect(text).toContain('hookgate_side_effect_unrecorded_total{name="soft.example.com",failure_policy="Ignore"} 1');
    const errors = lines.filter((l) => l['level'] === 'error');
    expect(errors.find((l) => l['hook'] === 'strict.example.com')).toMatchObject({
      decision: 'fail-closed',
      uid: 'u1',
    });
    expect(errors.find((l) => l['hook'] === 'soft.example.com')).toMatchObject({ decision: 'fail-open', uid: 'u1' });
    expect(JSON.stringify(lines)).not.toContain('secret-payload');
  });

  it('does not turn a denied request into another denial', async () => {
    const unused = `redis://127.0.0.1:${await freePort()}`;
    const { sink } = await sinkOn(unused, 4096);
    let verdict;
    for (let i = 0; i < 20 && verdict?.denial === undefined; i++)
      verdict = await sink.record([effect({ key: `fill-${i}` })], context, review);
    expect(verdict?.denial).toBeDefined();
    expect(await sink.record([effect()], { ...context, allowed: false }, review)).toEqual({});
  });
});
