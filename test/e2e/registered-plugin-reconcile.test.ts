/**
 * A plugin registered at run time is reconciled: the gateway (its own process, no plugins in its
 * configuration) takes the plugin's Register over the Registry's unix socket (real gRPC), publishes
 * its run-time plugin set to Redis, and the controller (its own process, no plugins in its
 * configuration) starts a worker for the plugin's queue, reconciles the side effect a review
 * reported through the plugin's Reconcile, and stops that worker once the plugin is deregistered.
 * A job queued for the plugin before it registered waits (no attempt used) and is reconciled once
 * it has.
 *
 * Over TCP, a registered plugin is called with TLS by both: a plugin serving TLS that requires a
 * client certificate registers its CA bundle and server name; the gateway (over HTTPS) calls its
 * hook and the controller its Reconcile, each presenting the client identity of its own
 * configuration. Plaintext to a target that is not a loopback address is refused at registration.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePrefixedKeys, readGatewayCa, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { newRegistryClient } from '@hookgate/proto';
import { SideEffectProducer, readRegisteredPlugins, reconcileQueueName } from '@hookgate/queue';
import { DENIED_BY_HOOK, sampleJob } from '@hookgate/queue/testing';
import { AdmissionClient } from '../src/admission-client.js';
import { startController, type ControllerProcess } from '../src/controller-process.js';
import { gatewayConfigYaml } from '../src/gateway-config.js';
import type { PluginProcess } from '../src/plugin-process.js';
import { startReconcileEnvironment, type ReconcileEnvironment } from '../src/reconcile-environment.js';
import {
  RECONCILE_HOOK,
  controllerConfig,
  jobView,
  podReview,
  reconcileCounts,
  startReconcilePlugin,
  storePod,
} from '../src/reconcile-pipeline.js';
import { createTestCa } from '../src/test-certificates.js';

const PLUGIN = 'reconciles-registered';
const pods = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
/** What a plugin registers: its side-effecting hook, which no configuration file names. */
const configurationOf = (plugin: string) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: plugin },
  webhooks: [
    {
      name: RECONCILE_HOOK,
      clientConfig: { plugin },
      rules: pods,
      failurePolicy: 'Fail',
      sideEffects: 'NoneOnDryRun',
      admissionReviewVersions: ['v1'],
    },
  ],
});
const CONFIGURATION = configurationOf(PLUGIN);

type RegistryClient = ReturnType<typeof newRegistryClient>;
type Registration = Parameters<RegistryClient['Register']>[0];
function register(registry: RegistryClient, request: Registration): Promise<{ hooks: string[] }> {
  return new Promise((resolve, reject) =>
    registry.Register(request, { deadline: Date.now() + 5_000 }, (error, reply) =>
      error ? reject(error) : resolve({ hooks: reply!.hooks }),
    ),
  );
}
/**
 * Sends a pod review until the gateway serves the registered hook and admits it, stores the pod in
 * the fake apiserver, and waits for the controller to reconcile the side effect as PERSISTED.
 */
async function expectAdmittedAndPersisted(
  where: {
    env: ReconcileEnvironment;
    admission: AdmissionClient;
    prefix: string;
    plugin: string;
    reconciler: PluginProcess;
  },
  namePrefix: string,
): Promise<void> {
  const review = podReview(namePrefix);
  await expect
    .poll(
      async () => {
        const answer = await where.admission.post('/validate', review.body, { timeout: '10s' });
        return answer.review.response?.allowed;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  storePod(where.env.api, review);
  await expect
    .poll(() => jobView(where.env.redisClient, where.prefix, where.plugin, review.jobId(where.plugin)), {
      timeout: 15_000,
    })
    .toMatchObject({ state: 'completed', returnvalue: { outcome: 'PERSISTED' } });
  await expect
    .poll(() => reconcileCounts(where.reconciler, review.uid).applied, { timeout: 5_000 })
    .toEqual(['PERSISTED']);
}

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
    const registered = await register(registry, {
      plugin: PLUGIN,
      target: env.reconcilePlugin.target,
      configurations: [Buffer.from(JSON.stringify(CONFIGURATION))],
      leaseSeconds: 60,
    });
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
    await expectAdmittedAndPersisted(
      { env, admission, prefix, plugin: PLUGIN, reconciler: env.reconcilePlugin },
      'registered',
    );
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

describe('a plugin registered at run time over TCP, called with TLS by the gateway and the controller', () => {
  const TLS_PLUGIN = 'reconciles-over-tls';
  let env: ReconcileEnvironment;
  let plugin: PluginProcess;
  let gateway: GatewayProcess;
  let controller: ControllerProcess;
  let admission: AdmissionClient;
  let registry: RegistryClient;
  let pluginCa = '';
  /** `localhost:<port>`: a name, not a loopback address, so the registry insists on TLS. */
  let target = '';
  const prefix = `{rt-tls-${randomUUID().slice(0, 8)}}`;

  beforeAll(async () => {
    env = await startReconcileEnvironment({ name: 'registered-tls', plugin: TLS_PLUGIN });
    // The plugin's CA and serving certificate, and the CA of the clients it accepts (mTLS).
    const servingCa = await createTestCa('plugin-serving-ca');
    const clientCa = await createTestCa('plugin-client-ca');
    const serving = await servingCa.issue({ commonName: TLS_PLUGIN, dns: ['localhost'], ips: ['127.0.0.1'] });
    const gatewayClient = await clientCa.issue({ commonName: 'hookgate-gateway', client: true });
    const controllerClient = await clientCa.issue({ commonName: 'hookgate-controller', client: true });
    pluginCa = servingCa.certPem;
    const files: Record<string, string> = {
      'plugin.crt': serving.certPem,
      'plugin.key': serving.keyPem,
      'client-ca.crt': clientCa.certPem,
      'controller.crt': controllerClient.certPem,
      'controller.key': controllerClient.keyPem,
    };
    for (const [name, content] of Object.entries(files)) await writeFile(join(env.dir, name), content);
    plugin = await startReconcilePlugin('127.0.0.1:0', TLS_PLUGIN, env.releaseFile, {
      RECONCILE_PLUGIN_TLS_CERT: join(env.dir, 'plugin.crt'),
      RECONCILE_PLUGIN_TLS_KEY: join(env.dir, 'plugin.key'),
      RECONCILE_PLUGIN_TLS_CLIENT_CA: join(env.dir, 'client-ca.crt'),
    });
    target = `localhost:${plugin.target.slice(plugin.target.lastIndexOf(':') + 1)}`;

    gateway = await startGateway({
      insecureHttp: false,
      config: gatewayConfigYaml([], {
        extra: {
          ...RESERVE,
          registry: { clientTls: { certFile: 'gateway-client.crt', keyFile: 'gateway-client.key' } },
          redis: { url: env.redis.url, prefix, addTimeoutMs: 500 },
        },
      }),
      files: { 'gateway-client.crt': gatewayClient.certPem, 'gateway-client.key': gatewayClient.keyPem },
      stateDir: join(env.dir, 'state'),
    });
    admission = new AdmissionClient(gateway.admissionUrl, { ca: await readGatewayCa(gateway) });
    registry = newRegistryClient(`unix://${gateway.registrySocket}`, grpc.credentials.createInsecure());
    controller = await startController(
      controllerConfig({
        redisUrl: env.redis.url,
        prefix,
        plugins: [],
        kubeconfig: env.kubeconfig,
        extra: {
          registeredPlugins: {
            pollMs: 200,
            clientTls: { certFile: join(env.dir, 'controller.crt'), keyFile: join(env.dir, 'controller.key') },
          },
          resync: { intervalMs: 0 },
        },
      }),
    );
  }, 60_000);
  afterAll(async () => {
    registry?.close();
    await admission?.close();
    await controller?.stop();
    await gateway?.stop();
    await plugin?.stop();
    if (env) await deletePrefixedKeys(env.redisClient, prefix);
    await env?.stop();
  });

  const registration = (tls?: Registration['tls']): Registration => ({
    plugin: TLS_PLUGIN,
    target,
    configurations: [Buffer.from(JSON.stringify(configurationOf(TLS_PLUGIN)))],
    leaseSeconds: 60,
    ...(tls === undefined ? {} : { tls }),
  });

  it('refuses a plaintext registration of a target that is not a loopback address, saying what to do', async () => {
    const refused = await register(registry, registration()).then(
      () => undefined,
      (error: grpc.ServiceError) => error,
    );
    expect(refused?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(refused?.details).toBe(
      `registration of plugin "${TLS_PLUGIN}" refused, 1 problem:\n` +
        `  - tls: Required value: target "${target}" is reached over the network, and plaintext to an admission plugin ` +
        'lets anyone on the path read the reviews and answer in its name: serve the plugin with TLS and register with ' +
        'its CA (tls.ca in the SDK, tls.ca_pem in RegisterRequest: the PEM CA bundle that signs its serving certificate; tls.serverName when the certificate does not name the host), ' +
        'or listen on a unix socket or a loopback address (127.0.0.1, [::1])',
    );
    const refusedPem = await register(registry, registration({ caPem: Buffer.from('not a certificate') })).then(
      () => undefined,
      (error: grpc.ServiceError) => error,
    );
    expect(refusedPem?.details).toMatch(/- tls\.caPem: Invalid value: not PEM/);
  });

  it('registered with its CA: the gateway calls its hook over mTLS and the controller its Reconcile', async () => {
    const registered = await register(
      registry,
      registration({ caPem: Buffer.from(pluginCa), serverName: 'localhost' }),
    );
    expect(registered.hooks).toEqual([`${TLS_PLUGIN}/${RECONCILE_HOOK}`]);
    // Published with its CA and server name, where controllers read it.
    await expect
      .poll(async () => (await readRegisteredPlugins(env.redisClient, prefix)).sets.flatMap((s) => s.plugins), {
        timeout: 10_000,
      })
      .toEqual([expect.objectContaining({ name: TLS_PLUGIN, target, tls: { ca: pluginCa, serverName: 'localhost' } })]);
    const serving = await controller.waitForLog(
      (l) => l.msg === `serving registered plugin ${TLS_PLUGIN}: reconciling its queue`,
    );
    expect(serving).toMatchObject({ target, tls: true });

    // A review over HTTPS; the plugin's hook answers (it requires the gateway's client certificate).
    await expectAdmittedAndPersisted({ env, admission, prefix, plugin: TLS_PLUGIN, reconciler: plugin }, 'over-tls');
  });
});
