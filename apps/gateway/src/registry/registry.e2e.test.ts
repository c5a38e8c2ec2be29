/**
 * The registry end to end, in one process but over real gRPC and real unix sockets: a plugin built
 * with the SDK registers itself, the gateway side merges its hooks and calls it through the real
 * plugin client; the plugin dies, its lease runs out, its Fail hook fails closed; it restarts and
 * registers again; the gateway restarts and the plugin registers with the new one; deregistering
 * on purpose removes the hook.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runValidating } from '@hookgate/admission';
import type { AdmissionRequest, ChainEnv, ChainOutcome } from '@hookgate/admission';
import {
  definePlugin,
  registerWithGateway,
  servePlugin,
  type GatewayRegistration,
  type PluginServer,
} from '@hookgate/plugin-sdk';
import { PluginClient } from '@hookgate/plugin-client';
import { pluginInvoker } from '../grpc/plugin-invoker.js';
import { podCreateRequest } from '../testing/hook-fixtures.js';
import { leaseGuard } from './lease-guard.js';
import { RegistrationStore } from './registration-store.js';
import { ServedHooks } from './served-hooks.js';
import { startRegistry, type RunningRegistry } from './start-registry.js';
import {
  configuration,
  eventually,
  manualClock,
  payload,
  staticSources,
  tempDir,
  webhook,
  type ManualClock,
} from './test/fixtures.js';
import type { PluginTarget, StaticSources } from './types.js';

const HOOK = 'team-label.example.com';
const CONFIGURATION = payload(configuration('team-labels', [webhook(HOOK, 'team-labels', 'Fail')]));
const STATIC: StaticSources = staticSources([], []);

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

/** The gateway's plugin client as it is (its default channel options give each client a subchannel pool of its own). */
const createClient = (p: PluginTarget): PluginClient => new PluginClient(p.name, p.target, { circuitBreaker: false });

/** The gateway side, as apps/gateway/src/server wires it: store → ServedHooks (HookSet + plugin clients) → guarded invoker. */
class Gateway {
  readonly store: RegistrationStore;
  readonly served: ServedHooks<PluginClient>;
  registry: RunningRegistry | undefined;

  constructor(
    readonly clock: ManualClock,
    readonly socket: string,
  ) {
    this.store = new RegistrationStore({ now: clock.now, static: STATIC });
    this.served = new ServedHooks({ static: STATIC, store: this.store, createClient, retireAfterMs: 0 });
  }

  async start(): Promise<void> {
    this.registry = await startRegistry({ store: this.store, socket: this.socket, now: this.clock.now });
  }

  admit(request: AdmissionRequest): Promise<ChainOutcome> {
    const now = this.clock.now;
    const { hooks, clients } = this.served.current;
    const invoke = leaseGuard(() => this.store.snapshot(), pluginInvoker(clients, { now }), {
      now,
      socket: this.socket,
    });
    const env: ChainEnv = {
      invoke,
      namespaces: () => ({ found: true, labels: {} }),
      now,
      newUid: randomUUID,
      deadline: now() + 5000,
      signal: new AbortController().signal,
    };
    return runValidating(hooks, request, env);
  }

  async stop(): Promise<void> {
    await this.registry?.close();
    this.served.close();
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
      leaseSeconds: 30,
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
    const clock = manualClock();
    let gateway = new Gateway(clock, socket);
    await gateway.start();
    cleanups.push(() => gateway.stop());

    // 1. Registered: the plugin answers through the gateway.
    const first = await startPlugin(tmp.dir, socket);
    expect(first.registration.last?.hooks).toEqual([`team-labels/${HOOK}`]);
    expect((await gateway.admit(labelled())).allowed).toBe(true);
    const denied = await gateway.admit(unlabelled());
    expect(denied.status?.message).toBe(`admission webhook "${HOOK}" denied the request: pods need a team label`);

    // 2. The plugin dies (no deregistration). Its lease runs out: the Fail hook stays and fails closed at once.
    await first.registration.close();
    await first.server.shutdown(200);
    clock.advance(30_000);
    gateway.store.sweep();
    const closed = await gateway.admit(labelled());
    expect(closed.allowed).toBe(false);
    expect(closed.status?.message).toMatch(
      new RegExp(
        `^Internal error occurred: failed calling webhook "${HOOK.replaceAll('.', '\\.')}": failed to call webhook: Post "plugin://team-labels/.*": plugin "team-labels" is gone: its registration lease expired`,
      ),
    );

    // 3. The plugin restarts and registers again: served again.
    const second = await startPlugin(tmp.dir, socket);
    expect(gateway.store.leaseOf('team-labels')?.state).toBe('active');
    expect((await gateway.admit(labelled())).allowed).toBe(true);

    // 4. The gateway restarts (no state file): the plugin notices the lost connection and registers with the new one.
    await gateway.stop();
    gateway = new Gateway(clock, socket);
    await gateway.start();
    await eventually(
      () => gateway.store.leaseOf('team-labels')?.state === 'active',
      'the plugin to register with the restarted gateway',
    );
    await eventually(
      async () => (await gateway.admit(labelled())).allowed,
      'the restarted gateway to reach the plugin',
    );
    expect((await gateway.admit(unlabelled())).status?.message).toBe(
      `admission webhook "${HOOK}" denied the request: pods need a team label`,
    );

    // 5. Deregistered on purpose: the hook is gone, whatever its failurePolicy.
    expect(await second.registration.deregister()).toEqual([`team-labels/${HOOK}`]);
    expect(gateway.store.snapshot().registrations).toEqual([]);
    expect((await gateway.admit(unlabelled())).allowed).toBe(true);
  });
});
