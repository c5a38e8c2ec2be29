/**
 * The reconciliation controller as its own process, against a real Redis (ensureRedis), plugins as
 * their own processes on unix sockets, and the fake apiserver over HTTP:
 * - periodic resync releases ledger reservations whose object is gone or was replaced, and keeps
 *   the one whose object is there;
 * - a controller SIGKILLed in the middle of a job: the job's lock lapses and another controller
 *   runs it to completion;
 * - an undecodable job, a plugin answering bytes that are no ReconcileResponse, and a plugin that
 *   never answers: logged and counted, the neighbouring job still completes, the process lives.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedis, type RedisHandle } from '@hookgate/devtools';
import { admit, admitMessage, reconcile, tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { newAdmissionPluginClient, type AdmissionPluginClient } from '@hookgate/proto';
import { SideEffectProducer, reconcileQueueName } from '@hookgate/queue';
import { sampleJob } from '@hookgate/queue/testing';
import { startController, type ControllerProcess } from '../src/controller-process.js';
import { FakeApiServer } from '../src/fake-apiserver.js';
import { fetchMetrics, sampleValue } from '../src/metrics-text.js';
import { startBuiltinPlugin, startPlugin, type PluginProcess } from '../src/plugin-process.js';

const HOOK = 'ledger.hookgate.dev';
const ANNOTATION = 'ledger.hookgate.dev/hostname';
const INGRESS = { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress' } as const;

let redis: RedisHandle;
let inspect: Redis;
let tmp: TempDir;
let api: FakeApiServer;
let kubeconfig: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = await ensureRedis();
  inspect = new Redis(redis.url);
  tmp = await tempDir('hookgate-controller-e2e-');
  api = await FakeApiServer.start();
  api.registerResource({ ...INGRESS, namespaced: true });
  kubeconfig = await api.writeKubeconfig();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

afterAll(async () => {
  inspect?.disconnect();
  await api?.close();
  await tmp?.cleanup();
  await redis?.stop();
});

/** A controller configuration with short timings for tests; `overrides` replace top-level fields. */
function controllerConfig(prefix: string, plugin: { name: string; target: string }, overrides: object = {}) {
  return {
    redis: { url: redis.url, prefix },
    plugins: [plugin],
    kubernetes: { mode: 'kubeconfig', kubeconfig },
    concurrency: 4,
    graceMs: 0,
    confirmDelayMs: 200,
    unavailableDelayMs: 200,
    readTimeoutMs: 500,
    reconcileTimeoutMs: 1_000,
    lockDurationMs: 3_000,
    stalledIntervalMs: 1_000,
    backoff: { baseMs: 50, capMs: 100 },
    shutdownTimeoutMs: 2_000,
    health: { port: 0 },
    dashboard: { port: 0 },
    resync: { intervalMs: 0 },
    ...overrides,
  };
}

async function started(controller: Promise<ControllerProcess>): Promise<ControllerProcess> {
  const process = await controller;
  cleanups.push(() => process.stop());
  return process;
}

function queueOf(prefix: string, plugin: string): Queue {
  const queue = new Queue(reconcileQueueName(plugin), { connection: { url: redis.url }, prefix });
  cleanups.push(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });
  return queue;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function settledJob(queue: Queue, id: string, state: 'completed' | 'failed'): Promise<Job> {
  return waitFor(`job ${id} to be ${state}`, async () =>
    (await queue.getJobState(id)) === state ? ((await queue.getJob(id)) ?? undefined) : undefined,
  );
}

describe('periodic resync with the ledger', () => {
  let ledger: PluginProcess;
  let client: AdmissionPluginClient;
  let keyPrefix: string;

  beforeAll(async () => {
    keyPrefix = `hgtest-${randomUUID().slice(0, 8)}:ledger:`;
    const config = join(tmp.dir, 'ledger.yaml');
    await writeFile(
      config,
      [
        `keyPrefix: "${keyPrefix}"`,
        'ledgers:',
        '  - { name: hostnames, kinds: [networking.k8s.io/Ingress], annotation: ledger.hookgate.dev/hostname, scope: Cluster }',
      ].join('\n'),
    );
    ledger = await startBuiltinPlugin('ledger', {
      config,
      listen: `unix://${join(tmp.dir, 'ledger.sock')}`,
      env: { REDIS_URL: redis.url },
    });
    client = newAdmissionPluginClient(ledger.target, grpc.credentials.createInsecure());
  });

  afterAll(async () => {
    client?.close();
    await ledger?.stop();
    const keys = await inspect.keys(`${keyPrefix}*`);
    if (keys.length > 0) await inspect.del(...keys);
  });

  /** The ledger's validating hook for a CREATE of Ingress shop/<name> carrying `hostname`, as the gateway sends it. */
  async function claim(name: string, hostname: string, uid: string) {
    const object = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name, namespace: 'shop', uid, annotations: { [ANNOTATION]: hostname } },
    };
    const request = {
      uid: randomUUID(),
      kind: { group: INGRESS.group, version: INGRESS.version, kind: INGRESS.kind },
      resource: { group: INGRESS.group, version: INGRESS.version, resource: INGRESS.resource },
      operation: 'CREATE',
      namespace: 'shop',
      name,
      object,
      userInfo: { username: 'tester' },
      dryRun: false,
    };
    const answer = await admit(client, admitMessage(HOOK, 'VALIDATING', request as never));
    expect(answer.allowed).toBe(true);
    return { request, effect: answer.sideEffects[0]! };
  }

  /** What the controller tells the ledger once the object is stored. */
  async function settlePersisted(claimed: Awaited<ReturnType<typeof claim>>, current: object) {
    const { request, effect } = claimed;
    const reply = await reconcile(client, {
      hook: HOOK,
      sideEffect: effect,
      outcome: 'PERSISTED',
      object: Buffer.from(JSON.stringify(current)),
      admission: { ...request.resource, uid: request.uid, operation: 'CREATE', namespace: 'shop', name: request.name },
      attempt: 1,
    });
    expect(reply.done).toBe(true);
  }

  const reservation = (hostname: string) => inspect.hgetall(`${keyPrefix}hostnames/${hostname}`);

  it('releases reservations whose object is gone or replaced and keeps the one whose object is there', async () => {
    // Stored and settled: kept.
    const kept = api.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'kept', namespace: 'shop', annotations: { [ANNOTATION]: 'kept.example.com' } },
    });
    await settlePersisted(await claim('kept', 'kept.example.com', String(kept.metadata.uid)), kept);
    // Claimed, never stored, and its job lost (a gateway crash between the claim and the job): orphaned.
    await claim('orphan', 'orphan.example.com', randomUUID());
    // Stored and settled, then deleted and created again under the same name without the value: replaced.
    const first = api.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'replaced', namespace: 'shop', annotations: { [ANNOTATION]: 'replaced.example.com' } },
    });
    await settlePersisted(await claim('replaced', 'replaced.example.com', String(first.metadata.uid)), first);
    api.delete('networking.k8s.io/v1', 'Ingress', 'replaced', 'shop');
    api.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'replaced', namespace: 'shop' },
    });
    expect((await reservation('orphan.example.com'))['state']).toBe('pending');
    expect((await reservation('replaced.example.com'))['state']).toBe('confirmed');

    const prefix = `{hgtest-${randomUUID().slice(0, 8)}}`;
    queueOf(prefix, 'ledger');
    const controller = await started(
      startController(
        controllerConfig(
          prefix,
          { name: 'ledger', target: ledger.target },
          { resync: { intervalMs: 1_000, jitterMs: 0, minAgeMs: 0 } },
        ),
      ),
    );

    await waitFor('the orphaned and replaced reservations to be released', async () => {
      const [orphan, replaced] = await Promise.all([
        reservation('orphan.example.com'),
        reservation('replaced.example.com'),
      ]);
      return Object.keys(orphan).length === 0 && Object.keys(replaced).length === 0 ? true : undefined;
    });
    expect(await reservation('kept.example.com')).toMatchObject({ owner: 'networking.k8s.io/Ingress/shop/kept' });
    const line = await controller.waitForLog((l) => typeof l['msg'] === 'string' && /resync of ledger/.test(l['msg']));
    expect(line).toMatchObject({ plugin: 'ledger' });
    const metrics = await fetchMetrics(controller.healthUrl);
    expect(sampleValue(metrics, 'hookgate_resync_runs_total', { plugin: 'ledger', result: 'ok' })).toBeGreaterThan(0);
    expect(sampleValue(metrics, 'hookgate_resync_effects_total', { plugin: 'ledger', verdict: 'reconciled' })).toBe(2);
    // A later run finds nothing more to do and releases nothing else (idempotent).
    await waitFor('a second resync run', async () => {
      const text = await fetchMetrics(controller.healthUrl);
      return (sampleValue(text, 'hookgate_resync_runs_total', { plugin: 'ledger', result: 'ok' }) ?? 0) >= 2
        ? true
        : undefined;
    });
    expect(await reservation('kept.example.com')).toMatchObject({ state: 'confirmed' });
  });
});

describe('misbehaving controllers and plugins', () => {
  let plugin: PluginProcess;
  const PLUGIN = 'misbehaving';

  beforeAll(async () => {
    plugin = await startPlugin('reconcile-behaviour-plugin.ts', [
      `unix://${join(tmp.dir, 'misbehaving.sock')}`,
      PLUGIN,
    ]);
  });

  afterAll(async () => {
    await plugin?.stop();
  });

  /** A job that needs no read (dryRun: NOT_PERSISTED at once), for the misbehaving plugin. */
  const job = (kind: string) =>
    sampleJob(
      { plugin: PLUGIN, effect: { kind, key: `shop/${randomUUID()}` }, time: Date.now() },
      { uid: randomUUID(), dryRun: true },
    );

  async function producerFor(prefix: string): Promise<SideEffectProducer> {
    const producer = new SideEffectProducer({ redisUrl: redis.url, prefix, attempts: 2 });
    cleanups.push(() => producer.close());
    await waitFor('the producer to connect', async () => (producer.connectionStatus === 'ready' ? true : undefined));
    return producer;
  }

  it('a job whose controller is SIGKILLed mid-Reconcile is run again by another controller and completes', async () => {
    const prefix = `{hgtest-${randomUUID().slice(0, 8)}}`;
    const queue = queueOf(prefix, PLUGIN);
    const producer = await producerFor(prefix);
    const config = controllerConfig(
      prefix,
      { name: PLUGIN, target: plugin.target },
      { reconcileTimeoutMs: 5_000, lockDurationMs: 6_000 },
    );
    const first = await startController(config);
    cleanups.push(() => first.stop());

    const hanging = job('hang-once');
    const { jobId } = await producer.add(hanging);
    await plugin.waitForOutput(new RegExp(`reconcile hang-once ${hanging.effect.key} `));
    first.signal('SIGKILL');
    expect(await first.exited).toBeNull();
    expect(await queue.getJobState(jobId)).toBe('active');

    const second = await started(startController(config));
    const done = await settledJob(queue, jobId, 'completed');
    expect(done.returnvalue).toMatchObject({ outcome: 'NOT_PERSISTED', message: 'hang-once done' });
    const calls = plugin.stdout().match(new RegExp(`reconcile hang-once ${hanging.effect.key} `, 'g'));
    expect(calls).toHaveLength(2);
    await second.waitForLog((l) => l['jobId'] === jobId && /stalled/.test(String(l['msg'])));
    const metrics = await fetchMetrics(second.healthUrl);
    expect(sampleValue(metrics, 'hookgate_reconcile_stalled_total', { plugin: PLUGIN })).toBe(1);
  });

  it('an undecodable job, garbage answers and a plugin that never answers are logged and counted; the neighbour completes', async () => {
    const prefix = `{hgtest-${randomUUID().slice(0, 8)}}`;
    const queue = queueOf(prefix, PLUGIN);
    const producer = await producerFor(prefix);
    const controller = await started(
      startController(
        controllerConfig(
          prefix,
          { name: PLUGIN, target: plugin.target },
          // debug: the waits of a job (a plugin timing out is one) are logged at debug.
          { attempts: 2, reconcileTimeoutMs: 300, logLevel: 'debug' },
        ),
      ),
    );
    const undecodable = await queue.add('side-effect', { ...job('fine'), admission: 'not an object' });
    const garbage = await producer.add(job('garbage'));
    const hang = await producer.add(job('hang'));
    const neighbour = await producer.add(job('fine'));

    expect((await settledJob(queue, neighbour.jobId, 'completed')).returnvalue).toMatchObject({
      outcome: 'NOT_PERSISTED',
    });
    const failedUndecodable = await settledJob(queue, undecodable.id!, 'failed');
    expect(failedUndecodable.failedReason).toMatch(/undecodable side-effect job \(job field admission/);
    const failedGarbage = await settledJob(queue, garbage.jobId, 'failed');
    expect(failedGarbage.failedReason).toMatch(/answered Reconcile with gRPC status 13/);
    expect(failedGarbage.attemptsMade).toBe(2);
    // The hanging plugin's job waits (no attempt used) and is never failed for it.
    await waitFor('the hanging job to be delayed at least twice', async () => {
      const lines = controller.logs.filter((l) => l['jobId'] === hang.jobId && /did not answer/.test(String(l['msg'])));
      return lines.length >= 2 ? true : undefined;
    });
    expect(await queue.getJobState(hang.jobId)).not.toBe('failed');
    // Timeouts count against the plugin's circuit: its opening is the warn line an operator sees.
    await controller.waitForLog(
      (l) => l['level'] === 'warn' && /keeps failing or not answering/.test(String(l['msg'])),
    );

    const logs = controller.logs;
    const warned = (jobId: string) => logs.find((l) => l['jobId'] === jobId && l['level'] === 'warn');
    expect(warned(undecodable.id!)).toMatchObject({ plugin: PLUGIN });
    expect(warned(garbage.jobId)).toMatchObject({ plugin: PLUGIN, attempts: 2 });
    expect(JSON.stringify(logs)).not.toContain('cpu');
    const metrics = await fetchMetrics(controller.healthUrl);
    expect(sampleValue(metrics, 'hookgate_reconcile_total', { plugin: PLUGIN, result: 'fail' })).toBe(1);
    expect(
      sampleValue(metrics, 'hookgate_reconcile_total', {
        plugin: PLUGIN,
        result: 'dead-lettered',
        outcome: 'NOT_PERSISTED',
      }),
    ).toBe(1);
    expect(
      sampleValue(metrics, 'hookgate_reconcile_total', { plugin: PLUGIN, result: 'delay', outcome: 'NOT_PERSISTED' }),
    ).toBeGreaterThan(0);
    expect(sampleValue(metrics, 'hookgate_reconcile_failed_jobs', { plugin: PLUGIN })).toBe(2);
    expect((await fetch(`${controller.healthUrl}/livez`)).status).toBe(200);
  });
});
