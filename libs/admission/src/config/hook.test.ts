// compileHooks: ordering, uids, indexes (§1), targets, review versions (§10).
import { describe, expect, it } from 'vitest';
import { buildTarget, compileHooks, pickReviewVersion } from './hook.js';
import type {
  ConfigKind,
  DefaultedConfiguration,
  DefaultedWebhook,
  WebhookClientConfig,
} from '../types/webhook-configuration.js';
import type { HookTarget } from '../types/hook.js';
import { defaultedWebhook } from '../testing/defaulted-webhook.js';

const webhook = (name: string, overrides: Partial<DefaultedWebhook> = {}): DefaultedWebhook =>
  defaultedWebhook(name, { clientConfig: { url: 'https://example.com/hook' }, ...overrides });

const config = (kind: ConfigKind, name: string, webhooks: DefaultedWebhook[]): DefaultedConfiguration => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind,
  name,
  webhooks,
});
const M: ConfigKind = 'MutatingWebhookConfiguration';
const V: ConfigKind = 'ValidatingWebhookConfiguration';

describe('compileHooks: order, uid and index', () => {
  const set = compileHooks([
    config(M, 'zeta', [webhook('z1.example.com')]),
    config(V, 'beta', [webhook('v1.example.com'), webhook('v2.example.com')]),
    config(M, 'alpha', [webhook('a.example.com'), webhook('dup.example.com'), webhook('dup.example.com')]),
    config(M, 'Zulu', [webhook('upper.example.com')]),
    config(V, 'alpha', [webhook('va.example.com')]),
  ]);

  it('sorts configurations by name byte-wise, keeps webhook order, numbers per phase', () => {
    expect(set.mutating.map((h) => [h.index, h.uid])).toEqual([
      [0, 'Zulu/upper.example.com/0'],
      [1, 'alpha/a.example.com/0'],
      [2, 'alpha/dup.example.com/0'],
      [3, 'alpha/dup.example.com/1'],
      [4, 'zeta/z1.example.com/0'],
    ]);
    expect(set.validating.map((h) => [h.index, h.uid])).toEqual([
      [0, 'alpha/va.example.com/0'],
      [1, 'beta/v1.example.com/0'],
      [2, 'beta/v2.example.com/0'],
    ]);
  });

  it.each([
    ['phase', (s: typeof set) => s.mutating[0]!.phase, 'mutating'],
    ['validating phase', (s: typeof set) => s.validating[0]!.phase, 'validating'],
    ['configurationName', (s: typeof set) => s.mutating[1]!.configurationName, 'alpha'],
    ['name', (s: typeof set) => s.mutating[1]!.name, 'a.example.com'],
    ['sourceApiVersion', (s: typeof set) => s.mutating[1]!.sourceApiVersion, 'admissionregistration.k8s.io/v1'],
    ['reviewVersion', (s: typeof set) => s.mutating[1]!.reviewVersion, 'v1'],
    ['hooks are frozen', (s: typeof set) => Object.isFrozen(s.mutating[1]), true],
    ['lists are frozen', (s: typeof set) => Object.isFrozen(s.validating), true],
    ['selectors compiled', (s: typeof set) => s.mutating[1]!.namespaceSelector.isEmpty, true],
  ] as [string, (s: typeof set) => unknown, unknown][])('%s', (_name, read, want) => expect(read(set)).toEqual(want));

  it('keeps the given order for configurations with equal names (stable sort)', () => {
    const s = compileHooks([
      config(V, 'same', [webhook('first.example.com')]),
      config(V, 'same', [webhook('second.example.com')]),
    ]);
    expect(s.validating.map((h) => h.name)).toEqual(['first.example.com', 'second.example.com']);
  });

  it('compiles selectors and match conditions once', () => {
    const s = compileHooks([
      config(V, 'c', [
        webhook('w.example.com', {
          objectSelector: { matchLabels: { app: 'web' } },
          matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
        }),
      ]),
    ]);
    const hook = s.validating[0]!;
    expect(hook.objectSelector.matches({ app: 'web' })).toBe(true);
    expect(hook.objectSelector.matches({ app: 'db' })).toBe(false);
    expect(hook.matchConditions.map((c) => c.name)).toEqual(['not-system']);
  });

  it('candidates() uses the per-phase index', () => {
    const pods = {
      operations: ['CREATE'],
      apiGroups: [''],
      apiVersions: ['v1'],
      resources: ['pods'],
      scope: '*',
    } as DefaultedWebhook['rules'][number];
    const s = compileHooks([
      config(V, 'v', [webhook('pods.example.com', { rules: [pods] }), webhook('none.example.com', { rules: [] })]),
      config(M, 'm', [webhook('m.example.com', { rules: [pods] })]),
    ]);
    const request = {
      operation: 'CREATE' as const,
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'ns',
    };
    expect(s.candidates('validating', request).map((h) => h.name)).toEqual(['pods.example.com']);
    expect(s.candidates('mutating', request).map((h) => h.name)).toEqual(['m.example.com']);
    expect(s.candidates('mutating', { ...request, operation: 'DELETE' })).toHaveLength(0);
  });

  it('returns an empty set for no configurations', () => {
    const s = compileHooks([]);
    expect(s.mutating).toEqual([]);
    expect(s.validating).toEqual([]);
  });
});

describe('pickReviewVersion (§10)', () => {
  it.each([
    ['v1', ['v1'], 'v1'],
    ['first known wins', ['v1beta1', 'v1'], 'v1beta1'],
    ['unknown entries skipped', ['v2', 'v1'], 'v1'],
    ['none known', ['v2'], null],
    ['empty', [], null],
  ] as [string, string[], string | null][])('%s', (_name, versions, want) =>
    expect(pickReviewVersion(versions)).toBe(want),
  );
});

describe('buildTarget', () => {
  it.each([
    ['plugin', { plugin: 'opa' }, { kind: 'plugin', plugin: 'opa' }],
    ['url', { url: 'https://h.example.com/x' }, { kind: 'url', url: 'https://h.example.com/x' }],
    ['url with CA', { url: 'https://h/x', caBundle: 'Q0E=' }, { kind: 'url', url: 'https://h/x', caBundle: 'Q0E=' }],
    [
      'service defaults: port 443, path /',
      { service: { namespace: 'ns', name: 'svc' } },
      { kind: 'service', namespace: 'ns', name: 'svc', path: '/', port: 443 },
    ],
    [
      'service explicit',
      { service: { namespace: 'ns', name: 'svc', path: '/validate', port: 8443 }, caBundle: 'Q0E=' },
      { kind: 'service', namespace: 'ns', name: 'svc', path: '/validate', port: 8443, caBundle: 'Q0E=' },
    ],
    ['nothing configured: empty url (the invoker fails the call)', {}, { kind: 'url', url: '' }],
  ] as [string, WebhookClientConfig, HookTarget][])('%s', (_name, client, want) =>
    expect(buildTarget(client)).toEqual(want),
  );
});
