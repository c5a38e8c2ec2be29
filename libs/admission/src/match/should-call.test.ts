// TestShouldCallHook of kubernetes/apiserver pkg/admission/plugin/webhook/generic/webhook_test.go,
// then the §3 evaluation order and error precedence.
import { describe, expect, it } from 'vitest';
import type { NamespaceLookup } from '../types/namespace-lookup.js';
import { compileHooks } from '../config/hook.js';
import type { DefaultedWebhook, RuleWithOperations } from '../types/webhook-configuration.js';
import type { Hook } from '../types/hook.js';
import type { AdmissionRequest } from '../types/review.js';
import type { JsonValue } from '../types/json.js';
import { shouldCallHook } from './should-call.js';
import type { ShouldCall } from './should-call.js';
import { defaultedWebhook } from '../testing/defaulted-webhook.js';

function hookOf(overrides: Partial<DefaultedWebhook>): Hook {
  const webhook = defaultedWebhook('hook.example.com', {
    clientConfig: { url: 'https://hook.example.com/validate' },
    ...overrides,
  });
  const set = compileHooks([
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      name: 'cfg',
      webhooks: [webhook],
    },
  ]);
  return set.validating[0]!;
}

const rule = (groups: string[], versions: string[], resources: string[]): Required<RuleWithOperations> => ({
  operations: ['*'],
  apiGroups: groups,
  apiVersions: versions,
  resources,
  scope: '*',
});

function req(
  kind: [string, string, string],
  resource: [string, string, string],
  subResource = '',
  extra: Partial<AdmissionRequest> = {},
): AdmissionRequest {
  return {
    uid: 'uid-1',
    kind: { group: kind[0], version: kind[1], kind: kind[2] },
    resource: { group: resource[0], version: resource[1], resource: resource[2] },
    subResource,
    namespace: 'ns',
    name: 'name',
    operation: 'CREATE',
    userInfo: { username: 'alice' },
    object: { metadata: { name: 'name', labels: { app: 'web' } } },
    oldObject: null,
    ...extra,
  };
}

const namespaces: NamespaceLookup = (name) =>
  name === 'ns' ? { found: true, labels: { env: 'prod', 'kubernetes.io/metadata.name': 'ns' } } : { found: false };

const deployment = req(['apps', 'v1', 'Deployment'], ['apps', 'v1', 'deployments']);
const scale = req(['autoscaling', 'v1', 'Scale'], ['apps', 'v1', 'deployments'], 'scale');

describe('shouldCallHook (TestShouldCallHook)', () => {
  const cases: [string, Partial<DefaultedWebhook>, AdmissionRequest, boolean][] = [
    ['no rules (just write)', { rules: [] }, deployment, false],
    ['wildcard rule, match as requested', { rules: [rule(['*'], ['*'], ['*'])] }, deployment, true],
    [
      'specific rules, prefer exact match',
      {
        rules: [
          rule(['extensions'], ['v1beta1'], ['deployments']),
          rule(['apps'], ['v1beta1'], ['deployments']),
          rule(['apps'], ['v1'], ['deployments']),
        ],
      },
      deployment,
      true,
    ],
    [
      'specific rules, match miss',
      { rules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])] },
      deployment,
      false,
    ],
    [
      'specific rules, exact match miss',
      {
        matchPolicy: 'Exact',
        rules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])],
      },
      deployment,
      false,
    ],
    [
      'specific rules, subresource prefer exact match',
      {
        rules: [
          rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale']),
          rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale']),
          rule(['apps'], ['v1'], ['deployments', 'deployments/scale']),
        ],
      },
      scale,
      true,
    ],
    [
      'specific rules, subresource match miss',
      {
        rules: [
          rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale']),
          rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale']),
        ],
      },
      scale,
      false,
    ],
    [
      'specific rules, subresource exact match miss',
      {
        matchPolicy: 'Exact',
        rules: [
          rule(['extensions'], ['v1beta1'], ['deployments', 'deployments/scale']),
          rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale']),
        ],
      },
      scale,
      false,
    ],
    // Equivalent matching needs an equivalence table and object conversion (§8, §22): Hookgate matches
    // the request's own GVR only, so the apiserver's "equivalent match" cases are skips here.
    [
      'specific rules, equivalent match, prefer extensions (gap: skipped)',
      {
        matchPolicy: 'Equivalent',
        rules: [rule(['extensions'], ['v1beta1'], ['deployments']), rule(['apps'], ['v1beta1'], ['deployments'])],
      },
      deployment,
      false,
    ],
    [
      'specific rules, subresource equivalent match (gap: skipped)',
      { matchPolicy: 'Equivalent', rules: [rule(['apps'], ['v1beta1'], ['deployments', 'deployments/scale'])] },
      scale,
      false,
    ],
    [
      'invalid kind lookup (gap: no equivalence table, so no error)',
      { matchPolicy: 'Equivalent', rules: [rule(['example.com'], ['v1'], ['widgets'])] },
      req(['example.com', 'v2', 'Widget'], ['example.com', 'v2', 'widgets']),
      false,
    ],
  ];
  it.each(cases)('%s', (_name, overrides, request, expectCall) => {
    const result = shouldCallHook(hookOf(overrides), request, namespaces) as ShouldCall;
    expect(result.kind).toBe(expectCall ? 'call' : 'skip');
    if (!expectCall) expect(result).toEqual({ kind: 'skip', reason: 'rules' });
  });
});

const pods: Required<RuleWithOperations> = rule([''], ['v1'], ['pods']);
const pod = (extra: Partial<AdmissionRequest> = {}): AdmissionRequest =>
  req(['', 'v1', 'Pod'], ['', 'v1', 'pods'], '', { name: 'foo', ...extra });
const badSelector = { matchExpressions: [{ key: 'env', operator: 'In', values: [] }] };

describe('shouldCallHook: order and error precedence (§3)', () => {
  type Want = { kind: 'call' } | { kind: 'skip'; reason: string } | { kind: 'reject'; reason: string; code: number };
  const cases: [string, Partial<DefaultedWebhook>, AdmissionRequest, Want][] = [
    ['everything matches', { rules: [pods] }, pod(), { kind: 'call' }],
    [
      'namespaceSelector does not match',
      { rules: [pods], namespaceSelector: { matchLabels: { env: 'dev' } } },
      pod(),
      { kind: 'skip', reason: 'namespaceSelector' },
    ],
    [
      'objectSelector does not match',
      { rules: [pods], objectSelector: { matchLabels: { app: 'db' } } },
      pod(),
      { kind: 'skip', reason: 'objectSelector' },
    ],
    ['rules do not match', { rules: [rule([''], ['v1'], ['services'])] }, pod(), { kind: 'skip', reason: 'rules' }],
    [
      'namespaceSelector is checked before objectSelector',
      {
        rules: [pods],
        namespaceSelector: { matchLabels: { env: 'dev' } },
        objectSelector: { matchLabels: { app: 'db' } },
      },
      pod(),
      { kind: 'skip', reason: 'namespaceSelector' },
    ],
    [
      'selectors are checked before rules',
      { rules: [rule([''], ['v1'], ['services'])], objectSelector: { matchLabels: { app: 'db' } } },
      pod(),
      { kind: 'skip', reason: 'objectSelector' },
    ],
    [
      'unknown namespace: 404 when rules match',
      { rules: [pods], namespaceSelector: { matchLabels: { env: 'prod' } } },
      pod({ namespace: 'missing' }),
      { kind: 'reject', reason: 'namespaceSelector', code: 404 },
    ],
    [
      'unknown namespace: skipped when rules do not match',
      { rules: [rule([''], ['v1'], ['services'])], namespaceSelector: { matchLabels: { env: 'prod' } } },
      pod({ namespace: 'missing' }),
      { kind: 'skip', reason: 'rules' },
    ],
    [
      'unknown namespace, empty selector: no lookup, call',
      { rules: [pods] },
      pod({ namespace: 'missing' }),
      { kind: 'call' },
    ],
    [
      'namespace error, then objectSelector no match: skip',
      {
        rules: [pods],
        namespaceSelector: { matchLabels: { env: 'prod' } },
        objectSelector: { matchLabels: { app: 'db' } },
      },
      pod({ namespace: 'missing' }),
      { kind: 'skip', reason: 'objectSelector' },
    ],
    [
      'namespace error reported before object selector error',
      { rules: [pods], namespaceSelector: { matchLabels: { env: 'prod' } }, objectSelector: badSelector },
      pod({ namespace: 'missing' }),
      { kind: 'reject', reason: 'namespaceSelector', code: 404 },
    ],
    [
      'invalid objectSelector: 500 when rules match',
      { rules: [pods], objectSelector: badSelector },
      pod(),
      { kind: 'reject', reason: 'objectSelector', code: 500 },
    ],
    [
      'invalid namespaceSelector: 500 when rules match',
      { rules: [pods], namespaceSelector: badSelector },
      pod(),
      { kind: 'reject', reason: 'namespaceSelector', code: 500 },
    ],
    [
      'invalid selector: skipped when rules do not match',
      { rules: [rule(['apps'], ['*'], ['*'])], objectSelector: badSelector },
      pod(),
      { kind: 'skip', reason: 'rules' },
    ],
    [
      'selector errors are not subject to failurePolicy Ignore',
      { rules: [pods], failurePolicy: 'Ignore', objectSelector: badSelector },
      pod(),
      { kind: 'reject', reason: 'objectSelector', code: 500 },
    ],
    [
      'match condition true',
      { rules: [pods], matchConditions: [{ name: 'is-foo', expression: "object.metadata.name == 'name'" }] },
      pod(),
      { kind: 'call' },
    ],
    [
      'match condition false skips',
      {
        rules: [pods],
        matchConditions: [{ name: 'not-system', expression: "request.userInfo.username.startsWith('system:')" }],
      },
      pod(),
      { kind: 'skip', reason: 'matchCondition:not-system' },
    ],
    [
      'match condition false beats errors',
      {
        rules: [pods],
        matchConditions: [
          { name: 'errors', expression: "object.missing == 'x'" },
          { name: 'false', expression: 'false' },
        ],
      },
      pod(),
      { kind: 'skip', reason: 'matchCondition:false' },
    ],
    [
      'match condition error with Fail rejects 403',
      { rules: [pods], matchConditions: [{ name: 'errors', expression: "object.missing == 'x'" }] },
      pod(),
      { kind: 'reject', reason: 'matchConditions', code: 403 },
    ],
    [
      'match condition error with Ignore skips',
      {
        rules: [pods],
        failurePolicy: 'Ignore',
        matchConditions: [{ name: 'errors', expression: "object.missing == 'x'" }],
      },
      pod(),
      { kind: 'skip', reason: 'matchConditions:ignored-errors' },
    ],
    [
      'match conditions are not evaluated when rules do not match',
      {
        rules: [rule([''], ['v1'], ['services'])],
        matchConditions: [{ name: 'errors', expression: "object.missing == 'x'" }],
      },
      pod(),
      { kind: 'skip', reason: 'rules' },
    ],
    [
      'selector errors come before match conditions',
      { rules: [pods], objectSelector: badSelector, matchConditions: [{ name: 'false', expression: 'false' }] },
      pod(),
      { kind: 'reject', reason: 'objectSelector', code: 500 },
    ],
    [
      'cluster-scoped object ignores the namespaceSelector',
      { rules: [rule([''], ['v1'], ['nodes'])], namespaceSelector: { matchLabels: { env: 'dev' } } },
      req(['', 'v1', 'Node'], ['', 'v1', 'nodes'], '', { namespace: '' }),
      { kind: 'call' },
    ],
    [
      'CONNECT options object never matches a non-empty objectSelector',
      {
        rules: [rule([''], ['v1'], ['pods/exec'])],
        objectSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['x'] }] },
      },
      req(['', 'v1', 'PodExecOptions'], ['', 'v1', 'pods'], 'exec', {
        operation: 'CONNECT',
        object: { kind: 'PodExecOptions', command: ['sh'] },
      }),
      { kind: 'skip', reason: 'objectSelector' },
    ],
  ];
  it.each(cases)('%s', (_name, overrides, request, want) => {
    const result = shouldCallHook(hookOf(overrides), request, namespaces);
    expect(result).not.toBeInstanceOf(Promise);
    const r = result as ShouldCall;
    expect(r.kind).toBe(want.kind);
    if (r.kind === 'skip' && want.kind === 'skip') expect(r.reason).toBe(want.reason);
    if (r.kind === 'reject' && want.kind === 'reject') {
      expect(r.reason).toBe(want.reason);
      expect(r.status.code).toBe(want.code);
    }
  });
});

describe('shouldCallHook: match-condition rejection status (§9)', () => {
  const failing = { matchConditions: [{ name: 'e', expression: "object.missing == 'x'" }] };
  const text = "expression 'object.missing == 'x'' resulted in error: no such key: missing";
  const cases: [string, Partial<DefaultedWebhook>, AdmissionRequest, string][] = [
    ['core resource with a name', { rules: [pods], ...failing }, pod(), `pods "foo" is forbidden: ${text}`],
    ['no name', { rules: [pods], ...failing }, pod({ name: '' }), `pods is forbidden: ${text}`],
    [
      'resource of a named group',
      { rules: [rule(['apps'], ['v1'], ['deployments'])], ...failing },
      req(['apps', 'v1', 'Deployment'], ['apps', 'v1', 'deployments'], '', { name: 'web' }),
      `deployments.apps "web" is forbidden: ${text}`,
    ],
    [
      'several distinct errors, duplicates collapsed',
      {
        rules: [pods],
        matchConditions: [
          { name: 'a', expression: "object.missing == 'x'" },
          { name: 'b', expression: "object.missing == 'x'" },
          { name: 'c', expression: "object.other == 'y'" },
        ],
      },
      pod(),
      `pods "foo" is forbidden: [${text}, expression 'object.other == 'y'' resulted in error: no such key: other]`,
    ],
  ];
  it.each(cases)('%s', (_name, overrides, request, message) => {
    const result = shouldCallHook(hookOf(overrides), request, namespaces) as ShouldCall;
    expect(result.kind).toBe('reject');
    if (result.kind === 'reject') {
      expect(result.status).toMatchObject({ status: 'Failure', reason: 'Forbidden', code: 403, message });
    }
  });
});

describe('shouldCallHook: how the match conditions went (metrics)', () => {
  const clockOf = (): (() => number) => {
    let t = 0;
    return () => (t += 2);
  };
  it.each([
    [
      'all true: a call, no errors',
      [{ name: 't', expression: 'true' }],
      'Fail',
      { kind: 'call', conditions: { errors: 0, durationMs: 2 } },
    ],
    [
      'two erroring expressions under Fail: both counted',
      [
        { name: 'a', expression: "object.missing == 'x'" },
        { name: 'b', expression: "object.other == 'y'" },
      ],
      'Fail',
      { kind: 'reject', conditions: { errors: 2, durationMs: 2 } },
    ],
    [
      'an error, then a false one: skipped, the error still counted',
      [
        { name: 'a', expression: "object.missing == 'x'" },
        { name: 'f', expression: 'false' },
      ],
      'Fail',
      { kind: 'skip', reason: 'matchCondition:f', conditions: { errors: 1, durationMs: 2 } },
    ],
  ] as const)('%s', (_name, matchConditions, failurePolicy, want) => {
    const hook = hookOf({ rules: [pods], failurePolicy, matchConditions: [...matchConditions] });
    expect(shouldCallHook(hook, pod(), namespaces, clockOf())).toMatchObject(want);
  });

  it('a hook without match conditions reports none', () => {
    expect(shouldCallHook(hookOf({ rules: [pods] }), pod(), namespaces, clockOf())).toEqual({ kind: 'call' });
  });
});

describe('shouldCallHook: sync vs async, patched objects', () => {
  it('returns a Promise only when the namespace lookup does', async () => {
    const hook = hookOf({ rules: [pods], namespaceSelector: { matchLabels: { env: 'prod' } } });
    const live: NamespaceLookup = async (name) => namespaces(name);
    const result = shouldCallHook(hook, pod(), live);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toEqual({ kind: 'call' });
    expect(await shouldCallHook(hook, pod({ namespace: 'missing' }), live)).toMatchObject({
      kind: 'reject',
      status: { code: 404 },
    });
  });

  it('re-evaluates selectors and conditions against a patched object of the same request', () => {
    const hook = hookOf({
      rules: [pods],
      objectSelector: { matchLabels: { app: 'web' } },
      matchConditions: [{ name: 'replicas', expression: 'object.spec.replicas > 1' }],
    });
    const request = pod({ object: { metadata: { labels: { app: 'web' } }, spec: { replicas: 2 } } });
    expect(shouldCallHook(hook, request, namespaces)).toMatchObject({ kind: 'call', conditions: { errors: 0 } });
    const patched: JsonValue = { metadata: { labels: { app: 'web' } }, spec: { replicas: 1 } };
    request.object = patched;
    expect(shouldCallHook(hook, request, namespaces)).toMatchObject({
      kind: 'skip',
      reason: 'matchCondition:replicas',
    });
    request.object = { metadata: { labels: { app: 'db' } }, spec: { replicas: 5 } };
    expect(shouldCallHook(hook, request, namespaces)).toEqual({ kind: 'skip', reason: 'objectSelector' });
  });
});
