/**
 * The narrowed registration, judged request by request with the apiserver's own semantics
 * (libs/admission's rule matcher, namespaceSelector and CEL matchConditions): for every request
 * shape the hooks' rules can tell apart, the registration's webhook for a failure policy matches
 * exactly when a hook of that policy could match it, except in exempt namespaces and for leases
 * and events no hook names.
 */
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compileHooks,
  matchesRule,
  parseWebhookConfiguration,
  shouldCallHook,
  splitResourceEntry,
  type AdmissionRequest,
  type DefaultedWebhook,
  type FailurePolicyType,
  type Hook,
  type NamespaceLookup,
  type Operation,
  type RuleWithOperations,
} from '@hookgate/admission';
import { formatConfigError, loadConfiguration, type LoadedConfiguration } from '@hookgate/config';
import { buildRegistrations } from './registration.js';

const CORPUS = fileURLToPath(new URL('../../../test/fixtures/corpus/webhook-configs/', import.meta.url));
const env = { cwd: '/work', isRoot: false, cpus: 2 };
const GATEWAY = 'apiVersion: hookgate.dev/v1alpha1\nkind: GatewayConfiguration\nadmission: { port: 8443 }\n';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function load(files: Record<string, string>, copies: string[] = []): Promise<LoadedConfiguration> {
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-registration-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  for (const file of copies) await copyFile(join(CORPUS, file), join(dir, file));
  const loaded = await loadConfiguration(dir, { env });
  if (!loaded.ok) throw new Error(loaded.error.map(formatConfigError).join('\n'));
  return loaded.value;
}

// ---- the oracle: what the registration must cover, from the specification alone

const PROTECTED = [
  { group: 'coordination.k8s.io', resource: 'leases' },
  { group: '', resource: 'events' },
  { group: 'events.k8s.io', resource: 'events' },
];
const NAMESPACES: Record<string, Record<string, string>> = {
  default: {},
  'kube-system': {},
  'kube-node-lease': {},
  boot: { runlevel: '0' },
  'team-a': {},
};
const lookup: NamespaceLookup = (name) =>
  name in NAMESPACES
    ? { found: true, labels: { ...NAMESPACES[name], 'kubernetes.io/metadata.name': name } }
    : { found: false };

const OTHER = 'zz-unnamed';
const OPERATIONS: Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

interface Probe {
  readonly request: AdmissionRequest;
  /** The namespace whose labels the namespaceSelector reads; undefined for cluster-scoped objects. */
  readonly labelNamespace: string | undefined;
}

/** Every combination of the values the rules name (plus one they do not): the shapes rules can tell apart. */
function probesFor(rules: readonly RuleWithOperations[]): Probe[] {
  const groups = new Set(['', OTHER, ...PROTECTED.map((p) => p.group)]);
  const versions = new Set(['v1', OTHER]);
  const resources = new Set(['namespaces', OTHER, ...PROTECTED.map((p) => p.resource)]);
  const subs = new Set(['', OTHER]);
  for (const r of rules) {
    r.apiGroups?.forEach((g) => g !== '*' && groups.add(g));
    r.apiVersions?.forEach((v) => v !== '*' && versions.add(v));
    for (const e of r.resources ?? []) {
      const [res, sub] = splitResourceEntry(e);
      if (res !== '*') resources.add(res);
      if (sub !== '*') subs.add(sub);
    }
  }
  const probes: Probe[] = [];
  for (const operation of OPERATIONS)
    for (const group of groups)
      for (const version of versions)
        for (const resource of resources)
          for (const subResource of subs)
            for (const ns of ['', ...Object.keys(NAMESPACES)]) {
              // A Namespace object's namespaceSelector reads its own labels (or those of the namespace it names).
              const isNamespace = resource === 'namespaces';
              const name = isNamespace ? ns || 'team-a' : 'probe';
              const namespace = isNamespace ? name : ns;
              const labels = isNamespace ? { ...NAMESPACES[name], 'kubernetes.io/metadata.name': name } : {};
              const object = { metadata: { name, labels } };
              probes.push({
                labelNamespace: isNamespace ? name : namespace || undefined,
                request: {
                  uid: 'probe',
                  kind: { group, version, kind: 'Probe' },
                  resource: { group, version, resource },
                  ...(subResource ? { subResource } : {}),
                  name,
                  namespace,
                  operation,
                  userInfo: { username: 'probe' },
                  ...(operation === 'DELETE' ? { oldObject: object } : { object }),
                },
              });
            }
  return probes;
}

const names = (rule: RuleWithOperations, p: { group: string; resource: string }) =>
  (rule.apiGroups ?? []).some((g) => g === '*' || g === p.group) &&
  (rule.resources ?? []).some((e) => splitResourceEntry(e)[0] === p.resource);

function mustCover(
  probe: Probe,
  hooks: readonly DefaultedWebhook[],
  exempt: readonly string[],
  reserve: readonly RuleWithOperations[],
) {
  const rules = [...hooks.flatMap((h) => h.rules), ...reserve];
  if (!rules.some((r) => matchesRule(r, probe.request))) return false;
  const ns = probe.labelNamespace;
  if (ns !== undefined && (exempt.includes(ns) || NAMESPACES[ns]?.['runlevel'] === '0')) return false;
  const { group, resource } = probe.request.resource;
  const p = PROTECTED.find((x) => x.group === group && x.resource === resource);
  return p === undefined || rules.some((r) => names(r, p));
}

// ---- the registration as the apiserver would read it

type Doc = Record<string, unknown> & { webhooks: Record<string, unknown>[] };

function outerHooks(doc: Doc): Hook[] {
  const parsed = parseWebhookConfiguration(doc);
  if (!parsed.ok)
    throw new Error(`the registration is not a valid ${String(doc['kind'])}: ${JSON.stringify(parsed.error)}`);
  const set = compileHooks([parsed.value]);
  return [...set.mutating, ...set.validating];
}

const called = (hook: Hook | undefined, request: AdmissionRequest) => {
  if (hook === undefined) return false;
  const result = shouldCallHook(hook, request, lookup);
  if (result instanceof Promise) throw new Error('static lookup is synchronous');
  return result.kind === 'call';
};

interface Checked {
  readonly probes: number;
  readonly covered: number;
}

function checkRegistration(loaded: LoadedConfiguration): Checked {
  const [mutating, validating] = buildRegistrations({ configuration: loaded, urlHost: '127.0.0.1' }) as [Doc, Doc];
  let probes = 0;
  let covered = 0;
  const { exemptNamespaces, reserve } = loaded.gateway.registration;
  for (const [doc, kind, type] of [
    [mutating, 'MutatingWebhookConfiguration', 'Mutating'],
    [validating, 'ValidatingWebhookConfiguration', 'Validating'],
  ] as const) {
    const outer = outerHooks(doc);
    const webhooks = loaded.webhookConfigurations.filter((c) => c.kind === kind).flatMap((c) => c.webhooks);
    const all = [...webhooks.flatMap((w) => w.rules), ...reserve.flatMap((r) => r.rules)];
    const probeSet = probesFor(all);
    for (const policy of ['Fail', 'Ignore'] as FailurePolicyType[]) {
      const hooks = webhooks.filter((w) => w.failurePolicy === policy);
      const reserved = reserve.filter((r) => r.type === type && r.failurePolicy === policy).flatMap((r) => r.rules);
      const webhook = outer.find((h) => h.failurePolicy === policy);
      if (hooks.length === 0 && reserved.length === 0) expect(webhook).toBeUndefined();
      for (const probe of probeSet) {
        const expected = mustCover(probe, hooks, exemptNamespaces, reserved);
        const actual = called(webhook, probe.request);
        if (actual !== expected) {
          const r = probe.request;
          throw new Error(
            `${kind} ${policy}: ${r.operation} ${r.resource.group}/${r.resource.version} ${r.resource.resource}` +
              `${r.subResource ? `/${r.subResource}` : ''} in ${JSON.stringify(r.namespace)}: registered ${actual}, needed ${expected}`,
          );
        }
        probes += 1;
        if (expected) covered += 1;
      }
    }
  }
  return { probes, covered };
}

describe('the registration on the corpus: every request a hook could match, nothing else', async () => {
  const files = (await readdir(CORPUS)).filter((f) => f.endsWith('.yaml')).sort();
  it('has the 25 corpus configurations', () => expect(files).toHaveLength(25));

  for (const file of files) {
    it(file, async () => {
      const loaded = await load({ '00-gateway.yaml': GATEWAY }, [file]);
      const checked = checkRegistration(loaded);
      // knative's config webhook has no rules: it can match nothing, so nothing is registered.
      const matchesSomething = loaded.webhookConfigurations.some((c) => c.webhooks.some((w) => w.rules.length > 0));
      expect(checked.covered > 0).toBe(matchesSomething);
      expect(checked.covered).toBeLessThan(checked.probes);
      if (!matchesSomething)
        for (const doc of buildRegistrations({ configuration: loaded, urlHost: '127.0.0.1' }))
          expect(doc['webhooks']).toEqual([]);
    });
  }
});

const hookYaml = (
  kind: 'Mutating' | 'Validating',
  name: string,
  policy: FailurePolicyType,
  rules: string,
  timeoutSeconds = 10,
) => `---
apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata: { name: ${name} }
webhooks:
  - name: ${name}.example.com
    clientConfig: { url: "https://hooks.example.com/${name}" }
    rules: ${rules}
    failurePolicy: ${policy}
    timeoutSeconds: ${timeoutSeconds}
    sideEffects: None
    admissionReviewVersions: [v1]
`;
const EVERYTHING = `[{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"] }]`;
const PODS = `[{ operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods], scope: Namespaced }]`;

describe('buildRegistrations', () => {
  it('puts Fail and Ignore hooks in separate webhooks with their failure policy, paths and timeouts', async () => {
    const loaded = await load({
      'gw.yaml':
        GATEWAY +
        hookYaml('Mutating', 'a', 'Ignore', PODS, 5) +
        hookYaml('Mutating', 'b', 'Fail', PODS, 10) +
        hookYaml(
          'Mutating',
          'c',
          'Fail',
          `[{ operations: [UPDATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments/scale] }]`,
          12,
        ) +
        hookYaml('Validating', 'd', 'Ignore', EVERYTHING, 7) +
        hookYaml('Validating', 'e', 'Ignore', PODS, 3),
    });
    const [m, v] = buildRegistrations({ configuration: loaded, urlHost: '127.0.0.1', caBundle: 'Q0E=' }) as [Doc, Doc];
    expect(m.webhooks).toEqual([
      expect.objectContaining({
        name: 'mutate-fail.hookgate.dev',
        clientConfig: { url: 'https://127.0.0.1:8443/mutate/fail', caBundle: 'Q0E=' },
        failurePolicy: 'Fail',
        timeoutSeconds: 23, // the Fail chain runs serially: 10 + 12, plus the gateway's second
        reinvocationPolicy: 'Never',
        matchPolicy: 'Exact',
        rules: [
          { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' },
          {
            operations: ['UPDATE'],
            apiGroups: ['apps'],
            apiVersions: ['v1'],
            resources: ['deployments/scale'],
            scope: '*',
          },
        ],
      }),
      expect.objectContaining({
        name: 'mutate-ignore.hookgate.dev',
        clientConfig: { url: 'https://127.0.0.1:8443/mutate/ignore', caBundle: 'Q0E=' },
        failurePolicy: 'Ignore',
        timeoutSeconds: 6,
      }),
    ]);
    // Only Ignore validating hooks: no Fail webhook at all; pods are inside `*/*`, so one rule remains.
    expect(v.webhooks).toEqual([
      expect.objectContaining({
        name: 'validate-ignore.hookgate.dev',
        failurePolicy: 'Ignore',
        timeoutSeconds: 8,
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }],
        matchConditions: [
          {
            name: 'hookgate.dev/not-leases',
            expression: "!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')",
          },
          {
            name: 'hookgate.dev/not-core-events',
            expression: "!(request.resource.group == '' && request.resource.resource == 'events')",
          },
          {
            name: 'hookgate.dev/not-events',
            expression: "!(request.resource.group == 'events.k8s.io' && request.resource.resource == 'events')",
          },
        ],
        namespaceSelector: {
          matchExpressions: [
            { key: 'runlevel', operator: 'NotIn', values: ['0', '1'] },
            { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'kube-node-lease'] },
          ],
        },
      }),
    ]);
    expect(checkRegistration(loaded).covered).toBeGreaterThan(0);
  });

  it('covers leases or events only where a hook names them; a wildcard hook does not', async () => {
    const loaded = await load({
      'gw.yaml':
        GATEWAY +
        hookYaml('Validating', 'all', 'Fail', EVERYTHING) +
        hookYaml(
          'Validating',
          'events',
          'Fail',
          `[{ operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [events] }]`,
        ) +
        hookYaml(
          'Validating',
          'leases',
          'Ignore',
          `[{ operations: [UPDATE], apiGroups: ["*"], apiVersions: ["*"], resources: ["leases/*"] }]`,
        ),
    });
    const [, v] = buildRegistrations({ configuration: loaded, urlHost: '127.0.0.1' }) as [Doc, Doc];
    const conditions = (i: number) =>
      ((v.webhooks[i]!['matchConditions'] ?? []) as { name: string }[]).map((c) => c.name);
    expect(conditions(0)).toEqual(['hookgate.dev/not-leases', 'hookgate.dev/not-events']);
    expect(conditions(1)).toEqual([]);
    checkRegistration(loaded);
  });

  it('exempts the namespaces the configuration names, and covers registration.reserve with a 30 s timeout', async () => {
    const loaded = await load({
      'gw.yaml':
        `${GATEWAY}registration:\n  exemptNamespaces: [team-a]\n  reserve:\n` +
        `    - { type: Validating, failurePolicy: Fail, rules: [{ operations: [DELETE], apiGroups: [apps], apiVersions: [v1], resources: [deployments] }] }\n` +
        hookYaml('Validating', 'pods', 'Fail', PODS, 4),
    });
    const [m, v] = buildRegistrations({ configuration: loaded, urlHost: 'localhost' }) as [Doc, Doc];
    expect(m.webhooks).toEqual([]);
    expect(v.webhooks).toEqual([
      expect.objectContaining({
        timeoutSeconds: 30,
        namespaceSelector: {
          matchExpressions: [
            { key: 'runlevel', operator: 'NotIn', values: ['0', '1'] },
            { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['team-a'] },
          ],
        },
      }),
    ]);
    checkRegistration(loaded);
  });

  it('brackets an IPv6 host; plain http when TLS is disabled', async () => {
    const loaded = await load({
      'gw.yaml':
        `${GATEWAY}admission: { port: 8443, tls: { disabled: true } }\n`.replace('admission: { port: 8443 }\n', '') +
        hookYaml('Mutating', 'a', 'Fail', PODS),
    });
    const [m] = buildRegistrations({ configuration: loaded, urlHost: '::1' }) as [Doc, Doc];
    expect(m.webhooks[0]).toMatchObject({ clientConfig: { url: 'http://[::1]:8443/mutate/fail' } });
    expect(m.webhooks[0]!['clientConfig']).not.toHaveProperty('caBundle');
  });
});
