// Tables ported from kubernetes/apiserver pkg/admission/plugin/webhook/predicates/rules/rules_test.go,
// plus the §2 exemptions and the §4 resource-entry forms of k8s-semantics.md.
import { describe, expect, it } from 'vitest';
import type { RuleWithOperations } from '../types/webhook-configuration.js';
import type { AdmissionRequest, Operation } from '../types/review.js';
import {
  findMatchingRule,
  isExemptRequest,
  matchesGroup,
  matchesOperation,
  matchesResource,
  matchesRule,
  matchesScope,
  matchesVersion,
  splitResourceEntry,
} from './rules.js';
import type { RuleAttributes } from './rules.js';

type Attrs = RuleAttributes & Pick<AdmissionRequest, 'name'>;

const attrs = (
  namespace: string,
  group: string,
  version: string,
  resource: string,
  subResource: string,
  operation: Operation = 'CREATE',
): Attrs => ({ namespace, resource: { group, version, resource }, subResource, operation, name: 'name' });

/** The Go test's `a(...)` / `namespacedAttributes(...)`: namespace "ns". */
const a = (g: string, v: string, r: string, sub = '', op: Operation = 'CREATE'): Attrs => attrs('ns', g, v, r, sub, op);
/** `clusterScopedAttributes(...)`: namespace "". */
const c = (g: string, v: string, r: string, sub = '', op: Operation = 'CREATE'): Attrs => attrs('', g, v, r, sub, op);

interface PredicateCase {
  readonly name: string;
  readonly rule: RuleWithOperations;
  readonly match: readonly Attrs[];
  readonly noMatch: readonly Attrs[];
}

function expand(table: readonly PredicateCase[]): [string, RuleWithOperations, Attrs, boolean][] {
  return table.flatMap((t) => [
    ...t.match.map((m, i): [string, RuleWithOperations, Attrs, boolean] => [`${t.name} match ${i}`, t.rule, m, true]),
    ...t.noMatch.map((m, i): [string, RuleWithOperations, Attrs, boolean] => [
      `${t.name} noMatch ${i}`,
      t.rule,
      m,
      false,
    ]),
  ]);
}

describe('matchesGroup (TestGroup)', () => {
  const table: PredicateCase[] = [
    { name: 'wildcard', rule: { apiGroups: ['*'] }, match: [a('g', 'v', 'r')], noMatch: [] },
    {
      name: 'exact',
      rule: { apiGroups: ['g1', 'g2'] },
      match: [a('g1', 'v', 'r'), a('g2', 'v2', 'r3')],
      noMatch: [a('g3', 'v', 'r'), a('g4', 'v', 'r')],
    },
    {
      name: 'core group is the empty string',
      rule: { apiGroups: [''] },
      match: [a('', 'v1', 'pods')],
      noMatch: [a('apps', 'v1', 'pods')],
    },
    { name: 'case-sensitive', rule: { apiGroups: ['Apps'] }, match: [], noMatch: [a('apps', 'v1', 'deployments')] },
    { name: 'empty list matches nothing', rule: { apiGroups: [] }, match: [], noMatch: [a('', 'v1', 'pods')] },
  ];
  it.each(expand(table))('%s', (_name, rule, m, want) => expect(matchesGroup(rule, m)).toBe(want));
});

describe('matchesVersion (TestVersion)', () => {
  const table: PredicateCase[] = [
    { name: 'wildcard', rule: { apiVersions: ['*'] }, match: [a('g', 'v', 'r')], noMatch: [] },
    {
      name: 'exact',
      rule: { apiVersions: ['v1', 'v2'] },
      match: [a('g1', 'v1', 'r'), a('g2', 'v2', 'r')],
      noMatch: [a('g1', 'v3', 'r'), a('g2', 'v4', 'r')],
    },
  ];
  it.each(expand(table))('%s', (_name, rule, m, want) => expect(matchesVersion(rule, m)).toBe(want));
});

describe('matchesOperation (TestOperation)', () => {
  const all = (ops: Operation[]): Attrs[] => ops.map((op) => a('g', 'v', 'r', '', op));
  const table: PredicateCase[] = [
    {
      name: 'wildcard',
      rule: { operations: ['*'] },
      match: all(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']),
      noMatch: [],
    },
    {
      name: 'create',
      rule: { operations: ['CREATE'] },
      match: all(['CREATE']),
      noMatch: all(['UPDATE', 'DELETE', 'CONNECT']),
    },
    {
      name: 'update',
      rule: { operations: ['UPDATE'] },
      match: all(['UPDATE']),
      noMatch: all(['CREATE', 'DELETE', 'CONNECT']),
    },
    {
      name: 'delete',
      rule: { operations: ['DELETE'] },
      match: all(['DELETE']),
      noMatch: all(['CREATE', 'UPDATE', 'CONNECT']),
    },
    {
      name: 'connect',
      rule: { operations: ['CONNECT'] },
      match: all(['CONNECT']),
      noMatch: all(['CREATE', 'UPDATE', 'DELETE']),
    },
    {
      name: 'multiple',
      rule: { operations: ['UPDATE', 'DELETE'] },
      match: all(['UPDATE', 'DELETE']),
      noMatch: all(['CREATE', 'CONNECT']),
    },
    {
      name: 'empty list matches nothing',
      rule: { operations: [] },
      match: [],
      noMatch: all(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']),
    },
    { name: 'missing list matches nothing', rule: {}, match: [], noMatch: all(['CREATE']) },
  ];
  it.each(expand(table))('%s', (_name, rule, m, want) => expect(matchesOperation(rule, m)).toBe(want));
});

describe('matchesResource (TestResource)', () => {
  const table: PredicateCase[] = [
    {
      name: 'no subresources',
      rule: { resources: ['*'] },
      match: [a('g', 'v', 'r'), a('2', 'v', 'r2')],
      noMatch: [a('g', 'v', 'r', 'exec'), a('2', 'v', 'r2', 'proxy')],
    },
    {
      name: 'r & subresources',
      rule: { resources: ['r/*'] },
      match: [a('g', 'v', 'r'), a('g', 'v', 'r', 'exec')],
      noMatch: [a('2', 'v', 'r2'), a('2', 'v', 'r2', 'proxy')],
    },
    {
      name: 'r & subresources or r2',
      rule: { resources: ['r/*', 'r2'] },
      match: [a('g', 'v', 'r'), a('g', 'v', 'r', 'exec'), a('2', 'v', 'r2')],
      noMatch: [a('2', 'v', 'r2', 'proxy')],
    },
    {
      name: 'proxy or exec',
      rule: { resources: ['*/proxy', '*/exec'] },
      match: [a('g', 'v', 'r', 'exec'), a('2', 'v', 'r2', 'proxy'), a('2', 'v', 'r3', 'proxy')],
      noMatch: [a('g', 'v', 'r'), a('2', 'v', 'r2'), a('2', 'v', 'r4', 'scale')],
    },
    // §4 table of entry forms.
    {
      name: '*/* matches everything',
      rule: { resources: ['*/*'] },
      match: [a('', 'v1', 'pods'), a('', 'v1', 'pods', 'exec')],
      noMatch: [],
    },
    {
      name: 'pods',
      rule: { resources: ['pods'] },
      match: [a('', 'v1', 'pods')],
      noMatch: [a('', 'v1', 'pods', 'status'), a('', 'v1', 'pods', 'exec')],
    },
    {
      name: 'pods/* includes the main resource',
      rule: { resources: ['pods/*'] },
      match: [a('', 'v1', 'pods'), a('', 'v1', 'pods', 'status'), a('', 'v1', 'pods', 'exec')],
      noMatch: [a('', 'v1', 'services'), a('', 'v1', 'services', 'status')],
    },
    {
      name: '*/status',
      rule: { resources: ['*/status'] },
      match: [a('', 'v1', 'pods', 'status'), a('apps', 'v1', 'deployments', 'status')],
      noMatch: [a('', 'v1', 'pods'), a('apps', 'v1', 'deployments', 'scale')],
    },
    {
      name: 'pods/status',
      rule: { resources: ['pods/status'] },
      match: [a('', 'v1', 'pods', 'status')],
      noMatch: [a('', 'v1', 'pods')],
    },
    {
      name: 'split at the first slash',
      rule: { resources: ['a/b/c'] },
      match: [a('', 'v1', 'a', 'b/c')],
      noMatch: [a('', 'v1', 'a', 'b'), a('', 'v1', 'a/b', 'c')],
    },
    { name: 'case-sensitive', rule: { resources: ['Pods'] }, match: [], noMatch: [a('', 'v1', 'pods')] },
  ];
  it.each(expand(table))('%s', (_name, rule, m, want) => expect(matchesResource(rule, m)).toBe(want));
});

describe('matchesScope (TestScope)', () => {
  const table: PredicateCase[] = [
    {
      name: 'cluster scope',
      rule: { resources: ['*'], scope: 'Cluster' },
      match: [
        c('g', 'v', 'r'),
        c('g', 'v', 'r', 'exec'),
        c('', 'v1', 'namespaces'),
        c('', 'v1', 'namespaces', 'finalize'),
        a('', 'v1', 'namespaces'),
        a('', 'v1', 'namespaces', 'finalize'),
      ],
      noMatch: [a('g', 'v', 'r'), a('g', 'v', 'r', 'exec')],
    },
    {
      name: 'namespace scope',
      rule: { resources: ['*'], scope: 'Namespaced' },
      match: [a('g', 'v', 'r'), a('g', 'v', 'r', 'exec')],
      noMatch: [
        c('', 'v1', 'namespaces'),
        c('', 'v1', 'namespaces', 'finalize'),
        a('', 'v1', 'namespaces'),
        a('', 'v1', 'namespaces', 'finalize'),
        c('g', 'v', 'r'),
        c('g', 'v', 'r', 'exec'),
      ],
    },
    {
      name: 'all scopes',
      rule: { resources: ['*'], scope: '*' },
      match: [
        a('g', 'v', 'r'),
        a('g', 'v', 'r', 'exec'),
        c('g', 'v', 'r'),
        c('g', 'v', 'r', 'exec'),
        c('', 'v1', 'namespaces'),
        c('', 'v1', 'namespaces', 'finalize'),
        a('', 'v1', 'namespaces'),
        a('', 'v1', 'namespaces', 'finalize'),
      ],
      noMatch: [],
    },
    {
      name: 'missing scope means all',
      rule: { resources: ['*'] },
      match: [a('g', 'v', 'r'), c('g', 'v', 'r')],
      noMatch: [],
    },
    {
      name: 'unknown scope matches nothing',
      rule: { scope: 'Galaxy' },
      match: [],
      noMatch: [a('g', 'v', 'r'), c('g', 'v', 'r')],
    },
    {
      name: 'namespaced: a namespaces resource in another group or version is not the core one',
      rule: { scope: 'Namespaced' },
      match: [a('example.com', 'v1', 'namespaces'), a('', 'v2', 'namespaces')],
      noMatch: [c('example.com', 'v1', 'namespaces')],
    },
    {
      name: 'cluster: a namespaced non-core namespaces resource is not cluster-scoped',
      rule: { scope: 'Cluster' },
      match: [c('example.com', 'v1', 'namespaces')],
      noMatch: [a('example.com', 'v1', 'namespaces')],
    },
  ];
  it.each(expand(table))('%s', (_name, rule, m, want) => expect(matchesScope(rule, m)).toBe(want));
});

describe('matchesRule: all five predicates', () => {
  const pods: RuleWithOperations = {
    operations: ['CREATE', 'UPDATE'],
    apiGroups: [''],
    apiVersions: ['v1'],
    resources: ['pods'],
    scope: 'Namespaced',
  };
  const cases: [string, RuleWithOperations, Attrs, boolean][] = [
    ['all hold', pods, a('', 'v1', 'pods'), true],
    ['operation fails', pods, a('', 'v1', 'pods', '', 'DELETE'), false],
    ['group fails', pods, a('apps', 'v1', 'pods'), false],
    ['version fails', pods, a('', 'v2', 'pods'), false],
    ['resource fails (subresource)', pods, a('', 'v1', 'pods', 'status'), false],
    ['scope fails', pods, c('', 'v1', 'pods'), false],
    [
      'catch-all',
      { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' },
      c('x', 'y', 'z', 'w', 'CONNECT'),
      true,
    ],
  ];
  it.each(cases)('%s', (_name, rule, m, want) => expect(matchesRule(rule, m)).toBe(want));

  it.each([
    ['first matching rule wins', [{ ...pods, resources: ['services'] }, pods, pods], 1],
    ['no rules', [], -1],
    ['none matches', [{ ...pods, apiVersions: ['v2'] }], -1],
  ] as [string, RuleWithOperations[], number][])('findMatchingRule: %s', (_name, rules, want) => {
    expect(findMatchingRule(rules, a('', 'v1', 'pods'))).toBe(want);
  });

  it('takes group/version/resource from request.resource, never from request.kind', () => {
    const request: AdmissionRequest = {
      uid: 'u',
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      namespace: 'ns',
      operation: 'UPDATE',
      userInfo: {},
    };
    const rule = {
      operations: ['*'],
      apiGroups: ['apps'],
      apiVersions: ['v1'],
      resources: ['deployments/scale'],
    } as RuleWithOperations;
    expect(matchesRule(rule, request)).toBe(true);
    expect(matchesRule({ ...rule, apiGroups: ['autoscaling'] }, request)).toBe(false);
  });
});

describe('splitResourceEntry', () => {
  it.each([
    ['pods', ['pods', '']],
    ['pods/status', ['pods', 'status']],
    ['*/*', ['*', '*']],
    ['a/b/c', ['a', 'b/c']],
    ['', ['', '']],
  ] as [string, [string, string]][])('%s', (entry, want) => expect(splitResourceEntry(entry)).toEqual(want));
});

describe('isExemptRequest (§2)', () => {
  const req = (
    kind: [string, string, string],
    resource: [string, string, string],
  ): Pick<AdmissionRequest, 'kind' | 'resource'> => ({
    kind: { group: kind[0], version: kind[1], kind: kind[2] },
    resource: { group: resource[0], version: resource[1], resource: resource[2] },
  });
  const ar = 'admissionregistration.k8s.io';
  it.each([
    [
      'ValidatingWebhookConfiguration v1',
      req([ar, 'v1', 'ValidatingWebhookConfiguration'], [ar, 'v1', 'validatingwebhookconfigurations']),
      true,
    ],
    [
      'MutatingWebhookConfiguration v1beta1',
      req([ar, 'v1beta1', 'MutatingWebhookConfiguration'], [ar, 'v1beta1', 'mutatingwebhookconfigurations']),
      true,
    ],
    [
      'ValidatingAdmissionPolicy',
      req([ar, 'v1', 'ValidatingAdmissionPolicy'], [ar, 'v1', 'validatingadmissionpolicies']),
      true,
    ],
    [
      'ValidatingAdmissionPolicyBinding',
      req([ar, 'v1', 'ValidatingAdmissionPolicyBinding'], [ar, 'v1', 'validatingadmissionpolicybindings']),
      true,
    ],
    [
      'MutatingAdmissionPolicy',
      req([ar, 'v1alpha1', 'MutatingAdmissionPolicy'], [ar, 'v1alpha1', 'mutatingadmissionpolicies']),
      true,
    ],
    [
      'MutatingAdmissionPolicyBinding',
      req([ar, 'v1alpha1', 'MutatingAdmissionPolicyBinding'], [ar, 'v1alpha1', 'mutatingadmissionpolicybindings']),
      true,
    ],
    [
      'exemption is on the kind, not the resource',
      req([ar, 'v1', 'ValidatingWebhookConfiguration'], ['', 'v1', 'anything']),
      true,
    ],
    ['resource alone does not exempt', req(['', 'v1', 'Pod'], [ar, 'v1', 'validatingwebhookconfigurations']), false],
    [
      'same kind in another group is not exempt',
      req(
        ['example.com', 'v1', 'ValidatingWebhookConfiguration'],
        ['example.com', 'v1', 'validatingwebhookconfigurations'],
      ),
      false,
    ],
    [
      'kind is case-sensitive',
      req([ar, 'v1', 'validatingwebhookconfiguration'], [ar, 'v1', 'validatingwebhookconfigurations']),
      false,
    ],
    [
      'tokenreviews',
      req(['authentication.k8s.io', 'v1', 'TokenReview'], ['authentication.k8s.io', 'v1', 'tokenreviews']),
      true,
    ],
    [
      'selfsubjectreviews',
      req(['authentication.k8s.io', 'v1', 'SelfSubjectReview'], ['authentication.k8s.io', 'v1', 'selfsubjectreviews']),
      true,
    ],
    [
      'subjectaccessreviews',
      req(
        ['authorization.k8s.io', 'v1', 'SubjectAccessReview'],
        ['authorization.k8s.io', 'v1', 'subjectaccessreviews'],
      ),
      true,
    ],
    [
      'localsubjectaccessreviews',
      req(
        ['authorization.k8s.io', 'v1', 'LocalSubjectAccessReview'],
        ['authorization.k8s.io', 'v1', 'localsubjectaccessreviews'],
      ),
      true,
    ],
    [
      'selfsubjectaccessreviews any version',
      req(
        ['authorization.k8s.io', 'v1beta1', 'SelfSubjectAccessReview'],
        ['authorization.k8s.io', 'v1beta1', 'selfsubjectaccessreviews'],
      ),
      true,
    ],
    [
      'selfsubjectrulesreviews',
      req(
        ['authorization.k8s.io', 'v1', 'SelfSubjectRulesReview'],
        ['authorization.k8s.io', 'v1', 'selfsubjectrulesreviews'],
      ),
      true,
    ],
    [
      'virtual resource in the wrong group',
      req(['authorization.k8s.io', 'v1', 'TokenReview'], ['authorization.k8s.io', 'v1', 'tokenreviews']),
      false,
    ],
    ['ordinary pods', req(['', 'v1', 'Pod'], ['', 'v1', 'pods']), false],
    ['prototype-looking group', req(['constructor', 'v1', 'X'], ['constructor', 'v1', 'has']), false],
  ] as [string, Pick<AdmissionRequest, 'kind' | 'resource'>, boolean][])('%s', (_name, request, want) => {
    expect(isExemptRequest(request)).toBe(want);
  });
});
