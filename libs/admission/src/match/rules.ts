/**
 * Rule matching (k8s-semantics §4) and request exemptions (§2).
 * A rule matches when five tiny predicates all hold; every comparison is exact and case-sensitive.
 * Group, version and resource come from request.resource (the GVR), never from request.kind.
 */
import type { RuleWithOperations } from '../types/webhook-configuration.js';
import type { AdmissionRequest } from '../types/review.js';

/** The request fields rule matching reads. */
export type RuleAttributes = Pick<AdmissionRequest, 'operation' | 'resource' | 'subResource' | 'namespace'>;

type Rule = Readonly<RuleWithOperations>;

const containsOrWildcard = (items: readonly string[] | undefined, requested: string): boolean => {
  if (items === undefined) return false;
  for (const item of items) if (item === '*' || item === requested) return true;
  return false;
};

export function matchesOperation(rule: Rule, request: RuleAttributes): boolean {
  return containsOrWildcard(rule.operations, request.operation);
}

export function matchesGroup(rule: Rule, request: RuleAttributes): boolean {
  return containsOrWildcard(rule.apiGroups, request.resource.group);
}

export function matchesVersion(rule: Rule, request: RuleAttributes): boolean {
  return containsOrWildcard(rule.apiVersions, request.resource.version);
}

/** Splits a rule resource entry at the FIRST '/': `pods/status` → [pods, status]; `pods` → [pods, '']. */
export function splitResourceEntry(entry: string): readonly [resource: string, subResource: string] {
  const slash = entry.indexOf('/');
  return slash < 0 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)];
}

/** `*` = main resources only, `*\/*` = everything, `pods/*` = pods and all its subresources, `*\/status`. */
export function matchesResource(rule: Rule, request: RuleAttributes): boolean {
  const resource = request.resource.resource;
  const subResource = request.subResource ?? '';
  for (const entry of rule.resources ?? []) {
    const [res, sub] = splitResourceEntry(entry);
    if ((res === '*' || res === resource) && (sub === '*' || sub === subResource)) return true;
  }
  return false;
}

/** Namespace objects are cluster-scoped even though request.namespace carries their name on UPDATE/DELETE. */
export function isCoreNamespaceResource(request: Pick<AdmissionRequest, 'resource'>): boolean {
  const r = request.resource;
  return r.group === '' && r.version === 'v1' && r.resource === 'namespaces';
}

export function matchesScope(rule: Rule, request: RuleAttributes): boolean {
  const scope = rule.scope;
  if (scope === undefined || scope === '*') return true;
  const namespace = request.namespace ?? '';
  switch (scope) {
    case 'Namespaced':
      return !isCoreNamespaceResource(request) && namespace !== '';
    case 'Cluster':
      return isCoreNamespaceResource(request) || namespace === '';
    default:
      return false;
  }
}

export function matchesRule(rule: Rule, request: RuleAttributes): boolean {
  return (
    matchesScope(rule, request) &&
    matchesOperation(rule, request) &&
    matchesGroup(rule, request) &&
    matchesVersion(rule, request) &&
    matchesResource(rule, request)
  );
}

/** Index of the first matching rule, or -1 (the apiserver stops at the first match). */
export function findMatchingRule(rules: readonly Rule[], request: RuleAttributes): number {
  for (let i = 0; i < rules.length; i++) if (matchesRule(rules[i]!, request)) return i;
  return -1;
}

const ADMISSION_REGISTRATION_GROUP = 'admissionregistration.k8s.io';
const ADMISSION_CONFIGURATION_KINDS: ReadonlySet<string> = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

/** Checked on the request's KIND (any version) and only in admissionregistration.k8s.io. */
export function isExemptAdmissionConfiguration(request: Pick<AdmissionRequest, 'kind'>): boolean {
  return request.kind.group === ADMISSION_REGISTRATION_GROUP && ADMISSION_CONFIGURATION_KINDS.has(request.kind.kind);
}

// A Map, not an object literal: request groups are user input ("constructor" must not hit the prototype).
const VIRTUAL_AUTH_RESOURCES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['authentication.k8s.io', new Set(['tokenreviews', 'selfsubjectreviews'])],
  [
    'authorization.k8s.io',
    new Set([
      'subjectaccessreviews',
      'localsubjectaccessreviews',
      'selfsubjectaccessreviews',
      'selfsubjectrulesreviews',
    ]),
  ],
]);

/** Auth review virtual resources (ExcludeAdmissionWebhookVirtualResources): group + resource, any version. */
export function isVirtualAuthResource(request: Pick<AdmissionRequest, 'resource'>): boolean {
  return VIRTUAL_AUTH_RESOURCES.get(request.resource.group)?.has(request.resource.resource) ?? false;
}

/** True when no hook may see the request at all (§2); the request is then allowed unchanged. */
export function isExemptRequest(request: Pick<AdmissionRequest, 'kind' | 'resource'>): boolean {
  return isExemptAdmissionConfiguration(request) || isVirtualAuthResource(request);
}
