/**
 * The registry end to end, wired as `hookgate serve` wires it, in one process but over real gRPC
 * and real unix sockets: the primary's Registry (runtime/primary-registry.ts: store, socket, state
 * file, lease sweeper) sends every change to a worker's WorkerState (runtime/worker-state.ts, with
 * its PluginSet of plugin clients and the lease guard), and admission reviews go through
 * buildGateway reading that state, as a worker serves them. Only the node:cluster IPC between the
 * two halves is a direct call here.
 *
 * A plugin built with the SDK registers itself and is called; it dies, its lease runs out, its Fail
 * hook fails closed; it restarts and registers again; the gateway restarts and the plugin registers
 * with the new one; deregistering on purpose removes the hook.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdmissionRequest } from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';
import { tempDir } from '@hookgate/plugin-sdk/testing';
import { createGatewayMetrics, createLogger, createMetricsRegistry, type Logger } from '@hookgate/observability';
import {
  definePlugin,
  registerWithGateway,
  servePlugin,
  type GatewayRegistration,
  type PluginServer,
} from '@hookgate/plugin-sdk';
import { Writable } from 'node:stream';
import { createBridgeInvoker, type BridgeInvoker } from '../bridge/bridge-invoker.js';
import { createCertificateAuthority, issueServingCertificate } from '../tls/certificate-authority.js';
import { openPrimaryRegistry, type PrimaryRegistry } from '../runtime/primary-registry.js';
import { loadTestConfiguration } from '../runtime/test/configurations.js';
import { WorkerState } from '../runtime/worker-state.js';
import { buildGateway } from '../server/build-gateway.js';
import { loggingSideEffectSink } from '../server/side-effects.js';
import { podCreateRequest } from '../testing/hook-fixtures.js';
import { configuration, payload, webhook } from './test/fixtures.js';

/** vitest's poll default is 1 s: a re-registration or reconnect on a loaded 2-core machine can take longer. */
const SETTLE_TIMEOUT_MS = 5_000;
const HOOK = 'team-label.example.com';
const CONFIGURATION = payload(configuration('team-labels', [webhook(HOOK, 'team-labels', 'Fail')]));
/** The shortest lease the registry grants: the test waits it out for real. */
const LEASE_SECONDS = 5;

const plugin = definePlugin({
  name: 'team-labels',
  hooks: {
    [HOOK]: {
      phase: 'validating',
      validate: (req) =>
        req.object?.metadata?.labels?.['team']
          ? { allowed: true }
          : { allowed: false, message: 'pods need a team label' },
    },
  },
});

interface Decision {
  readonly allowed: boolean;
  readonly status?: { readonly message?: string };
}

/** The primary's Registry and one worker's admission side, as runtime/primary.ts and runtime/worker.ts wire them. */
class Gateway {
  readonly metrics = createGatewayMetrics(createMetricsRegistry());
  readonly state: WorkerState;
  readonly bridge: BridgeInvoker = createBridgeInvoker({ now: () => performance.now() });
  registry: PrimaryRegistry | undefined;
  app: FastifyInstance | undefined;

  constructor(
    readonly loaded: LoadedConfiguration,
    readonly log: Logger = createLogger({ component: 'test', level: 'silent' }),
  ) {
    this.state = new WorkerState(this.log, this.metrics);
  }

  async start(): Promise<void> {
    const registry = await openPrimaryRegistry(this.loaded, this.log, createMetricsRegistry());
    this.registry = registry;
    // The primary sends each worker the configuration with the snapshot it was checked against, then every change.
    await this.state.apply(1, this.loaded, registry.snapshot());
    registry.onChange((change) => void this.state.applyRegistry(change.snapshot).catch(() => undefined));
    this.app = buildGateway(
      {},
      {
        state: this.state,
        bridge: this.bridge.invoke,
        logger: this.log,
        metrics: this.metrics,
        sideEffects: loggingSideEffectSink(this.log, this.metrics),
      },
    );
  }

  /** Registrations as the primary holds them. */
  lease(pluginName: string): string | undefined {
    return this.registry?.snapshot().registrations.find((r) => r.plugin === pluginName)?.lease;
  }

  /** Once the worker serves the primary's latest registry generation. */
  async settled(): Promise<void> {
    await expect
      .poll(() => this.state.current().registryGeneration === this.registry?.snapshot().generation, {
        message: 'the worker to apply the latest registry snapshot',
        timeout: SETTLE_TIMEOUT_MS,
      })
      .toBe(true);
  }

  async admit(request: AdmissionRequest): Promise<Decision> {
    const res = await this.app!.inject({
      method: 'POST',
      url: '/validate',
      payload: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { response: Decision }).response;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    await this.bridge.close();
    await this.registry?.close();
    await this.state.close();
  }
}

const unlabelled = (): AdmissionRequest => podCreateRequest();
const labelled = (): AdmissionRequest => {
  const request = podCreateRequest();
  return {
    ...request,
    object: {
      ...(request.object as object),
      metadata: { name: 'web', namespace: 'default', labels: { team: 'core' } },
    },
  };
};

describe('registry end to end', () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startPlugin(
    dir: string,
    registrySocket: string,
  ): Promise<{ server: PluginServer; registration: GatewayRegistration }> {
    const server = await servePlugin(plugin, {
      listen: `unix://${path.join(dir, 'team-labels.sock')}`,
      logger: false,
      shutdownGraceMs: 200,
    });
    const registration = registerWithGateway({
      socket: registrySocket,
      plugin: plugin.name,
      target: server.target,
      configurations: [CONFIGURATION],
      leaseSeconds: LEASE_SECONDS,
      retry: { initialMs: 20, maxMs: 200 },
      logger: false,
    });
    cleanups.push(
      () => registration.close(),
      () => server.shutdown(200),
    );
    await registration.ready;
    return { server, registration };
  }

  it('plugin registers, dies, fails closed after its lease, comes back, survives a gateway restart, deregisters', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const socket = path.join(tmp.dir, 'registry.sock');
    // Each gateway start gets a state directory of its own: the restarted one has no saved registrations.
    const loadGateway = (run: number) =>
      loadTestConfiguration(tmp.dir, { registry: { socket }, stateDir: path.join(tmp.dir, `state-${run}`) });
    let gateway = new Gateway(await loadGateway(1));
    await gateway.start();
    cleanups.push(() => gateway.stop());

    // 1. Registered: the plugin answers through the gateway.
    const first = await startPlugin(tmp.dir, socket);
    expect(first.registration.last?.hooks).toEqual([`team-labels/${HOOK}`]);
    await gateway.settled();
    expect((await gateway.admit(labelled())).allowed).toBe(true);
    const denied = await gateway.admit(unlabelled());
    expect(denied.status?.message).toBe(`admission webhook "${HOOK}" denied the request: pods need a team label`);

    // 2. The plugin dies (no deregistration). Its lease runs out: the Fail hook stays and fails closed at once.
    await first.registration.close();
    await first.server.shutdown(200);
    await expect
      .poll(() => gateway.lease('team-labels'), { message: 'the lease to run out', timeout: LEASE_SECONDS * 2000 })
      .toBe('expired');
    await gateway.settled();
    const closed = await gateway.admit(labelled());
    expect(closed.allowed).toBe(false);
    expect(closed.status?.message).toMatch(
      new RegExp(
        `^Internal error occurred: failed calling webhook "${HOOK.replaceAll('.', '\\.')}": failed to call webhook: Post "plugin://team-labels/.*": plugin "team-labels" is gone: its registration lease expired`,
      ),
    );

    // 3. The plugin restarts and registers again: served again.
    const second = await startPlugin(tmp.dir, socket);
    expect(gateway.lease('team-labels')).toBe('active');
    await gateway.settled();
    expect((await gateway.admit(labelled())).allowed).toBe(true);

    // 4. The gateway restarts (no saved registrations): the plugin notices the lost connection and registers with the new one.
    await gateway.stop();
    gateway = new Gateway(await loadGateway(2));
    await gateway.start();
    await expect
      .poll(() => gateway.lease('team-labels'), {
        message: 'the plugin to register with the restarted gateway',
        timeout: SETTLE_TIMEOUT_MS,
      })
      .toBe('active');
    await gateway.settled();
    await expect
      .poll(async () => (await gateway.admit(labelled())).allowed, {
        message: 'the restarted gateway to reach the plugin',
        timeout: SETTLE_TIMEOUT_MS,
      })
      .toBe(true);
    expect((await gateway.admit(unlabelled())).status?.message).toBe(
      `admission webhook "${HOOK}" denied the request: pods need a team label`,
    );

    // 5. Deregistered on purpose: the hook is gone, whatever its failurePolicy.
    expect(await second.registration.deregister()).toEqual([`team-labels/${HOOK}`]);
    expect(gateway.registry?.snapshot().registrations).toEqual([]);
    await gateway.settled();
    expect((await gateway.admit(unlabelled())).allowed).toBe(true);
  }, 30_000);

  it('a plugin registered with TLS is called over TLS on a loopback and on a network-looking target; a wrong CA fails closed, logged; plaintext to the network is refused', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const socket = path.join(tmp.dir, 'registry.sock');
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const gateway = new Gateway(
      await loadTestConfiguration(tmp.dir, { registry: { socket }, stateDir: path.join(tmp.dir, 'state') }),
      createLogger({ component: 'test', level: 'info', destination }),
    );
    await gateway.start();
    cleanups.push(() => gateway.stop());

    // The plugin's own CA and serving certificate (127.0.0.1, ::1, localhost), as the gateway makes its own.
    const now = new Date();
    const ca = await createCertificateAuthority(now, 86_400_000);
    const serving = await issueServingCertificate(ca, now, 86_400_000);
    const stranger = await createCertificateAuthority(now, 86_400_000);
    const server = await servePlugin(plugin, {
      listen: '127.0.0.1:0',
      tls: { key: serving.keyPem, cert: serving.certPem },
      logger: false,
      shutdownGraceMs: 200,
    });
    cleanups.push(() => server.shutdown(200));
    const port = server.target.slice(server.target.lastIndexOf(':') + 1);
    const register = (target: string, tls?: { ca: string; serverName?: string }) => {
      const registration = registerWithGateway({
        socket,
        plugin: plugin.name,
        target,
        ...(tls === undefined ? {} : { tls }),
        configurations: [CONFIGURATION],
        leaseSeconds: 60,
        retry: { initialMs: 20, maxMs: 200 },
        logger: false,
      });
      cleanups.push(() => registration.close());
      return registration;
    };

    // 1. Plaintext to a target that is not a loopback address: refused at registration, saying what to do.
    const plaintext = register(`localhost:${port}`);
    await expect(plaintext.ready).rejects.toThrow(
      /^registration of plugin "team-labels" refused, 1 problem:\n {2}- tls: Required value: target "localhost:\d+" is reached over the network.*register with its CA \(tls\.ca in the SDK/,
    );
    await plaintext.close();
    expect(gateway.registry?.snapshot().registrations).toEqual([]);

    // 2. TLS on 127.0.0.1, verified against the registered CA: the plugin answers through the gateway.
    const loopback = register(server.target, { ca: ca.certPem });
    await loopback.ready;
    await gateway.settled();
    expect((await gateway.admit(labelled())).allowed).toBe(true);
    expect((await gateway.admit(unlabelled())).status?.message).toBe(
      `admission webhook "${HOOK}" denied the request: pods need a team label`,
    );
    await loopback.close();

    // 3. A network-looking target (a name, not trusted to be loopback) with the server name to verify.
    const named = register(`localhost:${port}`, { ca: ca.certPem, serverName: 'localhost' });
    await named.ready;
    expect(gateway.registry?.snapshot().registrations[0]).toMatchObject({
      target: `localhost:${port}`,
      tls: { ca: ca.certPem, serverName: 'localhost' },
    });
    await gateway.settled();
    await expect.poll(async () => (await gateway.admit(labelled())).allowed, { timeout: SETTLE_TIMEOUT_MS }).toBe(true);
    await named.close();

    // 4. Registered with a CA that did not sign the plugin's certificate: the call fails, the Fail hook
    // fails closed, and the failure is logged with the hook and the plugin.
    const wrong = register(server.target, { ca: stranger.certPem });
    await wrong.ready;
    await gateway.settled();
    const refused = await gateway.admit(labelled());
    expect(refused.allowed).toBe(false);
    expect(refused.status?.message).toMatch(
      new RegExp(
        `^Internal error occurred: failed calling webhook "${HOOK.replaceAll('.', '\\.')}": failed to call webhook: Post "plugin://team-labels/`,
      ),
    );
    const failure = lines.find((l) => l['msg'] === 'hook call failed; request rejected (failurePolicy Fail)');
    expect(failure).toMatchObject({ hook: HOOK, plugin: 'team-labels' });
    expect(String(failure?.['error'])).toMatch(/certificate|handshake|TLS|SSL/i);
  }, 30_000);
});
