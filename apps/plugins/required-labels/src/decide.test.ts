import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@hookgate/admission';
import { decideRequiredLabels, type LabelsRequest, type RequiredLabelsPolicy } from './decide.js';
import { parseRequiredLabelsConfig } from './config.js';

const policy: RequiredLabelsPolicy = parseRequiredLabelsConfig(
  `
namespaceLabels:
  payments: { tier: prod }
  sandbox: { tier: dev }
rules:
  - name: team-ownership
    kinds: [apps/Deployment, apps/StatefulSet, Service]
    namespaceSelector: { matchLabels: { tier: prod } }
    labels:
      - { key: team, values: [payments, platform] }
      - { key: cost-center, pattern: '[0-9]{4}' }
  - name: app-name
    kinds: ['apps/*']
    namespaces: [payments, sandbox]
    labels:
      - { key: app.kubernetes.io/name }
  - name: cluster-owner
    kinds: [rbac.authorization.k8s.io/ClusterRole]
    labels:
      - { key: owner }
  - name: namespace-tier
    kinds: [Namespace]
    namespaceSelector:
      matchExpressions: [{ key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system] }]
    labels:
      - { key: tier, values: [prod, dev] }
`,
  'test.yaml',
);

const compliant = { team: 'payments', 'cost-center': '4711', 'app.kubernetes.io/name': 'api' };

function request(
  overrides: Partial<LabelsRequest> & { labels?: Record<string, string> | null; metadata?: Record<string, JsonValue> },
): LabelsRequest {
  const { labels, metadata, ...rest } = overrides;
  const object: JsonValue = {
    metadata: { name: rest.name ?? 'api', ...(labels === null ? {} : { labels: labels ?? compliant }), ...metadata },
  };
  return {
    operation: 'CREATE',
    kind: { group: 'apps', kind: 'Deployment' },
    resource: { resource: 'deployments' },
    namespace: 'payments',
    name: 'api',
    object,
    ...rest,
  };
}

describe('decideRequiredLabels', () => {
  const cases: { name: string; request: LabelsRequest; allowed: boolean; message?: string; problems?: string[] }[] = [
    { name: 'a compliant Deployment is allowed', request: request({}), allowed: true },
    {
      name: 'every missing label of every rule is named',
      request: request({ labels: null }),
      allowed: false,
      message:
        'Deployment "payments/api" does not carry the required labels: rule "team-ownership": missing label "team" (allowed: "payments", "platform"); ' +
        'missing label "cost-center" (must match /[0-9]{4}/); rule "app-name": missing label "app.kubernetes.io/name"',
      problems: [
        'team-ownership/team:missing',
        'team-ownership/cost-center:missing',
        'app-name/app.kubernetes.io/name:missing',
      ],
    },
    {
      name: 'a value outside the list and a value not matching the pattern are both named with their values',
      request: request({ labels: { ...compliant, team: 'marketing', 'cost-center': '47a1' } }),
      allowed: false,
      message:
        'Deployment "payments/api" does not carry the required labels: rule "team-ownership": label "team" has value "marketing" (allowed: "payments", "platform"); ' +
        'label "cost-center" has value "47a1" (must match /[0-9]{4}/)',
      problems: ['team-ownership/team:invalid', 'team-ownership/cost-center:invalid'],
    },
    {
      name: 'the pattern matches the whole value only',
      request: request({ labels: { ...compliant, 'cost-center': '47110' } }),
      allowed: false,
      problems: ['team-ownership/cost-center:invalid'],
    },
    {
      name: 'an empty value is present but not allowed by a list',
      request: request({ labels: { ...compliant, team: '' } }),
      allowed: false,
      problems: ['team-ownership/team:invalid'],
    },
    {
      name: 'namespaceSelector not matching (tier dev) skips the rule',
      request: request({ namespace: 'sandbox', labels: { 'app.kubernetes.io/name': 'api' } }),
      allowed: true,
    },
    {
      name: 'a namespace absent from the static map has only its name label: the selector does not match',
      request: request({ namespace: 'unlisted', labels: {} }),
      allowed: true,
    },
    {
      name: 'namespaces list: only listed namespaces are checked',
      request: request({ namespace: 'sandbox', labels: {} }),
      allowed: false,
      problems: ['app-name/app.kubernetes.io/name:missing'],
    },
    {
      name: 'kind wildcard apps/* covers a DaemonSet',
      request: request({
        kind: { group: 'apps', kind: 'DaemonSet' },
        resource: { resource: 'daemonsets' },
        labels: {},
      }),
      allowed: false,
      problems: ['app-name/app.kubernetes.io/name:missing'],
    },
    {
      name: 'a kind no rule names is allowed',
      request: request({ kind: { group: '', kind: 'ConfigMap' }, resource: { resource: 'configmaps' }, labels: {} }),
      allowed: true,
    },
    {
      name: 'the core group is not any group: a Service of another group is not covered',
      request: request({
        kind: { group: 'example.com', kind: 'Service' },
        resource: { resource: 'services' },
        labels: {},
      }),
      allowed: true,
    },
    {
      name: 'UPDATE is checked like CREATE',
      request: request({ operation: 'UPDATE', labels: { ...compliant, team: 'x' } }),
      allowed: false,
      problems: ['team-ownership/team:invalid'],
    },
    {
      name: 'UPDATE of an object being deleted is allowed (finalizers must be removable)',
      request: request({ operation: 'UPDATE', labels: {}, metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } }),
      allowed: true,
    },
    { name: 'DELETE is allowed', request: request({ operation: 'DELETE', labels: {} }), allowed: true },
    {
      name: 'a subresource update is allowed',
      request: request({ operation: 'UPDATE', subResource: 'status', labels: {} }),
      allowed: true,
    },
    {
      name: 'cluster-scoped object: a rule without namespace constraints applies',
      request: request({
        kind: { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' },
        resource: { resource: 'clusterroles' },
        namespace: '',
        name: 'viewer',
        labels: {},
      }),
      allowed: false,
      message: 'ClusterRole "viewer" does not carry the required labels: rule "cluster-owner": missing label "owner"',
      problems: ['cluster-owner/owner:missing'],
    },
    {
      name: 'a Namespace object is matched on its own name and labels',
      request: request({
        kind: { group: '', kind: 'Namespace' },
        resource: { resource: 'namespaces' },
        namespace: '',
        name: 'team-x',
        labels: { tier: 'staging' },
      }),
      allowed: false,
      problems: ['namespace-tier/tier:invalid'],
    },
    {
      name: 'a Namespace excluded by a NotIn expression on its name is allowed',
      request: request({
        kind: { group: '', kind: 'Namespace' },
        resource: { resource: 'namespaces' },
        namespace: '',
        name: 'kube-system',
        labels: {},
      }),
      allowed: true,
    },
    {
      name: 'generateName objects are named as such',
      request: request({ name: '', metadata: { generateName: 'api-' }, labels: { ...compliant, team: 'x' } }),
      allowed: false,
      message:
        'Deployment "payments/api-<generated>" does not carry the required labels: rule "team-ownership": label "team" has value "x" (allowed: "payments", "platform")',
    },
    {
      name: 'non-string label values count as missing',
      request: { ...request({}), object: { metadata: { name: 'api', labels: { ...compliant, team: 7 } } } },
      allowed: false,
      problems: ['team-ownership/team:missing'],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const decision = decideRequiredLabels(c.request, policy);
      expect(decision.allowed).toBe(c.allowed);
      if (decision.allowed) return;
      expect(decision.code).toBe(403);
      expect(decision.reason).toBe('Forbidden');
      if (c.message !== undefined) expect(decision.message).toBe(c.message);
      if (c.problems !== undefined)
        expect(decision.problems.map((p) => `${p.rule}/${p.key}:${p.problem}`)).toEqual(c.problems);
    });
  }

  it('finds only labels the object carries, never a member every object inherits', () => {
    const inherited = parseRequiredLabelsConfig(
      `
rules:
  - name: odd-keys
    kinds: [Service]
    labels:
      - { key: constructor }
      - { key: toString }
`,
      'test.yaml',
    );
    const service = { kind: { group: '', kind: 'Service' }, resource: { resource: 'services' } };
    const bare = decideRequiredLabels(request({ ...service, labels: { app: 'web' } }), inherited);
    expect(!bare.allowed && bare.problems.map((p) => `${p.key}:${p.problem}`)).toEqual([
      'constructor:missing',
      'toString:missing',
    ]);
    const labelled = request({
      ...service,
      labels: JSON.parse('{"__proto__": "x", "constructor": "a", "toString": "b"}'),
    });
    expect(decideRequiredLabels(labelled, inherited).allowed).toBe(true);
  });

  it('long values are truncated in the message', () => {
    const decision = decideRequiredLabels(request({ labels: { ...compliant, team: 'x'.repeat(70) } }), policy);
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) expect(decision.message).toContain(`"${'x'.repeat(61)}..."`);
  });
});
