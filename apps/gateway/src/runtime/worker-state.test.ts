/**
 * A worker's state from a configuration plus the registry snapshots the primary sends: static and
 * registered hooks merged, a client per plugin, the lease guard, renewals that rebuild nothing.
 * Real configurations (loaded from files), a real RegistrationStore for the snapshots, real clients.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HookInvoker, HookReply } from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';
import { createGatewayMetrics, createLogger, createMetricsRegistry } from '@hookgate/observability';
import { RegistrationStore, type RegistrySnapshot } from '../registry/index.js';
import { buildTestCall } from '../testing/hook-fixtures.js';
import { staticSourcesOf } from './registry-sources.js';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { loadTestConfiguration, validatingConfiguration } from './test/configurations.js';
import { WorkerState } from './worker-state.js';

const STATIC_HOOK = 'static.example.com';
const REGISTERED_HOOK = 'registered.example.com';

describe('WorkerState with registrations', () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup() {
    const tmp: TempDir = await tempDir();
    cleanups.push(tmp.cleanup);
    const loaded: LoadedConfiguration = await loadTestConfiguration(
      tmp.dir,
      { plugins: [{ name: 'static-plugin', target: '127.0.0.1:1' }] },
      [validatingConfiguration('static-config', STATIC_HOOK, 'static-plugin')],
    );
    // The worker's lease guard reads the wall clock, as the primary's store does in production.
    let clock = Date.now();
    const store = new RegistrationStore({ static: staticSourcesOf(loaded), now: () => clock });
    const register = (
      target = 'unix:///run/registered.sock',
      configuration = validatingConfiguration('registered-config', REGISTERED_HOOK, 'registered'),
    ) => {
      const result = store.register({
        plugin: 'registered',
        target,
        configurations: [JSON.stringify(configuration)],
        leaseSeconds: 10,
      });
      if (!result.ok) throw new Error(result.error.message);
      return store.snapshot();
    };
    const state = new WorkerState(
      createLogger({ component: 'test', level: 'silent' }),
      createGatewayMetrics(createMetricsRegistry()),
    );
    cleanups.push(() => state.close());
    return { loaded, store, register, state, advance: (ms: number) => void (clock += ms) };
  }

  const hookNames = (state: WorkerState) => state.current().hooks.validating.map((h) => h.uid);

  it('serves static and registered hooks together, with a client for each plugin', async () => {
    const { loaded, register, state } = await setup();
    const snapshot = register();
    await state.apply(1, loaded, snapshot);
    const current = state.current();
    expect(hookNames(state)).toEqual([`registered-config/${REGISTERED_HOOK}/0`, `static-config/${STATIC_HOOK}/0`]);
    expect([...current.plugins.keys()].sort()).toEqual(['registered', 'static-plugin']);
    expect(current.plugins.get('registered')?.target).toBe('unix:///run/registered.sock');
    expect(current).toMatchObject({ generation: 1, registryGeneration: snapshot.generation });
  });

  it('rebuilds on a registry change, not on a renewal', async () => {
    const { loaded, store, register, state } = await setup();
    await state.apply(1, loaded, store.snapshot());
    expect(hookNames(state)).toEqual([`static-config/${STATIC_HOOK}/0`]);

    expect(await state.applyRegistry(register())).toBe(true);
    const registered = state.current();
    expect(hookNames(state)).toHaveLength(2);

    const renewal = register();
    expect(renewal.generation).toBe(registered.registryGeneration);
    expect(await state.applyRegistry(renewal)).toBe(false);
    expect(state.current()).toBe(registered);
    expect(state.registry).toBe(renewal);
  });

  const reRegistrations = [
    {
      name: 'a plugin that moved gets a new client',
      change: (s: Awaited<ReturnType<typeof setup>>) => s.register('unix:///run/moved.sock'),
      fresh: true,
    },
    {
      name: 'a plugin back after its lease ran out gets a new client (a fresh channel, a closed circuit)',
      change: (s: Awaited<ReturnType<typeof setup>>) => {
        s.advance(11_000);
        s.store.sweep();
        return s.register();
      },
      fresh: true,
    },
    {
      name: 'a renewal keeps the warm client',
      change: (s: Awaited<ReturnType<typeof setup>>) => s.register(),
      fresh: false,
    },
  ];
  it.each(reRegistrations)('$name', async ({ change, fresh }) => {
    const s = await setup();
    await s.state.apply(1, s.loaded, s.register());
    const before = s.state.current().plugins;
    const snapshot = change(s);
    await s.state.applyRegistry(snapshot);
    const after = s.state.current().plugins;
    expect(after.get('static-plugin')).toBe(before.get('static-plugin'));
    expect(after.get('registered') === before.get('registered')).toBe(!fresh);
  });

  it('keeps the previous hooks when a snapshot conflicts with the configuration, and ignores an older snapshot', async () => {
    const { loaded, store, register, state } = await setup();
    const snapshot = register();
    await state.apply(1, loaded, snapshot);
    const served = state.current();
    // A snapshot the store would never produce against this configuration: the registered webhook takes the static name.
    const conflicting: RegistrySnapshot = {
      generation: snapshot.generation + 1,
      registrations: snapshot.registrations.map((r) => ({
        ...r,
        served: [{ ...r.served[0]!, webhooks: [{ ...r.served[0]!.webhooks[0]!, name: STATIC_HOOK }] }],
      })),
    };
    await expect(state.applyRegistry(conflicting)).rejects.toThrow(`webhook "${STATIC_HOOK}"`);
    expect(state.current()).toBe(served);
    expect(await state.applyRegistry({ generation: 0, registrations: [] })).toBe(false);
    expect(state.registry).toBe(conflicting);
    expect(store.generation).toBe(snapshot.generation);
  });

  it('fails the calls of a plugin whose lease ran out closed, naming the registry socket, without calling it', async () => {
    const { loaded, register, state, store, advance } = await setup();
    await state.apply(1, loaded, register());
    const calls: string[] = [];
    const inner: HookInvoker = async (call): Promise<HookReply> => {
      calls.push(call.hook.name);
      return { ok: true, answer: { uid: call.request.uid, allowed: true } } as unknown as HookReply;
    };
    const hook = state.current().hooks.validating.find((h) => h.name === REGISTERED_HOOK)!;
    const invoke = state.current().guardPlugins!(inner);

    await invoke(buildTestCall(hook, 0), new AbortController().signal);
    expect(calls).toHaveLength(1);

    advance(11_000);
    store.sweep();
    await state.applyRegistry(store.snapshot());
    const guarded = state.current().guardPlugins!(inner);
    const reply = await guarded(
      buildTestCall(
        state.current().hooks.validating.find((h) => h.name === REGISTERED_HOOK)!,
        0,
      ),
      new AbortController().signal,
    );
    expect(calls).toHaveLength(1);
    expect(reply).toMatchObject({ ok: false, failure: { kind: 'transport', code: 503 } });
    expect(!reply.ok && reply.failure.message).toContain(`registration lease expired`);
    expect(!reply.ok && reply.failure.message).toContain(
      `Registry.Deregister on the gateway registry at ${loaded.gateway.registry.socket}`,
    );
  });

  it('break glass serves every hook with failurePolicy Ignore, keeping them on the route of their configured policy', async () => {
    const { loaded, store, state } = await setup();
    await state.setBreakGlass(true); // set before the first configuration, as at start with the file present
    await state.apply(1, loaded, store.snapshot());
    const policies = (set: ReturnType<WorkerState['current']>['hooks']) =>
      set.validating.map((h) => [h.name, h.failurePolicy]);
    expect(state.current().breakGlass).toBe(true);
    expect(policies(state.current().hooks)).toEqual([[STATIC_HOOK, 'Ignore']]);
    expect(policies(state.current().hooksByPolicy!.Fail)).toEqual([[STATIC_HOOK, 'Ignore']]);
    expect(policies(state.current().hooksByPolicy!.Ignore)).toEqual([]);
    await state.setBreakGlass(false);
    expect(state.current().breakGlass).toBe(false);
    expect(policies(state.current().hooks)).toEqual([[STATIC_HOOK, 'Fail']]);
    expect(policies(state.current().hooksByPolicy!.Fail)).toEqual([[STATIC_HOOK, 'Fail']]);
  });
});
