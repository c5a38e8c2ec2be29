// TestMatch of kubernetes/apiserver pkg/admission/plugin/webhook/matchconditions/matcher_test.go,
// then real expressions against real requests (k8s-semantics §9).
import { describe, expect, it } from 'vitest';
import type { FailurePolicyType } from '../types/webhook-configuration.js';
import type { CompiledMatchCondition } from '../types/hook.js';
import type { AdmissionRequest } from '../types/review.js';
import { buildCelActivation, compileMatchConditions, evaluateMatchConditions } from './match-conditions.js';
import type { MatchConditionsResult } from './match-conditions.js';
import { podAdmissionRequest } from '../testing/sample-requests.js';

/** A condition with a fixed outcome, standing in for the Go test's fake filter results. */
const fixed = (name: string, outcome: boolean | string): CompiledMatchCondition => ({
  name,
  expression: name,
  evaluate: () => (typeof outcome === 'boolean' ? { ok: true, value: outcome } : { ok: false, error: outcome }),
});

const request: AdmissionRequest = podAdmissionRequest({
  uid: 'req-1',
  name: 'foo',
  userInfo: { username: 'alice', groups: ['dev', 'system:authenticated'], extra: { team: ['blue'] } },
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'foo', namespace: 'default', labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }], priority: 3 },
  },
  options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
});

describe('evaluateMatchConditions (TestMatch)', () => {
  type Case = [
    string,
    CompiledMatchCondition[],
    FailurePolicyType | undefined,
    MatchConditionsResult['kind'],
    string | undefined,
    string | undefined,
  ];
  // name, conditions, failurePolicy, result kind, first false condition, error text
  const cases: Case[] = [
    ['test single matches', [fixed('a', true)], undefined, 'match', undefined, undefined],
    ['test multiple match', [fixed('a', true), fixed('b', true)], undefined, 'match', undefined, undefined],
    ['test empty evals', [], undefined, 'match', undefined, undefined],
    ['test single no match', [fixed('test1', false)], undefined, 'skip', 'test1', undefined],
    ['test multiple no match', [fixed('test1', false), fixed('test2', false)], undefined, 'skip', 'test1', undefined],
    [
      'test mixed with no match first',
      [fixed('test1', false), fixed('test2', true)],
      undefined,
      'skip',
      'test1',
      undefined,
    ],
    [
      'test mixed with no match last',
      [fixed('test2', true), fixed('test1', false)],
      undefined,
      'skip',
      'test1',
      undefined,
    ],
    [
      'test mixed with no match middle',
      [fixed('test2', true), fixed('test1', false), fixed('test2', true)],
      undefined,
      'skip',
      'test1',
      undefined,
    ],
    [
      'test mix of true, errors and false (false beats errors)',
      [fixed('a', true), fixed('e1', 'test error'), fixed('f', false), fixed('b', true), fixed('e2', 'test error')],
      undefined,
      'skip',
      'f',
      undefined,
    ],
    [
      'test mix of true, errors and fail policy not set (Fail)',
      [fixed('a', true), fixed('e1', 'test error'), fixed('b', true), fixed('e2', 'test error')],
      undefined,
      'error',
      undefined,
      'test error',
    ],
    [
      'test mix of true, errors and fail policy fail',
      [fixed('a', true), fixed('e1', 'test error'), fixed('b', true), fixed('e2', 'test error')],
      'Fail',
      'error',
      undefined,
      'test error',
    ],
    [
      'test mix of true, errors and fail policy ignore',
      [fixed('a', true), fixed('e1', 'test error'), fixed('b', true), fixed('e2', 'test error')],
      'Ignore',
      'skip',
      undefined,
      undefined,
    ],
    [
      'distinct errors are joined',
      [fixed('e1', 'one'), fixed('e2', 'two'), fixed('e3', 'one')],
      'Fail',
      'error',
      undefined,
      '[one, two]',
    ],
  ];
  it.each(cases)('%s', (_name, conditions, policy, kind, condition, message) => {
    const result = evaluateMatchConditions(conditions, buildCelActivation(request), policy);
    expect(result.kind).toBe(kind);
    if (result.kind === 'skip') expect(result.condition).toBe(condition);
    if (result.kind === 'error') expect(result.message).toBe(message);
  });
});

describe('compiled conditions against a real request', () => {
  const activation = buildCelActivation(request);
  const cases: [string, string, boolean | string][] = [
    // name, expression, true/false or the error text
    ['object field', "object.metadata.name == 'foo'", true],
    ['label present', "'app' in object.metadata.labels && object.metadata.labels.app == 'web'", true],
    ['JSON integers are CEL ints', 'object.spec.priority + 1 == 4', true],
    ['int division', 'object.spec.priority / 2 == 1', true],
    ['nested ints', 'object.spec.containers[0].ports[0].containerPort == 80', true],
    ['int equals double', 'object.spec.priority == 3.0', true],
    ['oldObject is null on CREATE', 'oldObject == null', true],
    ['namespaceObject is always null', 'namespaceObject == null', true],
    ['request operation', "request.operation == 'CREATE'", true],
    ['request name/namespace', "request.name == 'foo' && request.namespace == 'default'", true],
    ['request requestKind', "request.requestKind.kind == 'Pod'", true],
    ['request dryRun', '!request.dryRun', true],
    ['request options', "request.options.kind == 'CreateOptions'", true],
    ['has() on an omitted field', '!has(request.subResource)', true],
    ['userInfo', "request.userInfo.username == 'alice' && 'dev' in request.userInfo.groups", true],
    ['userInfo extra', "request.userInfo.extra['team'] == ['blue']", true],
    ['exclude system users', "!request.userInfo.username.startsWith('system:')", true],
    ['false condition', "object.metadata.name == 'bar'", false],
    [
      'missing key',
      "object.nonExistentProperty == 'x'",
      "expression 'object.nonExistentProperty == 'x'' resulted in error: no such key: nonExistentProperty",
    ],
    [
      'omitted request field',
      "request.subResource == ''",
      "expression 'request.subResource == ''' resulted in error: no such key: subResource",
    ],
    [
      'select on null oldObject',
      "oldObject.metadata.name == 'x'",
      "expression 'oldObject.metadata.name == 'x'' resulted in error: no such key: metadata",
    ],
    [
      'division by zero',
      'object.spec.priority / 0 == 1',
      "expression 'object.spec.priority / 0 == 1' resulted in error: division by zero",
    ],
    [
      'authorizer is a documented gap',
      "authorizer.requestResource.check('create').allowed()",
      "expression 'authorizer.requestResource.check('create').allowed()' resulted in error: authorizer checks are not supported by Hookgate",
    ],
    ['compile error surfaces at evaluation', '1 +', 'compilation error: compilation failed: ERROR: <input>:1:4:'],
  ];
  it.each(cases)('%s', (name, expression, want) => {
    const [condition] = compileMatchConditions([{ name, expression }]);
    const result = condition!.evaluate(activation);
    if (typeof want === 'boolean') expect(result).toEqual({ ok: true, value: want });
    else {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toContain(want);
    }
  });

  it('shares one conversion of the object across conditions and activations of the same request', () => {
    const conditions = compileMatchConditions([
      { name: 'a', expression: 'object.spec.priority == 3' },
      { name: 'b', expression: "object.metadata.labels.app == 'web'" },
    ]);
    expect(evaluateMatchConditions(conditions, activation, 'Fail')).toEqual({ kind: 'match' });
    expect(evaluateMatchConditions(conditions, buildCelActivation(request), 'Fail')).toEqual({ kind: 'match' });
  });

  it('evaluates DELETE with a null object', () => {
    const del = buildCelActivation({
      ...request,
      operation: 'DELETE',
      object: null,
      oldObject: request.object ?? null,
    });
    const [condition] = compileMatchConditions([
      { name: 'd', expression: "object == null && oldObject.metadata.name == 'foo'" },
    ]);
    expect(condition!.evaluate(del)).toEqual({ ok: true, value: true });
  });
});
