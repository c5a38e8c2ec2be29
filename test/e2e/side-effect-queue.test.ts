/**
 * Side-effect jobs from the gateway process: a test plugin (SDK, its own process) reports a side
 * effect for every Pod CREATE; the gateway (its own process, node:cluster) makes one BullMQ job of
 * it in the plugin's queue before it answers. Redis is real: the shared one, or a redis-server of
 * the test's own that it stops and restarts (an outage, a restart that empties it). The hook is
 * configured twice: failurePolicy Fail for namespace `strict`, Ignore for namespace `lenient`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedis, freePort, startGateway, type GatewayProcess, type RedisHandle } from '@hookgate/devtools';
import { computeJobId, jobKey, reconcileQueueName, type StoredSideEffectJob } from '@hookgate/queue';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { fetchMetrics, sampleValue } from '../src/metrics-text.js';
import { startPlugin, type PluginProcess } from '../src/plugin-process.js';
import { podCreateReview } from '../src/pod-review.js';
import { startRestartableRedis, type RestartableRedis } from '../src/restartable-redis.js';

const PLUGIN = 'behaviours';
const HOOK = 'side-effect.plugin.test';
const QUEUE = reconcileQueueName(PLUGIN);

let dir: string;
let plugin: PluginProcess;
let shared: RedisHandle;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookgate-queue-e2e-'));
  [plugin, shared] = await Promise.all([
    startPlugin('behaviour-plugin.ts', [`unix://${join(dir, 'behaviours.sock')}`, PLUGIN]),
    ensureRedis(),
  ]);
});
afterAll(async () => {
  await plugin?.stop();
  await shared?.stop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  readonly redisUrl: string;
  readonly prefix?: string;
  readonly spool?: Record<string, unknown>;
  readonly workers?: number;
  readonly stateDir?: string;
}

function configFor({ redisUrl, prefix, spool, workers }: Setup): string {
  const hook = (failurePolicy: string, policy: string) => ({
    name: HOOK,
    clientConfig: { plugin: PLUGIN },
    sideEffects: 'NoneOnDryRun',
    failurePolicy,
    namespaceSelector: { matchLabels: { policy } },
  });
  return gatewayConfigYaml(
    [
      webhookConfiguration('validating', 'strict-side-effects', [hook('Fail', 'fail')]),
      webhookConfiguration('validating', 'lenient-side-effects', [hook('Ignore', 'ignore')]),
    ],
    {
      plugins: [{ name: PLUGIN, target: plugin.target }],
      namespaces: [
        { name: 'strict', labels: { policy: 'fail' } },
        { name: 'lenient', labels: { policy: 'ignore' } },
      ],
      workers: workers ?? 1,
      extra: {
        redis: { url: redisUrl, ...(prefix ? { prefix } : {}), identityCheckSeconds: 1, addTimeoutMs: 500 },
        ...(spool ? { spool } : {}),
      },
    },
  );
}

async function gatewayWith(setup: Setup): Promise<{ gateway: GatewayProcess; client: AdmissionClient }> {
  const gateway = await startGateway({
    config: configFor(setup),
    ...(setup.stateDir ? { stateDir: setup.stateDir } : {}),
  });
  const client = new AdmissionClient(gateway.admissionUrl);
  cleanups.push(async () => {
    await client.close();
    await gateway.stop();
  });
  return { gateway, client };
}

function reviewFor(namespace: string, options: { dryRun?: boolean } = {}) {
  const uid = randomUUID();
  const name = `web-${uid.slice(0, 8)}`;
  return {
    uid,
    name,
    namespace,
    body: podCreateReview({ uid, name, namespace, ...(options.dryRun ? { dryRun: true } : {}) }),
    jobId: computeJobId({
      plugin: PLUGIN,
      requestUid: uid,
      hook: HOOK,
      effectKind: 'reservation',
      effectKey: `${namespace}/${name}`,
    }),
  };
}

type Review = ReturnType<typeof reviewFor>;

async function redisClient(url: string): Promise<Redis> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  await client.connect();
  cleanups.push(async () => void client.disconnect());
  return client;
}

async function storedJob(client: Redis, prefix: string, review: Review): Promise<StoredSideEffectJob | null> {
  const data = await client.hget(jobKey(prefix, QUEUE, review.jobId), 'data');
  return data === null ? null : (JSON.parse(data) as StoredSideEffectJob);
}

async function admitted(client: AdmissionClient, review: Review): Promise<boolean | undefined> {
  const answer = await client.post('/validate', review.body, { timeout: '10s' });
  expect(answer.status).toBe(200);
  return answer.review.response?.allowed;
}

async function metric(gateway: GatewayProcess, name: string, labels: Record<string, string> = {}): Promise<number> {
  return sampleValue(await fetchMetrics(gateway.metricsUrl), name, labels) ?? 0;
}

describe('side-effect jobs with Redis up', () => {
  it('puts each side effect in its plugin queue under its deterministic id, with the admission summary and no object body', async () => {
    const prefix = `{e2e-${randomUUID()}}`;
    const { gateway, client } = await gatewayWith({ redisUrl: shared.url, prefix });
    const redis = await redisClient(shared.url);
    cleanups.push(async () => void (await redis.keys(`${prefix}:*`).then((keys) => keys.length && redis.del(...keys))));
    const review = reviewFor('strict');
    expect(await admitted(client, review)).toBe(true);
    // Acknowledged before the answer: the job is there as soon as the gateway has answered.
    const job = await storedJob(redis, prefix, review);
    expect(job).toMatchObject({
      schema: 1,
      plugin: PLUGIN,
      hook: HOOK,
      effect: {
        kind: 'reservation',
        key: `strict/${review.name}`,
        payload: Buffer.from('{"reserved":true}').toString('base64'),
      },
      admission: {
        uid: review.uid,
        operation: 'CREATE',
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: 'strict',
        name: review.name,
        dryRun: false,
        phase: 'validating',
      },
      decision: { allowed: true },
    });
    expect(JSON.stringify(job)).not.toContain('do-not-log-this-value');
    expect(JSON.stringify(job)).not.toContain('nginx');
    // Counted by the primary once the worker's batch of acknowledged jobs reaches it (within 50 ms).
    await expect
      .poll(() => metric(gateway, 'hookgate_side_effect_jobs_total', { plugin: PLUGIN, outcome: 'added' }))
      .toBe(1);

    // A dryRun request reports the effect as a violation (NoneOnDryRun): warned about, no job.
    const dryRun = reviewFor('strict', { dryRun: true });
    expect(await admitted(client, dryRun)).toBe(true);
    expect(await storedJob(redis, prefix, dryRun)).toBeNull();
    expect(await redis.llen(`${prefix}:${QUEUE}:wait`)).toBe(1);
  });
});

describe('side-effect jobs across Redis outages', () => {
  let redis: RestartableRedis;
  beforeAll(async () => {
    redis = await startRestartableRedis();
  });
  afterAll(() => redis?.stop());

  it('keeps admitting while Redis is down, spools, and drains when it is back (replaying what the restart emptied), none twice', async () => {
    await redis.start();
    const prefix = `{e2e-${randomUUID()}}`;
    const { gateway, client } = await gatewayWith({ redisUrl: redis.url, prefix, workers: 2 });
    const reviews: Review[] = [];
    const send = async (namespace: string) => {
      const review = reviewFor(namespace);
      reviews.push(review);
      expect(await admitted(client, review)).toBe(true);
    };
    for (let i = 0; i < 4; i++) await send('strict');
    await redis.stop();
    for (let i = 0; i < 8; i++) await send(i % 2 === 0 ? 'strict' : 'lenient');
    expect(await metric(gateway, 'hookgate_side_effect_spool_pending_records')).toBe(8);
    await redis.start(); // empty: the first four jobs are gone with the old Redis
    const client2 = await redisClient(redis.url);
    await expect
      .poll(async () => (await Promise.all(reviews.map((r) => storedJob(client2, prefix, r)))).filter(Boolean).length, {
        timeout: 15_000,
      })
      .toBe(reviews.length);
    expect(await client2.llen(`${prefix}:${QUEUE}:wait`)).toBe(reviews.length);
    await expect.poll(() => metric(gateway, 'hookgate_side_effect_spool_pending_records')).toBe(0);
    expect(await metric(gateway, 'hookgate_side_effect_jobs_total', { plugin: PLUGIN, outcome: 'spooled' })).toBe(8);
    expect(await metric(gateway, 'hookgate_side_effect_replays_total', { result: 'done' })).toBeGreaterThanOrEqual(1);
  });

  it('replays the recently acknowledged jobs when Redis restarts empty', async () => {
    await redis.start();
    const prefix = `{e2e-${randomUUID()}}`;
    const { gateway, client } = await gatewayWith({ redisUrl: redis.url, prefix });
    const reviews = [reviewFor('strict'), reviewFor('lenient')];
    for (const review of reviews) expect(await admitted(client, review)).toBe(true);
    // The background batch that keeps acknowledged jobs for a replay is written within ~50 ms.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await redis.restart();
    const client2 = await redisClient(redis.url);
    await expect
      .poll(async () => (await Promise.all(reviews.map((r) => storedJob(client2, prefix, r)))).filter(Boolean).length, {
        timeout: 15_000,
      })
      .toBe(2);
    expect(
      await metric(gateway, 'hookgate_side_effect_jobs_handed_on_total', { via: 'replay', outcome: 'added' }),
    ).toBe(2);
  });

  it('drains after a restart what a SIGKILLed gateway left in its spool', async () => {
    await redis.stop();
    const prefix = `{e2e-${randomUUID()}}`;
    const stateDir = join(dir, `state-${randomUUID()}`);
    cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
    const first = await gatewayWith({ redisUrl: redis.url, prefix, stateDir });
    const reviews = [reviewFor('strict'), reviewFor('strict'), reviewFor('lenient')];
    for (const review of reviews) expect(await admitted(first.client, review)).toBe(true);
    first.gateway.signal('SIGKILL');
    await first.gateway.exited;
    await redis.start();
    await gatewayWith({ redisUrl: redis.url, prefix, stateDir });
    const client2 = await redisClient(redis.url);
    await expect
      .poll(async () => (await Promise.all(reviews.map((r) => storedJob(client2, prefix, r)))).filter(Boolean).length, {
        timeout: 15_000,
      })
      .toBe(3);
  });
});

describe('side-effect jobs with the spool full and Redis unreachable', () => {
  it('denies for the Fail hook with the reason, admits for the Ignore hook, and counts both', async () => {
    const unreachable = `redis://127.0.0.1:${await freePort()}`;
    const { gateway, client } = await gatewayWith({ redisUrl: unreachable, spool: { maxBytes: 4096 } });
    let message: string | undefined;
    for (let i = 0; i < 20 && message === undefined; i++) {
      const answer = await client.post('/validate', reviewFor('strict').body, { timeout: '10s' });
      if (answer.review.response?.allowed === false) message = answer.review.response.status?.message;
    }
    expect(message).toMatch(
      /^Internal error occurred: failed calling webhook "side-effect\.plugin\.test": HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED: the side effects hook side-effect\.plugin\.test reported could not be recorded for reconciliation: Redis did not take them \(.*\), and the spool could not keep them: spool .* is full/,
    );
    expect(await admitted(client, reviewFor('lenient'))).toBe(true);
    expect(
      await metric(gateway, 'hookgate_side_effect_unrecorded_total', { name: HOOK, failure_policy: 'Fail' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await metric(gateway, 'hookgate_side_effect_unrecorded_total', { name: HOOK, failure_policy: 'Ignore' }),
    ).toBe(1);
    expect(
      await metric(gateway, 'hookgate_side_effect_jobs_total', { plugin: PLUGIN, outcome: 'error' }),
    ).toBeGreaterThanOrEqual(2);
    const line = await gateway.waitForLog((l) => l.level === 'error' && l['decision'] === 'fail-open');
    expect(line).toMatchObject({ hook: HOOK, namespace: 'lenient', code: 'HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED' });
  });
});
