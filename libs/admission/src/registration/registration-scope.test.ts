import { describe, expect, it } from 'vitest';
import type { RuleWithOperations } from '../types/webhook-configuration.js';
import { describeShape, outsideRegistration, registrationScope } from './registration-scope.js';
import { subsumes, withoutSubsumed } from './rule-coverage.js';

const rule = (
  operations: RuleWithOperations['operations'],
  apiGroups: string[],
  apiVersions: string[],
  resources: string[],
  scope = '*',
): RuleWithOperations => ({ operations, apiGroups, apiVersions, resources, scope });

const PODS = rule(['CREATE'], [''], ['v1'], ['pods']);
const PODS_ALL = rule(['*'], [''], ['v1'], ['pods/*']);
const EVERYTHING = rule(['*'], ['*'], ['*'], ['*/*']);
const MAIN_ONLY = rule(['*'], ['*'], ['*'], ['*']);

describe('subsumes', () => {
  const cases: [string, RuleWithOperations, RuleWithOperations, boolean][] = [
    ['pods/* covers pods', PODS_ALL, PODS, true],
    ['pods does not cover pods/*', PODS, PODS_ALL, false],
    ['* does not cover subresources', MAIN_ONLY, rule(['CREATE'], [''], ['v1'], ['pods/status']), false],
    ['*/* covers everything', EVERYTHING, PODS_ALL, true],
    ['a Namespaced rule does not cover a * scope one', rule(['*'], ['*'], ['*'], ['*/*'], 'Namespaced'), PODS, false],
    ['a * scope rule covers a Cluster one', PODS, rule(['CREATE'], [''], ['v1'], ['pods'], 'Cluster'), true],
  ];
  it.each(cases)('%s', (_name, a, b, expected) => expect(subsumes(a, b)).toBe(expected));

  it('withoutSubsumed keeps the first of equal rules and drops covered ones', () => {
    expect(withoutSubsumed([PODS, PODS_ALL, { ...PODS_ALL }])).toEqual([PODS_ALL]);
  });
});

describe('registrationScope', () => {
  it('subtracts leases and events reached through wildcards only', () => {
    expect(registrationScope('Fail', [{ rules: [EVERYTHING] }]).excluded.map((p) => p.resource)).toEqual([
      'leases',
      'events',
      'events',
    ]);
    expect(
      registrationScope('Fail', [
        { rules: [MAIN_ONLY] },
        { rules: [rule(['UPDATE'], ['coordination.k8s.io'], ['v1'], ['leases'])] },
      ]).excluded.map((p) => p.group),
    ).toEqual(['', 'events.k8s.io']);
    expect(registrationScope('Fail', [{ rules: [rule(['*'], ['apps'], ['*'], ['*'])] }]).excluded).toEqual([]);
  });
});

describe('outsideRegistration', () => {
  const scope = registrationScope('Fail', [
    { rules: [PODS_ALL, rule(['CREATE'], ['apps'], ['v1'], ['*'], 'Namespaced')] },
  ]);
  it.each([
    ['inside: a narrower rule', PODS, []],
    ['inside: two rules together cover it', rule(['CREATE'], ['', 'apps'], ['v1'], ['pods'], 'Namespaced'), []],
    [
      'partly outside: apps only namespaced',
      rule(['CREATE'], ['', 'apps'], ['v1'], ['pods']),
      ['CREATE apps/v1 pods (cluster-scoped)'],
    ],
    [
      'outside: another version',
      rule(['CREATE'], [''], ['v2'], ['pods']),
      ['CREATE v2 pods (cluster-scoped)', 'CREATE v2 pods (namespaced)'],
    ],
  ])('%s', (_name, r, shapes) => {
    expect(outsideRegistration(r, scope).map(describeShape)).toEqual(shapes);
  });

  it('a hook naming leases is outside a registration that subtracts them; a wildcard one is not', () => {
    const wide = registrationScope('Fail', [{ rules: [EVERYTHING] }]);
    expect(outsideRegistration(MAIN_ONLY, wide)).toEqual([]);
    expect(
      outsideRegistration(rule(['UPDATE'], ['coordination.k8s.io'], ['v1'], ['leases']), wide).map(describeShape),
    ).toEqual([
      'UPDATE coordination.k8s.io/v1 leases (cluster-scoped)',
      'UPDATE coordination.k8s.io/v1 leases (namespaced)',
    ]);
  });
});
