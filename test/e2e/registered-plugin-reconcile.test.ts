/**
 * A plugin registered at run time is reconciled: the gateway (its own process, no plugins in its
 * configuration) takes the plugin's Register over the Registry's unix socket (real gRPC), publishes
 * its run-time plugin set to Redis, and the controller (its own process, no plugins in its
 * configuration) starts a worker for the plugin's queue, reconciles the side effect a review
 * reported through the plugin's Reconcile, and stops that worker once the plugin is deregistered.
 * A job queued for the plugin before it registered waits (no attempt used) and is reconciled once
 * it has.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePrefixedKeys, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { newRegistryClient } from '@hookgate/proto';
import { SideEffectProducer, readRegisteredPlugins, reconcileQueueName } from '@hookgate/queue';
import { DENIED_BY_HOOK, sampleJob } from '@hookgate/queue/testing';
import { AdmissionClient } from '../src/admission-client.js';
import { startController, type ControllerProcess } from '../src/controller-process.js';
import { gatewayConfigYaml } from '../src/gateway-config.js';
import { startReconcileEnvironment, type ReconcileEnvironment } from '../src/reconcile-environment.js';
import {
  RECONCILE_HOOK,
  controllerConfig,
  jobView,
  podReview,
  reconcileCounts,
  storePod,
} from '../src/reconcile-pipeline.js';

const PLUGIN = 'reconciles-registered';
const pods = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
/** What the plugin registers: its side-effecting hook, which no configuration file names. */
const CONFIGURATION = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'reconciles-registered' },
  webhooks: [
    {
      name: RECONCILE_HOOK,
      clientConfig: { plugin: PLUGIN },
      rules: pods,
      failurePolicy: 'Fail',
      sideEffects: 'NoneOnDryRun',
      admissionReviewVersions: ['v1'],
    },
  ],
};
const RESERVE = {
  registration: {
    reserve: [{ type: 'Validating', failurePolicy: 'Fail', rules: pods }],
  },
};

describe('a plugin registered at run time, reconciled by a controller configured with no plugins', () => {
  let env: ReconcileEnvironment;
  let gateway: GatewayProcess;
  let controller: ControllerProcess;
  let admission: AdmissionClient;
  let queue: Queue;
  let registry: ReturnType<typeof newRegistryClient>;
  let producer: SideEffectProducer;
  const prefix = `{rt-plugins-${randomUUID().slice(0, 8)}}`;

  beforeAll(async () => {
    env = await startReconcileEnvironment({ name: 'registered-reconcile', plugin: PLUGIN });
    queue = new Queue(reconcileQueueName(PLUGIN), { connection: env.redisClient, prefix });
    const config = gatewayConfigYaml([], {
      extra: { ...RESERVE, redis: { url: env.redis.url, prefix, addTimeoutMs: 500 } },
    });
    gateway = await startGateway({ config, stateDir: join(env.dir, 'state') });
    admission = new AdmissionClient(gateway.admissionUrl);
    registry = newRegistryClient(`unix://${gateway.registrySocket}`, grpc.credentials.createInsecure());
    controller = await startController(
      controllerConfig({
        redisUrl: env.redis.url,
        prefix,
        plugins: [],
        kubeconfig: env.kubeconfig,
        extra: { registeredPlugins: { pollMs: 200 }, resync: { intervalMs: 0 } },
      }),
    );
  }, 60_000);
  afterAll(async () => {
    registry?.close();
    await producer?.close();
    await admission?.close();
    await controller?.stop();
    await gateway?.stop();
    await queue?.close();
    if (env) await deletePrefixedKeys(env.redisClient, prefix);
    await env?.stop();
  });

  // The request a later hook denied: NOT_PERSISTED without a read, once a worker takes the job.
  const earlyToken = randomUUID();
  const earlyJobId = () =>
    producer.placeOf(
      sampleJob(
        { plugin: PLUGIN, hook: RECONCILE_HOOK, effect: { kind: 'effect', key: 'default/early', payload: '' } },
        { uid: earlyToken },
      ),
    ).jobId;

  it('serves no plugin queue before the plugin registers: a job queued for it waits, no attempt used', async () => {
    expect(controller.logs.find((l) => l.msg?.startsWith('controller started'))?.['registeredPlugins']).toEqual([]);
    producer = new SideEffectProducer({ redisUrl: env.redis.url, prefix });
    await expect.poll(() => producer.connectionStatus, { timeout: 5_000 }).toBe('ready');
    const job = sampleJob(
      {
        plugin: PLUGIN,
        hook: RECONCILE_HOOK,
        effect: { kind: 'effect', key: 'default/early', payload: '' },
        decision: DENIED_BY_HOOK,
        time: Date.now(),
      },
      {
        uid: earlyToken,
        namespace: 'default',
        name: 'early',
        resource: { group: '', version: 'v1', resource: 'pods' },
      },
    );
    expect((await producer.add(job)).outcome).toBe('added');
    // Several of the controller's polls (every 200 ms) pass without a worker for the queue.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await queue.getWorkersCount()).toBe(0);
    expect(await jobView(env.redisClient, prefix, PLUGIN, earlyJobId())).toMatchObject({ state: 'waiting' });
    expect((await jobView(env.redisClient, prefix, PLUGIN, earlyJobId())).attemptsMade ?? 0).toBe(0);
  });

  it('starts a worker once the plugin registers, and reconciles the side effect a review reported', async () => {
    const registered = await new Promise<{ hooks: string[] }>((resolve, reject) =>
      registry.Register(
        {
          plugin: PLUGIN,
          target: env.reconcilePlugin.target,
          configurations: [Buffer.from(JSON.stringify(CONFIGURATION))],
          leaseSeconds: 60,
        },
        { deadline: Date.now() + 5_000 },
        (error, reply) => (error ? reject(error) : resolve({ hooks: reply!.hooks })),
      ),
    );
    expect(registered.hooks).toEqual([`reconciles-registered/${RECONCILE_HOOK}`]);

    // The gateway published the plugin where controllers read it.
    await expect
      .poll(async () => (await readRegisteredPlugins(env.redisClient, prefix)).sets.flatMap((s) => s.plugins), {
        timeout: 10_000,
      })
      .toEqual([expect.objectContaining({ name: PLUGIN, target: env.reconcilePlugin.target })]);
    const serving = await controller.waitForLog(
      (l) => l.msg === `serving registered plugin ${PLUGIN}: reconciling its queue`,
    );
    expect(serving['target']).toBe(env.reconcilePlugin.target);
    await expect.poll(() => queue.getWorkersCount(), { timeout: 10_000 }).toBeGreaterThan(0);

    // The gateway serves the registered hook (its workers got the registry snapshot).
    const review = podReview('registered');
    await expect
      .poll(
        async () => {
          const answer = await admission.post('/validate', review.body, { timeout: '10s' });
          return answer.review.response?.allowed;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    storePod(env.api, review);

    await expect
      .poll(() => jobView(env.redisClient, prefix, PLUGIN, review.jobId(PLUGIN)), { timeout: 15_000 })
      .toMatchObject({ state: 'completed', returnvalue: { outcome: 'PERSISTED' } });
    await expect
      .poll(() => reconcileCounts(env.reconcilePlugin, review.uid).applied, { timeout: 5_000 })
      .toEqual(['PERSISTED']);
    // The job that waited for the plugin is reconciled too.
    await expect
      .poll(() => jobView(env.redisClient, prefix, PLUGIN, earlyJobId()), { timeout: 10_000 })
      .toMatchObject({ state: 'completed', returnvalue: { outcome: 'NOT_PERSISTED' } });
    await expect
      .poll(() => reconcileCounts(env.reconcilePlugin, earlyToken).applied, { timeout: 5_000 })
      .toEqual(['NOT_PERSISTED']);
  });

  it('stops the worker once the plugin is deregistered', async () => {
    await new Promise<void>((resolve, reject) =>
      registry.Deregister({ plugin: PLUGIN }, { deadline: Date.now() + 5_000 }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    await controller.waitForLog((l) => (l.msg ?? '').startsWith(`stopped serving registered plugin ${PLUGIN}`));
    await expect.poll(() => queue.getWorkersCount(), { timeout: 10_000 }).toBe(0);
    expect((await readRegisteredPlugins(env.redisClient, prefix)).sets.flatMap((s) => s.plugins)).toEqual([]);
  });
});
