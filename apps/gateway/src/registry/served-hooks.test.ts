import { afterEach, describe, expect, it } from 'vitest';
import { RegistrationStore } from './registration-store.js';
import { ServedHooks, type ServedState } from './served-hooks.js';
import { configuration, payload, RecordingClient, staticSources, webhook } from './test/fixtures.js';
import type { PluginTarget } from './types.js';

const STATIC = staticSources(
  [{ name: 'quota', target: '127.0.0.1:7001' }],
  [configuration('quota', [webhook('quota.example.com', 'quota')])],
);
const LABELS = {
  plugin: 'labels',
  target: 'unix:///run/labels.sock',
  configurations: [payload(configuration('labels', [webhook('labels.example.com', 'labels')]))],
};
const hookNames = (state: ServedState<RecordingClient>) => state.hooks.validating.map((h) => h.name);

describe('ServedHooks', () => {
  const toClose: ServedHooks<RecordingClient>[] = [];
  afterEach(() => {
    for (const served of toClose.splice(0)) served.close();
  });

  function setup() {
    const store = new RegistrationStore({ static: STATIC });
    const swaps: number[] = [];
    const served = new ServedHooks({
      static: STATIC,
      store,
      createClient: (p: PluginTarget) => new RecordingClient(p.name, p.target),
      retireAfterMs: 0,
      onSwap: (s) => swaps.push(s.generation),
    });
    toClose.push(served);
    return { store, served, swaps };
  }

  it('swaps in one new state per change of hooks, and none for a renewal', () => {
    const { store, served, swaps } = setup();
    const initial = served.current;
    expect(hookNames(initial)).toEqual(['quota.example.com']);
    store.register(LABELS);
    const registered = served.current;
    expect(hookNames(registered)).toEqual(['labels.example.com', 'quota.example.com']);
    expect([...registered.clients.keys()]).toEqual(['quota', 'labels']);
    // The static plugin's client is the same object: its channel stays warm.
    expect(registered.clients.get('quota')).toBe(initial.clients.get('quota'));
    store.register(LABELS);
    expect(served.current).toBe(registered);
    expect(swaps).toEqual([registered.generation]);
  });

  it('closes the client of a deregistered plugin once it is retired', async () => {
    const { store, served } = setup();
    store.register(LABELS);
    const client = served.current.clients.get('labels')!;
    store.deregister('labels');
    expect(served.current.clients.has('labels')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(client.closed).toBe(true);
  });

  it('a reload that takes a registered name is refused and the previous state stays', () => {
    const { store, served } = setup();
    store.register(LABELS);
    const before = served.current;
    const reloaded = served.reload(staticSources([], [configuration('labels', [webhook('other.example.com', 'x')])]));
    expect(reloaded.ok ? 'accepted' : reloaded.error.kind).toBe('conflict');
    expect(served.current).toBe(before);
    const ok = served.reload(staticSources([], []));
    expect(ok.ok).toBe(true);
    expect(hookNames(served.current)).toEqual(['labels.example.com']);
    expect(before.clients.get('quota')?.closed).toBe(false);
  });
});
