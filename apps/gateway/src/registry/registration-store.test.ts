import { describe, expect, it } from 'vitest';
import { RegistrationStore } from './registration-store.js';
import { configuration, manualClock, payload, staticSources, webhook } from './test/fixtures.js';
import type { RegisterInput, RegistryChange } from './types.js';

const TARGET = 'unix:///run/hookgate/labels.sock';

const labels = (lease = 30): RegisterInput => ({
  plugin: 'labels',
  target: TARGET,
  configurations: [
    payload(
      configuration('labels', [
        webhook('required.labels.example.com', 'labels', 'Fail'),
        webhook('advice.labels.example.com', 'labels', 'Ignore'),
      ]),
    ),
  ],
  leaseSeconds: lease,
});

const STATIC = staticSources(
  [{ name: 'quota', target: '127.0.0.1:7001' }],
  [
    configuration('quota', [webhook('quota.example.com', 'quota')]),
    configuration('team-defaults', [webhook('team.example.com', 'quota')], 'MutatingWebhookConfiguration'),
  ],
);

function newStore(clock = manualClock()) {
  const store = new RegistrationStore({ now: clock.now, static: STATIC });
  const changes: RegistryChange[] = [];
  store.onChange((c) => changes.push(c));
  return { store, clock, changes };
}

describe('RegistrationStore.register validation', () => {
  const cases: { name: string; input: RegisterInput; problems: (string | RegExp)[] }[] = [
    {
      name: 'plugin and target missing',
      input: { plugin: '', target: '', configurations: [] },
      problems: [/^plugin: Required value/, /^target: Required value/],
    },
    {
      name: 'plugin name not a DNS subdomain, target not an address',
      input: { plugin: 'Labels_X', target: 'tcp://x', configurations: [] },
      problems: [
        /^plugin: Invalid value: "Labels_X": a lowercase RFC 1123 subdomain/,
        'target: Invalid value: "tcp://x": must be unix:///absolute/path.sock or host:port ([::1]:port for IPv6)',
      ],
    },
    {
      name: 'relative unix target',
      input: { plugin: 'labels', target: 'unix:labels.sock', configurations: [] },
      problems: [/^target: Invalid value: "unix:labels.sock": unix targets take an absolute path/],
    },
    {
      name: 'webhook served by another plugin',
      input: {
        plugin: 'labels',
        target: TARGET,
        configurations: [payload(configuration('labels', [webhook('a.example.com', 'other')]))],
      },
      problems: [
        'configurations[0] (document 1, ValidatingWebhookConfiguration "labels"): webhooks[0].clientConfig.plugin: Unsupported value: "other": supported values: "labels"',
      ],
    },
    {
      name: 'url webhook in a registration',
      input: {
        plugin: 'labels',
        target: TARGET,
        configurations: [
          payload(
            configuration('labels', [
              { ...webhook('a.example.com', 'labels'), clientConfig: { url: 'https://example.com/validate' } },
            ]),
          ),
        ],
      },
      problems: [
        /^configurations\[0\] \(document 1, ValidatingWebhookConfiguration "labels"\): webhooks\[0\]\.clientConfig: Forbidden: a registration may only declare webhooks served by the registering plugin: set clientConfig.plugin to "labels" instead of url/,
      ],
    },
    {
      name: 'every field error of every document is listed',
      input: {
        plugin: 'labels',
        target: TARGET,
        configurations: [
          payload(
            configuration('labels', [
              { ...webhook('a.example.com', 'labels'), failurePolicy: 'Sometimes', timeoutSeconds: 99 },
            ]),
            configuration('more', [{ ...webhook('b', 'labels'), sideEffects: 'Some' }]),
          ),
          'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n',
        ],
      },
      problems: [
        /^configurations\[0\] \(document 1, ValidatingWebhookConfiguration "labels"\): webhooks\[0\]\.failurePolicy: Unsupported value: "Sometimes"/,
        /^configurations\[0\] \(document 1, ValidatingWebhookConfiguration "labels"\): webhooks\[0\]\.timeoutSeconds: Invalid value: 99/,
        /^configurations\[0\] \(document 2, ValidatingWebhookConfiguration "more"\): webhooks\[0\]\.name: Invalid value: "b"/,
        /^configurations\[0\] \(document 2, ValidatingWebhookConfiguration "more"\): webhooks\[0\]\.sideEffects: Unsupported value: "Some"/,
        /^configurations\[1\] \(document 1, ConfigMap "x"\): /,
      ],
    },
    {
      name: 'YAML syntax error',
      input: {
        plugin: 'labels',
        target: TARGET,
        configurations: ['kind: ValidatingWebhookConfiguration\nmetadata: {name: x\n'],
      },
      problems: [/^configurations\[0\] \(document 1\): YAML syntax error at line \d+: /],
    },
    {
      name: 'the same configuration twice',
      input: {
        plugin: 'labels',
        target: TARGET,
        configurations: [
          payload(configuration('labels', [webhook('a.example.com', 'labels')])),
          payload(configuration('labels', [webhook('b.example.com', 'labels')])),
        ],
      },
      problems: [
        /^configurations\[1\] \(document 1, ValidatingWebhookConfiguration "labels"\): metadata\.name: Duplicate value: "labels": already given in configurations\[0\]/,
      ],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const { store, changes } = newStore();
      const result = store.register(c.input);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.kind).toBe('invalid');
      for (const expected of c.problems) {
        expect(
          result.error.problems.some((p) => (typeof expected === 'string' ? p === expected : expected.test(p))),
          `${String(expected)} in ${JSON.stringify(result.error.problems, null, 1)}`,
        ).toBe(true);
      }
      // The message carries every problem, one per line, under a headline naming the plugin.
      expect(result.error.message.split('\n')).toHaveLength(result.error.problems.length + 1);
      expect(result.error.message).toMatch(/^registration of plugin ".*" refused, \d+ problems?:/);
      expect(changes).toEqual([]);
      expect(store.snapshot().registrations).toEqual([]);
    });
  }
});

describe('RegistrationStore.register conflicts', () => {
  const cases: { name: string; setup?: RegisterInput; input: RegisterInput; kind: string; problem: string }[] = [
    {
      name: 'configuration name taken by the static configuration',
      input: {
        plugin: 'labels',
        target: TARGET,
        configurations: [payload(configuration('quota', [webhook('labels.example.com', 'labels')]))],
      },
      kind: 'conflict',
      problem:
        'ValidatingWebhookConfiguration "quota" in the registration of plugin "labels" has the same name as ValidatingWebhookConfiguration "quota" in the static configuration: ' +
        'configuration names must be unique across the static configuration and registrations; rename one of them',
    },
    {
      name: 'webhook name taken by the static configuration, in a configuration of the other kind',
      input: {
        plugin: 'labels',
        target: TARGET,
        configurations: [payload(configuration('labels', [webhook('team.example.com', 'labels')]))],
      },
      kind: 'conflict',
      problem:
        'webhook "team.example.com" of ValidatingWebhookConfiguration "labels" in the registration of plugin "labels" has the same name as a webhook of ' +
        'MutatingWebhookConfiguration "team-defaults" in the static configuration: webhook names must be unique across the static configuration and registrations; rename one of them',
    },
    {
      name: 'configuration name taken by another plugin',
      setup: labels(),
      input: {
        plugin: 'audit',
        target: 'unix:///run/hookgate/audit.sock',
        configurations: [payload(configuration('labels', [webhook('audit.example.com', 'audit')]))],
      },
      kind: 'conflict',
      problem:
        'ValidatingWebhookConfiguration "labels" in the registration of plugin "audit" has the same name as ValidatingWebhookConfiguration "labels" in the registration of plugin "labels": ' +
        'configuration names must be unique across the static configuration and registrations; rename one of them',
    },
    {
      name: 'plugin declared in the GatewayConfiguration',
      input: {
        plugin: 'quota',
        target: 'unix:///run/hookgate/quota.sock',
        configurations: [payload(configuration('quota-2', [webhook('q2.example.com', 'quota')]))],
      },
      kind: 'static',
      problem:
        'plugin "quota" is declared under plugins in the GatewayConfiguration (target 127.0.0.1:7001): a registration cannot take it over; ' +
        'register under another plugin name, or remove it from the GatewayConfiguration first',
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const { store } = newStore();
      if (c.setup) expect(store.register(c.setup).ok).toBe(true);
      const before = store.snapshot();
      const result = store.register(c.input);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.kind).toBe(c.kind);
      expect(result.error.problems).toEqual([c.problem]);
      expect(store.snapshot()).toBe(before);
    });
  }

  it('an expired registration keeps its names while its Fail hooks are served', () => {
    const { store, clock } = newStore();
    expect(store.register(labels(10)).ok).toBe(true);
    clock.advance(10_000);
    store.sweep();
    const result = store.register({
      plugin: 'audit',
      target: 'unix:///run/a.sock',
      configurations: [payload(configuration('labels', [webhook('x.example.com', 'audit')]))],
    });
    expect(result.ok ? 'accepted' : result.error.kind).toBe('conflict');
  });
});

describe('RegistrationStore lifecycle', () => {
  it('accepts a registration: hooks, granted lease, a new generation, a change event', () => {
    const { store, changes } = newStore();
    const generation = store.generation;
    const result = store.register(labels());
    expect(result).toEqual({
      ok: true,
      value: {
        plugin: 'labels',
        leaseSeconds: 30,
        hooks: ['labels/required.labels.example.com', 'labels/advice.labels.example.com'],
        change: 'new',
        generation: generation + 1,
      },
    });
    expect(changes.map((c) => [c.reason, c.hooksChanged, c.plugin])).toEqual([['register', true, 'labels']]);
    const [registration] = store.snapshot().registrations;
    expect(registration?.target).toBe(TARGET);
    expect(registration?.lease).toBe('active');
    expect(registration?.served.flatMap((c) => c.webhooks.map((w) => w.name))).toEqual([
      'required.labels.example.com',
      'advice.labels.example.com',
    ]);
  });

  const leaseCases = [
    { name: 'no lease asked: the default', asked: 0, granted: 30 },
    { name: 'too short: the minimum', asked: 1, granted: 5 },
    { name: 'too long: the maximum', asked: 86_400, granted: 3600 },
    { name: 'in range: as asked', asked: 45, granted: 45 },
  ];
  for (const c of leaseCases) {
    it(`lease ${c.name}`, () => {
      const { store } = newStore();
      const result = store.register({ ...labels(), leaseSeconds: c.asked });
      expect(result.ok && result.value.leaseSeconds).toBe(c.granted);
    });
  }

  it('registering the same content again renews the lease without changing the hooks', () => {
    const { store, clock, changes } = newStore();
    store.register(labels(30));
    const generation = store.generation;
    clock.advance(20_000);
    const result = store.register(labels(30));
    expect(result.ok && result.value.change).toBe('renewed');
    expect(store.generation).toBe(generation);
    expect(store.leaseOf('labels')).toEqual({ state: 'active', expiresAt: clock.now() + 30_000 });
    expect(changes.map((c) => [c.reason, c.hooksChanged])).toEqual([
      ['register', true],
      ['renew', false],
    ]);
    clock.advance(29_000);
    expect(store.sweep()).toEqual([]);
  });

  it('a plugin that registers again with other content replaces its whole registration', () => {
    const { store } = newStore();
    store.register(labels());
    const result = store.register({
      plugin: 'labels',
      target: 'unix:///run/hookgate/labels-v2.sock',
      configurations: [payload(configuration('labels-v2', [webhook('v2.labels.example.com', 'labels')]))],
    });
    expect(result.ok && result.value.change).toBe('replaced');
    const registrations = store.snapshot().registrations;
    expect(registrations).toHaveLength(1);
    expect(registrations[0]?.target).toBe('unix:///run/hookgate/labels-v2.sock');
    expect(registrations[0]?.served.map((c) => c.name)).toEqual(['labels-v2']);
  });

  it('a lease that runs out keeps the Fail hooks (failing closed) and drops the Ignore hooks', () => {
    const { store, clock, changes } = newStore();
    store.register(labels(30));
    store.register({
      plugin: 'advice',
      target: 'unix:///run/a.sock',
      configurations: [payload(configuration('advice', [webhook('only-advice.example.com', 'advice', 'Ignore')]))],
      leaseSeconds: 60,
    });
    clock.advance(30_000);
    // Expired as soon as the clock says so, before any sweep: a late timer never lets a call through.
    expect(store.leaseOf('labels')?.state).toBe('expired');
    expect(store.sweep()).toEqual(['labels']);
    const labelsServed = store.snapshot().registrations.find((r) => r.plugin === 'labels');
    expect(labelsServed?.lease).toBe('expired');
    expect(labelsServed?.served.flatMap((c) => c.webhooks.map((w) => w.name))).toEqual(['required.labels.example.com']);
    expect(changes.at(-1)).toMatchObject({ reason: 'expire', hooksChanged: true, plugin: 'labels' });

    // Only Ignore hooks: nothing to keep, the registration goes.
    clock.advance(30_000);
    expect(store.sweep()).toEqual(['advice']);
    expect(store.snapshot().registrations.map((r) => r.plugin)).toEqual(['labels']);

    // Time passing never removes the Fail hooks.
    clock.advance(7 * 24 * 3600_000);
    store.sweep();
    expect(store.snapshot().registrations.map((r) => [r.plugin, r.lease])).toEqual([['labels', 'expired']]);
  });

  it('the plugin registering again after its lease ran out brings every hook back', () => {
    const { store, clock } = newStore();
    store.register(labels(30));
    clock.advance(31_000);
    store.sweep();
    const result = store.register(labels(30));
    expect(result.ok && result.value.change).toBe('replaced');
    const [registration] = store.snapshot().registrations;
    expect(registration?.lease).toBe('active');
    expect(registration?.served.flatMap((c) => c.webhooks.map((w) => w.name))).toEqual([
      'required.labels.example.com',
      'advice.labels.example.com',
    ]);
  });

  it('nextExpiry follows the earliest active lease', () => {
    const { store, clock } = newStore();
    expect(store.nextExpiry()).toBeUndefined();
    store.register(labels(30));
    store.register({ plugin: 'audit', target: 'unix:///run/a.sock', configurations: [], leaseSeconds: 10 });
    expect(store.nextExpiry()).toBe(clock.now() + 10_000);
  });

  it('deregister removes a registration on purpose, expired or not', () => {
    const { store, clock } = newStore();
    store.register(labels(30));
    clock.advance(60_000);
    store.sweep();
    const result = store.deregister('labels');
    expect(result).toEqual({
      ok: true,
      value: { plugin: 'labels', hooks: ['labels/required.labels.example.com'], generation: store.generation },
    });
    expect(store.snapshot().registrations).toEqual([]);
    expect(store.leaseOf('labels')).toBeUndefined();
  });

  const deregisterRefusals = [
    {
      name: 'unknown plugin',
      plugin: 'nope',
      kind: 'not-found',
      problem: 'plugin "nope" is not registered (registered plugins: "labels")',
    },
    {
      name: 'static plugin',
      plugin: 'quota',
      kind: 'static',
      problem:
        'plugin "quota" is declared under plugins in the GatewayConfiguration (target 127.0.0.1:7001): it is not a registration; remove it from the GatewayConfiguration to stop serving it',
    },
  ];
  for (const c of deregisterRefusals) {
    it(`deregister refuses: ${c.name}`, () => {
      const { store } = newStore();
      store.register(labels());
      const result = store.deregister(c.plugin);
      expect(result.ok ? 'removed' : [result.error.kind, result.error.problems]).toEqual([c.kind, [c.problem]]);
      expect(store.snapshot().registrations).toHaveLength(1);
    });
  }
});

describe('RegistrationStore.replaceStatic', () => {
  it('refuses a static configuration that takes a registered name, and keeps the previous one', () => {
    const { store } = newStore();
    store.register(labels());
    const clash = staticSources(
      [{ name: 'labels', target: '127.0.0.1:7002' }],
      [configuration('labels', [webhook('other.example.com', 'labels')])],
    );
    const result = store.replaceStatic(clash);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.problems).toEqual([
      'plugin "labels" is declared under plugins (target 127.0.0.1:7002) but is also registered (target unix:///run/hookgate/labels.sock): deregister it first, or give the static plugin another name',
      expect.stringMatching(
        /^ValidatingWebhookConfiguration "labels" in the registration of plugin "labels" has the same name as ValidatingWebhookConfiguration "labels" in the static configuration/,
      ),
    ]);
    // The previous static side still applies: "quota" is still taken.
    const again = store.register({
      plugin: 'x',
      target: 'unix:///run/x.sock',
      configurations: [payload(configuration('quota', [webhook('x.example.com', 'x')]))],
    });
    expect(again.ok ? 'accepted' : again.error.kind).toBe('conflict');
  });

  it('accepts a static configuration without conflicts', () => {
    const { store } = newStore();
    store.register(labels());
    expect(store.replaceStatic(staticSources([], [])).ok).toBe(true);
    expect(
      store.register({
        plugin: 'quota',
        target: 'unix:///run/q.sock',
        configurations: [payload(configuration('quota', [webhook('q.example.com', 'quota')]))],
      }).ok,
    ).toBe(true);
  });
});

describe('RegistrationStore.restore', () => {
  it('brings saved registrations back, applies leases that ran out meanwhile, drops what no longer fits', () => {
    const first = newStore();
    first.store.register(labels(30));
    first.store.register({
      plugin: 'audit',
      target: 'unix:///run/a.sock',
      configurations: [payload(configuration('audit', [webhook('audit.example.com', 'audit', 'Ignore')]))],
      leaseSeconds: 300,
    });
    first.store.register({
      plugin: 'gone',
      target: 'unix:///run/g.sock',
      configurations: [payload(configuration('gone', [webhook('gone.example.com', 'gone', 'Ignore')]))],
      leaseSeconds: 30,
    });
    const saved = first.store.snapshot().registrations.map(({ lease: _lease, served: _served, ...r }) => r);

    // The gateway comes back 60 s later, and its static configuration now has an "audit" configuration.
    const clock = manualClock(first.clock.now() + 60_000);
    const store = new RegistrationStore({
      now: clock.now,
      static: staticSources([], [configuration('audit', [webhook('static-audit.example.com', 'x')])]),
    });
    const changes: RegistryChange[] = [];
    store.onChange((c) => changes.push(c));
    const result = store.restore(saved);

    expect(result.restored).toEqual(['labels']);
    expect(result.dropped.map((d) => d.plugin)).toEqual(['audit']);
    expect(result.dropped[0]?.reason).toMatch(
      /has the same name as ValidatingWebhookConfiguration "audit" in the static configuration/,
    );
    const [labelsBack] = store.snapshot().registrations;
    expect([labelsBack?.plugin, labelsBack?.lease]).toEqual(['labels', 'expired']);
    expect(labelsBack?.served.flatMap((c) => c.webhooks.map((w) => w.name))).toEqual(['required.labels.example.com']);
    expect(changes.map((c) => c.reason)).toEqual(['restore']);
  });
});
