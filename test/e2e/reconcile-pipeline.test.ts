/**
 * Side-effect reconciliation end to end, every part its own process: AdmissionReviews to the
 * gateway (node:cluster), whose hooks report side effects; the gateway's jobs in BullMQ on a real
 * Redis; the controller (apps/controller) reading what the fake apiserver stored (over HTTP, with
 * a kubeconfig) and calling the plugin's Reconcile. The objects the reviews admit are stored in the
 * fake apiserver the way the apiserver would after admission (or not, or replaced). Timings are
 * short (grace 300 ms, confirming read after 800 ms, stall check every 500 ms).
 */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeJobId } from '@hookgate/queue';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startBuiltinPlugin, startPlugin } from '../src/plugin-process.js';
import {
  controllerConfig,
  createReviewBody,
  jobView,
  podReview,
  reconcileCounts,
  reconcileGatewayConfig,
  storePod,
  type PodReview,
} from '../src/reconcile-pipeline.js';
import { metricValue, useReconcileEnvironment } from '../src/reconcile-environment.js';
import { startRestartableRedis, type RestartableRedis } from '../src/restartable-redis.js';

const RECONCILE_PLUGIN = 'reconciles';

const env = useReconcileEnvironment({
  name: 'pipeline',
  plugin: RECONCILE_PLUGIN,
  prepareApi: (api) =>
    api.registerResource({
      group: 'networking.k8s.io',
      version: 'v1',
      resource: 'ingresses',
      kind: 'Ingress',
      namespaced: true,
    }),
});
const { cleanups, casePrefix } = env;

/** The reconcile plugin's hook in a gateway of two workers, jobs on `redisUrl` under `prefix`. */
const reconcileGateway = (redisUrl: string, prefix: string) =>
  reconcileGatewayConfig({
    plugin: { name: RECONCILE_PLUGIN, target: env.reconcilePlugin.target },
    redisUrl,
    prefix,
    workers: 2,
  });

function reconcileController(redisUrl: string, prefix: string, extra: Record<string, unknown> = {}) {
  return controllerConfig({
    redisUrl,
    prefix,
    plugins: [{ name: RECONCILE_PLUGIN, target: env.reconcilePlugin.target }],
    kubeconfig: env.kubeconfig,
    extra,
  });
}

async function admit(
  client: AdmissionClient,
  body: unknown,
): Promise<{ allowed: boolean | undefined; message?: string }> {
  const answer = await client.post('/validate', body, { timeout: '10s' });
  expect(answer.status).toBe(200);
  const response = answer.review.response;
  return { allowed: response?.allowed, ...(response?.status?.message ? { message: response.status.message } : {}) };
}

async function completedCount(redis: Redis, prefix: string, reviews: readonly PodReview[]): Promise<number> {
  const views = await Promise.all(
    reviews.map((r) => jobView(redis, prefix, RECONCILE_PLUGIN, r.jobId(RECONCILE_PLUGIN))),
  );
  return views.filter((v) => v.state === 'completed').length;
}

/** Every review's effect reconciled and applied exactly once, PERSISTED (each was stored). */
async function expectAppliedOnce(reviews: readonly PodReview[]): Promise<void> {
  // The plugin prints before it answers; its output may reach this process a moment after Redis shows the job done.
  await expect
    .poll(() => reviews.filter((r) => reconcileCounts(env.reconcilePlugin, r.uid).applied.length > 0).length, {
      timeout: 5_000,
    })
    .toBe(reviews.length);
  for (const review of reviews) {
    const counts = reconcileCounts(env.reconcilePlugin, review.uid);
    expect({ name: review.name, ...counts, atLeastOnce: counts.calls >= 1 }).toEqual({
      name: review.name,
      calls: counts.calls,
      applied: ['PERSISTED'],
      atLeastOnce: true,
    });
  }
}

describe('the ledger end to end', () => {
  const LEDGER_HOOK = 'ledger.hookgate.dev';
  const ingressRules = [
    {
      operations: ['CREATE', 'UPDATE', 'DELETE'],
      apiGroups: ['networking.k8s.io'],
      apiVersions: ['v1'],
      resources: ['ingresses'],
    },
  ];
  const keyPrefix = `e2e-pipeline-ledger-${randomUUID().slice(0, 8)}:`;
  const ledgerKey = (host: string) => `${keyPrefix}hostnames/${host}`;

  function ingressReview(namespace: string, name: string, host: string, options: { dryRun?: boolean } = {}) {
    const uid = randomUUID();
    const objectUid = randomUUID();
    const ingress = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name, namespace, uid: objectUid, annotations: { 'ledger.hookgate.dev/hostname': host } },
      spec: { rules: [{ host }] },
    };
    return {
      uid,
      objectUid,
      name,
      namespace,
      host,
      body: createReviewBody({
        uid,
        group: 'networking.k8s.io',
        kind: 'Ingress',
        resource: 'ingresses',
        name,
        namespace,
        object: ingress,
        dryRun: options.dryRun ?? false,
      }),
      jobId: computeJobId({
        plugin: 'ledger',
        requestUid: uid,
        hook: LEDGER_HOOK,
        effectKind: 'reservation',
        effectKey: `hostnames/${host}`,
      }),
    };
  }
  const storeIngress = (review: ReturnType<typeof ingressReview>, uid = review.objectUid) =>
    env.api.create(
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: review.name, namespace: review.namespace, uid },
      },
      { keepUid: true },
    );

  it('keeps the claim of a stored object; releases those of a denied request, of an object never stored and of a replaced one; a dryRun claims nothing', async () => {
    const prefix = casePrefix();
    cleanups.push(async () => {
      const keys = await env.redisClient.keys(`${keyPrefix}*`);
      if (keys.length > 0) await env.redisClient.del(...keys);
    });
    const ledgerConfig = join(env.dir, 'ledger.yaml');
    await writeFile(
      ledgerConfig,
      stringify({
        keyPrefix,
        pendingTtlSeconds: 3600,
        ledgers: [
          {
            name: 'hostnames',
            kinds: ['networking.k8s.io/Ingress'],
            annotation: 'ledger.hookgate.dev/hostname',
            scope: 'Cluster',
            lowercase: true,
          },
        ],
      }),
    );
    const [ledger, behaviours] = await Promise.all([
      startBuiltinPlugin('ledger', {
        config: ledgerConfig,
        listen: `unix://${join(env.dir, 'ledger.sock')}`,
        env: { REDIS_URL: env.redis.url },
      }),
      startPlugin('behaviour-plugin.ts', [`unix://${join(env.dir, 'behaviours.sock')}`, 'behaviours']),
    ]);
    cleanups.push(() => Promise.all([ledger.stop(), behaviours.stop()]));
    // The ledger's hook, then a hook that denies every Ingress of namespace `denied`.
    const config = gatewayConfigYaml(
      [
        webhookConfiguration('validating', 'ledger-then-deny', [
          {
            name: LEDGER_HOOK,
            clientConfig: { plugin: 'ledger' },
            rules: ingressRules,
            sideEffects: 'NoneOnDryRun',
            failurePolicy: 'Fail',
          },
          {
            name: 'deny.plugin.test',
            clientConfig: { plugin: 'behaviours' },
            rules: ingressRules,
            namespaceSelector: { matchLabels: { deny: 'yes' } },
          },
        ]),
      ],
      {
        plugins: [
          { name: 'ledger', target: ledger.target },
          { name: 'behaviours', target: behaviours.target },
        ],
        namespaces: [
          { name: 'shop', labels: {} },
          { name: 'denied', labels: { deny: 'yes' } },
        ],
        extra: { redis: { url: env.redis.url, prefix, addTimeoutMs: 500 } },
      },
    );
    const [{ client }, ctl] = await Promise.all([
      cleanups.gateway(config),
      cleanups.controller(
        controllerConfig({
          redisUrl: env.redis.url,
          prefix,
          plugins: [{ name: 'ledger', target: ledger.target }],
          kubeconfig: env.kubeconfig,
        }),
      ),
    ]);

    const id = randomUUID().slice(0, 8);
    const stored = ingressReview('shop', `stored-${id}`, `stored-${id}.example.com`);
    const denied = ingressReview('denied', `denied-${id}`, `denied-${id}.example.com`);
    const neverStored = ingressReview('shop', `never-${id}`, `never-${id}.example.com`);
    const replaced = ingressReview('shop', `replaced-${id}`, `replaced-${id}.example.com`);
    const dryRun = ingressReview('shop', `dry-${id}`, `dry-${id}.example.com`, { dryRun: true });

    expect(await admit(client, stored.body)).toEqual({ allowed: true });
    storeIngress(stored);
    expect(await admit(client, denied.body)).toMatchObject({
      allowed: false,
      message: expect.stringContaining('is not allowed here'),
    });
    expect(await admit(client, neverStored.body)).toEqual({ allowed: true });
    // Claimed at admission, pending until reconciled (not before the grace period and the confirming read).
    expect(await env.redisClient.hget(ledgerKey(neverStored.host), 'state')).toBe('pending');
    expect(await admit(client, replaced.body)).toEqual({ allowed: true });
    storeIngress(replaced, randomUUID()); // another object took the name (a retried generateName, a delete and re-create)
    expect(await admit(client, dryRun.body)).toEqual({ allowed: true });

    const settled = async (review: { jobId: string }) => {
      await expect
        .poll(async () => (await jobView(env.redisClient, prefix, 'ledger', review.jobId)).state, {
          timeout: 20_000,
          interval: 100,
        })
        .toBe('completed');
      return (await jobView(env.redisClient, prefix, 'ledger', review.jobId)).returnvalue;
    };
    expect(await settled(stored)).toMatchObject({
      outcome: 'PERSISTED',
      rule: 'create-stored',
      message: expect.stringContaining('reservation confirmed'),
    });
    expect(await env.redisClient.hgetall(ledgerKey(stored.host))).toMatchObject({
      owner: `networking.k8s.io/Ingress/shop/stored-${id}`,
      state: 'confirmed',
    });
    expect(await settled(denied)).toMatchObject({
      outcome: 'NOT_PERSISTED',
      rule: 'denied-by-gateway',
      message: expect.stringContaining('reservation released'),
    });
    expect(await settled(neverStored)).toMatchObject({
      outcome: 'NOT_PERSISTED',
      rule: 'create-absent',
      message: expect.stringContaining('reservation released'),
    });
    expect(await settled(replaced)).toMatchObject({
      outcome: 'NOT_PERSISTED',
      rule: 'create-other-uid',
      message: expect.stringContaining('reservation released'),
    });
    for (const released of [denied, neverStored, replaced])
      expect(await env.redisClient.exists(ledgerKey(released.host))).toBe(0);
    // dryRun: no claim, no job.
    expect(await env.redisClient.exists(ledgerKey(dryRun.host))).toBe(0);
    expect((await jobView(env.redisClient, prefix, 'ledger', dryRun.jobId)).state).toBe('absent');
    expect(
      await metricValue(ctl.healthUrl, 'hookgate_reconcile_total', {
        plugin: 'ledger',
        outcome: 'PERSISTED',
        result: 'done',
      }),
    ).toBe(1);
    expect(
      await metricValue(ctl.healthUrl, 'hookgate_reconcile_total', {
        plugin: 'ledger',
        outcome: 'NOT_PERSISTED',
        result: 'done',
      }),
    ).toBe(3);
    // The released values are free again: another Ingress may take one.
    const again = ingressReview('shop', `again-${id}`, neverStored.host);
    expect(await admit(client, again.body)).toEqual({ allowed: true });
  });
});

describe('a Redis outage while reviews with side effects keep arriving', () => {
  let redis: RestartableRedis;
  beforeAll(async () => {
    redis = await startRestartableRedis();
  });
  afterAll(() => redis?.stop());

  it('keeps admitting, spools, drains when Redis is back, and reconciles every effect, none applied twice', async () => {
    const prefix = `{outage-${randomUUID().slice(0, 8)}}`;
    const [{ gateway: gw, client }, ctl] = await Promise.all([
      cleanups.gateway(reconcileGateway(redis.url, prefix)),
      cleanups.controller(reconcileController(redis.url, prefix)),
    ]);
    const own = new Redis(redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    own.on('error', () => undefined); // reconnects by itself after the outage
    cleanups.push(async () => own.disconnect());
    const send = async (reviews: PodReview[], review: PodReview) => {
      reviews.push(review);
      expect(await admit(client, review.body)).toEqual({ allowed: true });
      storePod(env.api, review);
    };

    const before: PodReview[] = [];
    for (let i = 0; i < 3; i++) await send(before, podReview('outage-before'));
    await expect.poll(() => completedCount(own, prefix, before), { timeout: 15_000, interval: 100 }).toBe(3);

    await redis.stop();
    const during: PodReview[] = [];
    // As long as the issue asks for: reconnect backoffs, timeouts and the spool all see a real outage.
    const outageEnds = Date.now() + 30_000;
    while (Date.now() < outageEnds) {
      await send(during, podReview('outage-during'));
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(await metricValue(gw.metricsUrl, 'hookgate_side_effect_spool_pending_records')).toBe(during.length);
    expect(ctl.exitCode()).toBeNull();
    await redis.start(); // empty, as Redis without persistence comes back: the jobs of `before` are replayed

    const all = [...before, ...during];
    await expect.poll(() => completedCount(own, prefix, all), { timeout: 45_000, interval: 200 }).toBe(all.length);
    expect(await metricValue(gw.metricsUrl, 'hookgate_side_effect_spool_pending_records')).toBe(0);
    expect(
      await metricValue(gw.metricsUrl, 'hookgate_side_effect_jobs_total', {
        plugin: RECONCILE_PLUGIN,
        outcome: 'spooled',
      }),
    ).toBe(during.length);
    await expectAppliedOnce(all);
    // Redis came back empty: the jobs of `before` were replayed and reconciled again, without a second application.
    for (const review of before)
      expect(reconcileCounts(env.reconcilePlugin, review.uid).calls).toBeGreaterThanOrEqual(2);
    expect(ctl.exitCode()).toBeNull();
  }, 150_000);
});

describe('a controller SIGKILLed mid-job', () => {
  it('has the job retried by the next controller after the stall check, and completed', async () => {
    const prefix = casePrefix();
    const releaseFile = env.releaseFile;
    await rm(releaseFile, { force: true });
    const [{ client }, first] = await Promise.all([
      cleanups.gateway(reconcileGateway(env.redis.url, prefix)),
      cleanups.controller(reconcileController(env.redis.url, prefix)),
    ]);
    const review = podReview('hold');
    expect(await admit(client, review.body)).toEqual({ allowed: true });
    storePod(env.api, review);
    // The first controller has called Reconcile, which now waits: kill the controller mid-job.
    await expect
      .poll(() => reconcileCounts(env.reconcilePlugin, review.uid).calls, { timeout: 15_000, interval: 20 })
      .toBe(1);
    first.signal('SIGKILL');
    await first.exited;
    expect((await jobView(env.redisClient, prefix, RECONCILE_PLUGIN, review.jobId(RECONCILE_PLUGIN))).state).toBe(
      'active',
    );
    await writeFile(releaseFile, '');

    const second = await cleanups.controller(reconcileController(env.redis.url, prefix));
    await second.waitForLog(
      (l) => l.level === 'warn' && l['jobId'] === review.jobId(RECONCILE_PLUGIN) && /stalled/.test(String(l.msg)),
    );
    await expect
      .poll(
        async () => (await jobView(env.redisClient, prefix, RECONCILE_PLUGIN, review.jobId(RECONCILE_PLUGIN))).state,
        {
          timeout: 15_000,
          interval: 100,
        },
      )
      .toBe('completed');
    expect(reconcileCounts(env.reconcilePlugin, review.uid)).toEqual({ calls: 2, applied: ['PERSISTED'] });
    expect(await metricValue(second.healthUrl, 'hookgate_reconcile_stalled_total', { plugin: RECONCILE_PLUGIN })).toBe(
      1,
    );
  });
});

describe('two gateways and two controllers on one Redis', () => {
  it('reconciles every effect; each applied once however many gateways recorded it', async () => {
    const prefix = casePrefix();
    const [one, two, ctlOne, ctlTwo] = await Promise.all([
      cleanups.gateway(reconcileGateway(env.redis.url, prefix)),
      cleanups.gateway(reconcileGateway(env.redis.url, prefix)),
      cleanups.controller(reconcileController(env.redis.url, prefix)),
      cleanups.controller(reconcileController(env.redis.url, prefix)),
    ]);
    const reviews = Array.from({ length: 16 }, () => podReview('pair'));
    await Promise.all(
      reviews.map(async (review, i) => {
        // Most go to one gateway or the other; every fourth to both (the same call retried on another replica).
        const targets = i % 4 === 0 ? [one, two] : [i % 2 === 0 ? one : two];
        for (const target of targets) expect(await admit(target.client, review.body)).toEqual({ allowed: true });
        storePod(env.api, review);
      }),
    );
    await expect
      .poll(() => completedCount(env.redisClient, prefix, reviews), { timeout: 30_000, interval: 200 })
      .toBe(reviews.length);
    await expectAppliedOnce(reviews);
    // One job per side effect, whichever gateways recorded it.
    expect(await env.redisClient.zcard(`${prefix}:hookgate-reconcile-${RECONCILE_PLUGIN}:completed`)).toBe(
      reviews.length,
    );
    const added = await Promise.all(
      [one, two].map((g) =>
        metricValue(g.gateway.metricsUrl, 'hookgate_side_effect_jobs_total', {
          plugin: RECONCILE_PLUGIN,
          outcome: 'duplicate',
        }),
      ),
    );
    expect(added[0]! + added[1]!).toBe(4);
    const done = await Promise.all(
      [ctlOne, ctlTwo].map((c) =>
        metricValue(c.healthUrl, 'hookgate_reconcile_total', {
          plugin: RECONCILE_PLUGIN,
          outcome: 'PERSISTED',
          result: 'done',
        }),
      ),
    );
    expect(done[0]! + done[1]!).toBeGreaterThanOrEqual(reviews.length);
  });
});
