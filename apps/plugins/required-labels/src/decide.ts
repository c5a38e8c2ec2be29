/**
 * The required-labels decision, pure: which rules apply to the object (kind, namespace), and which
 * of their labels are missing or have a value that is not allowed. Every problem of every rule is
 * named in one denial, so a user fixes the manifest in one round trip.
 */
import type { JsonValue, LabelSelector } from '@hookgate/admission';
import { matchesSelector } from './label-selector.js';

/** `group/Kind`, either part `*`; the core group is ''. */
export interface KindPattern {
  group: string;
  kind: string;
}

export interface LabelRequirement {
  key: string;
  /** Allowed values; absent means any value. */
  values?: string[];
  /** The value must match this whole-value pattern (source as written in the configuration). */
  pattern?: { source: string; regex: RegExp };
}

export interface LabelRule {
  name: string;
  kinds: KindPattern[];
  /** Over the static namespace labels; absent means every namespace. */
  namespaceSelector?: LabelSelector;
  /** Namespace names; absent means every namespace. A rule with names never applies to cluster-scoped objects. */
  namespaces?: string[];
  labels: LabelRequirement[];
}

export interface RequiredLabelsPolicy {
  rules: LabelRule[];
  /** Static copy of namespace labels, by namespace name (the plugin cannot read Namespace objects). */
  namespaceLabels: Record<string, Record<string, string>>;
}

export interface LabelsRequest {
  operation: string;
  kind: { group: string; kind: string };
  resource: { resource: string };
  subResource?: string;
  namespace?: string;
  name?: string;
  object?: JsonValue;
}

export type LabelProblem =
  | { rule: string; key: string; problem: 'missing'; requirement: LabelRequirement }
  | { rule: string; key: string; problem: 'invalid'; value: string; requirement: LabelRequirement };

export type LabelsDecision =
  { allowed: true } | { allowed: false; code: 403; reason: 'Forbidden'; message: string; problems: LabelProblem[] };

/** Every denial uses 403 Forbidden: the object is well-formed, the policy refuses it. */
export const DENIAL_CODE = 403;

export function decideRequiredLabels(request: LabelsRequest, policy: RequiredLabelsPolicy): LabelsDecision {
  if (!isCheckedRequest(request)) return { allowed: true };
  const metadata = objectMetadata(request.object);
  // An object being deleted only waits for its finalizers: refusing that update would block deletion.
  if (metadata.deletionTimestamp !== undefined) return { allowed: true };

  const namespace = namespaceOf(request, policy, metadata.labels);
  const problems = policy.rules
    .filter((rule) => rule.kinds.some((k) => matchesKind(k, request.kind)) && matchesNamespace(rule, namespace))
    .flatMap((rule) => rule.labels.flatMap((requirement) => checkLabel(rule.name, requirement, metadata.labels)));
  if (problems.length === 0) return { allowed: true };
  return {
    allowed: false,
    code: DENIAL_CODE,
    reason: 'Forbidden',
    message: describeDenial(request, metadata, problems),
    problems,
  };
}

/** CREATE and UPDATE of the main resource; DELETE has no new object and subresources (status, scale) do not carry label changes. */
function isCheckedRequest(request: LabelsRequest): boolean {
  return (
    (request.operation === 'CREATE' || request.operation === 'UPDATE') &&
    !request.subResource &&
    request.object !== undefined
  );
}

export function matchesKind(pattern: KindPattern, kind: { group: string; kind: string }): boolean {
  return (
    (pattern.group === '*' || pattern.group === kind.group) && (pattern.kind === '*' || pattern.kind === kind.kind)
  );
}

type NamespaceView = { kind: 'cluster-scoped' } | { kind: 'namespace'; name: string; labels: Record<string, string> };

/**
 * The labels a namespaceSelector sees, as the apiserver computes them: a Namespace object is matched
 * on its own labels; other namespaced objects on the static labels of their namespace (plus the
 * `kubernetes.io/metadata.name` label the apiserver always sets); cluster-scoped objects always match.
 */
function namespaceOf(
  request: LabelsRequest,
  policy: RequiredLabelsPolicy,
  objectLabels: Record<string, string>,
): NamespaceView {
  if (request.resource.resource === 'namespaces' && request.kind.group === '') {
    const name = request.name ?? '';
    return { kind: 'namespace', name, labels: { ...objectLabels, 'kubernetes.io/metadata.name': name } };
  }
  const name = request.namespace ?? '';
  if (name === '') return { kind: 'cluster-scoped' };
  return { kind: 'namespace', name, labels: { ...policy.namespaceLabels[name], 'kubernetes.io/metadata.name': name } };
}

function matchesNamespace(rule: LabelRule, namespace: NamespaceView): boolean {
  if (namespace.kind === 'cluster-scoped') return rule.namespaces === undefined;
  if (rule.namespaces !== undefined && !rule.namespaces.includes(namespace.name)) return false;
  return rule.namespaceSelector === undefined || matchesSelector(rule.namespaceSelector, namespace.labels);
}

function checkLabel(rule: string, requirement: LabelRequirement, labels: Record<string, string>): LabelProblem[] {
  // Own labels only: a required key such as `constructor` is not found on Object.prototype.
  const value = Object.hasOwn(labels, requirement.key) ? labels[requirement.key] : undefined;
  if (value === undefined) return [{ rule, key: requirement.key, problem: 'missing', requirement }];
  const allowedValue = requirement.values === undefined || requirement.values.includes(value);
  const matchesPattern = requirement.pattern === undefined || requirement.pattern.regex.test(value);
  if (allowedValue && matchesPattern) return [];
  return [{ rule, key: requirement.key, problem: 'invalid', value, requirement }];
}

function describeDenial(
  request: LabelsRequest,
  { name, generateName }: ObjectMetadata,
  problems: LabelProblem[],
): string {
  const objectName = name ?? (request.name || undefined) ?? (generateName ? `${generateName}<generated>` : '<unnamed>');
  const where = request.namespace ? `${request.namespace}/${objectName}` : objectName;
  const byRule = new Map<string, string[]>();
  for (const p of problems) {
    const text =
      p.problem === 'missing'
        ? `missing label ${quote(p.key)}${expectation(p.requirement)}`
        : `label ${quote(p.key)} has value ${quote(p.value)}${expectation(p.requirement)}`;
    byRule.set(p.rule, [...(byRule.get(p.rule) ?? []), text]);
  }
  const parts = [...byRule].map(([rule, texts]) => `rule ${quote(rule)}: ${texts.join('; ')}`);
  return `${request.kind.kind} ${quote(where)} does not carry the required labels: ${parts.join('; ')}`;
}

/** What the rule accepts, e.g. ` (allowed: "a", "b"; must match /[0-9]{4}/)`; empty for any value. */
function expectation(requirement: LabelRequirement): string {
  const parts: string[] = [];
  if (requirement.values !== undefined) parts.push(`allowed: ${requirement.values.map(quote).join(', ')}`);
  if (requirement.pattern !== undefined) parts.push(`must match /${requirement.pattern.source}/`);
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 61)}...` : text);
}

interface ObjectMetadata {
  name?: string;
  generateName?: string;
  labels: Record<string, string>;
  deletionTimestamp?: string;
}

function objectMetadata(object: JsonValue | undefined): ObjectMetadata {
  const metadata = isRecord(object) && isRecord(object['metadata']) ? object['metadata'] : {};
  // fromEntries defines own members: a label named `__proto__` stays a label, never a prototype.
  const labels: Record<string, string> = isRecord(metadata['labels'])
    ? Object.fromEntries(
        Object.entries(metadata['labels']).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    : {};
  return {
    ...(typeof metadata['name'] === 'string' && metadata['name'] !== '' ? { name: metadata['name'] } : {}),
    ...(typeof metadata['generateName'] === 'string' && metadata['generateName'] !== ''
      ? { generateName: metadata['generateName'] }
      : {}),
    labels,
    ...(typeof metadata['deletionTimestamp'] === 'string' ? { deletionTimestamp: metadata['deletionTimestamp'] } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
