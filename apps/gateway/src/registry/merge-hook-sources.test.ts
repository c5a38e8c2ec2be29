import { describe, expect, it } from 'vitest';
import { mergeHookSources } from './merge-hook-sources.js';
import { RegistrationStore } from './registration-store.js';
import { configuration, manualClock, payload, staticSources, webhook } from './test/fixtures.js';

const STATIC = staticSources(
  [{ name: 'quota', target: '127.0.0.1:7001' }],
  [
    configuration('m-quota', [webhook('quota.example.com', 'quota')]),
    configuration('z-defaults', [webhook('defaults.example.com', 'quota')], 'MutatingWebhookConfiguration'),
  ],
);

function storeWithLabels(clock = manualClock()) {
  const store = new RegistrationStore({ now: clock.now, static: STATIC });
  const result = store.register({
    plugin: 'labels',
    target: 'unix:///run/hookgate/labels.sock',
    configurations: [
      payload(
        configuration('a-labels', [
          webhook('required.labels.example.com', 'labels', 'Fail'),
          webhook('advice.labels.example.com', 'labels', 'Ignore'),
        ]),
        configuration(
          'b-labels',
          [webhook('fill.labels.example.com', 'labels', 'Ignore')],
          'MutatingWebhookConfiguration',
        ),
      ),
    ],
    leaseSeconds: 30,
  });
  if (!result.ok) throw new Error(result.error.message);
  return { store, clock };
}

const names = (hooks: readonly { configurationName: string; name: string; target: { kind: string } }[]) =>
  hooks.map((h) => `${h.configurationName}/${h.name}`);

describe('mergeHookSources', () => {
  it('serves static and registered hooks as one HookSet, ordered by configuration name, with one plugin table', () => {
    const { store, clock } = storeWithLabels();
    const merged = mergeHookSources(STATIC, store.snapshot());
    expect(merged.ok).toBe(true);
    if (!merged.ok) return;
    expect(names(merged.value.hooks.validating)).toEqual([
      'a-labels/required.labels.example.com',
      'a-labels/advice.labels.example.com',
      'm-quota/quota.example.com',
    ]);
    expect(names(merged.value.hooks.mutating)).toEqual([
      'b-labels/fill.labels.example.com',
      'z-defaults/defaults.example.com',
    ]);
    expect(merged.value.plugins).toEqual([
      { name: 'quota', target: '127.0.0.1:7001', source: 'static' },
      { name: 'labels', target: 'unix:///run/hookgate/labels.sock', source: 'registered', registeredAt: clock.now() },
    ]);
    expect(merged.value.generation).toBe(store.generation);
  });

  it('after a lease expiry, only the Fail hooks of the registration are served', () => {
    const { store, clock } = storeWithLabels();
    clock.advance(30_000);
    store.sweep();
    const merged = mergeHookSources(STATIC, store.snapshot());
    if (!merged.ok) throw new Error(merged.error.join('\n'));
    expect(names(merged.value.hooks.validating)).toEqual([
      'a-labels/required.labels.example.com',
      'm-quota/quota.example.com',
    ]);
    expect(names(merged.value.hooks.mutating)).toEqual(['z-defaults/defaults.example.com']);
    // The plugin stays in the table: its Fail hook still has to be answered (by the lease guard).
    expect(merged.value.plugins.map((p) => p.name)).toEqual(['quota', 'labels']);
  });

  it('static only: the registry adds nothing', () => {
    const store = new RegistrationStore({ static: STATIC });
    const merged = mergeHookSources(STATIC, store.snapshot());
    if (!merged.ok) throw new Error(merged.error.join('\n'));
    expect(merged.value.configurations).toEqual(STATIC.configurations);
  });

  it('refuses sources that conflict instead of letting one shadow the other', () => {
    const { store } = storeWithLabels();
    const reloaded = staticSources(
      [{ name: 'labels', target: '127.0.0.1:7002' }],
      [configuration('a-labels', [webhook('x.example.com', 'labels')])],
    );
    const merged = mergeHookSources(reloaded, store.snapshot());
    expect(merged.ok).toBe(false);
    if (merged.ok) return;
    expect(merged.error).toEqual([
      expect.stringMatching(
        /^ValidatingWebhookConfiguration "a-labels" in the registration of plugin "labels" has the same name as ValidatingWebhookConfiguration "a-labels" in the static configuration/,
      ),
      'plugin "labels" is both declared in the GatewayConfiguration and registered',
    ]);
  });
});
