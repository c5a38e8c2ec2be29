/**
 * Exact coverage between sets of webhook rules (k8s-semantics §4), by enumerating request shapes.
 *
 * Every rule predicate compares a request field with the values a rule lists or with `*`, so two
 * values that no rule lists behave alike: one stand-in per dimension represents all of them.
 * Enumerating the values the rules list, plus that stand-in, plus the values scope treats specially
 * (the core v1 `namespaces` resource, an empty namespace) gives a finite set of request shapes on
 * which "every request r matches is matched by S" can be decided exactly, with the matcher itself.
 */
import { matchesRule, splitResourceEntry, type RuleAttributes } from '../match/index.js';
import type { Operation } from '../types/review.js';
import type { RuleWithOperations } from '../types/webhook-configuration.js';

type Rule = Readonly<RuleWithOperations>;

/** A value no rule can list (rule values are validated names; NUL is not allowed in any of them). */
const OTHER = '\u0000other';
const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

interface Universe {
  readonly groups: readonly string[];
  readonly versions: readonly string[];
  readonly resources: readonly string[];
  readonly subResources: readonly string[];
}

function universeOf(rules: readonly Rule[], extra: ExtraValues): Universe {
  const groups = new Set(['', OTHER, ...(extra.groups ?? [])]);
  const versions = new Set(['v1', OTHER]);
  const resources = new Set(['namespaces', OTHER, ...(extra.resources ?? [])]);
  const subResources = new Set(['', OTHER]);
  for (const rule of rules) {
    for (const g of rule.apiGroups ?? []) if (g !== '*') groups.add(g);
    for (const v of rule.apiVersions ?? []) if (v !== '*') versions.add(v);
    for (const entry of rule.resources ?? []) {
      const [res, sub] = splitResourceEntry(entry);
      if (res !== '*') resources.add(res);
      if (sub !== '*') subResources.add(sub);
    }
  }
  return { groups: [...groups], versions: [...versions], resources: [...resources], subResources: [...subResources] };
}

const pick = (listed: readonly string[] | undefined, all: readonly string[]) =>
  (listed ?? []).includes('*') ? all : (listed ?? []).filter((v) => all.includes(v));

/** Every request shape of `universe` the rule matches (the rule's own values, `*` expanded). */
function* shapesOf(rule: Rule, universe: Universe): Generator<RuleAttributes> {
  const operations = pick(rule.operations, OPERATIONS) as Operation[];
  for (const operation of operations)
    for (const group of pick(rule.apiGroups, universe.groups))
      for (const version of pick(rule.apiVersions, universe.versions))
        for (const resource of universe.resources)
          for (const subResource of universe.subResources)
            for (const namespace of ['', 'ns']) {
              const shape: RuleAttributes = {
                operation,
                resource: { group, version, resource },
                subResource,
                namespace,
              };
              if (matchesRule(rule, shape)) yield shape;
            }
}

/**
 * What a caller decides about a shape before the rules are asked: 'skip' (not needed), 'missing'
 * (never covered, whatever the rules say), undefined (covered when a rule of `by` matches it).
 */
export type ShapeVerdict = 'skip' | 'missing' | undefined;

/** Values the caller's verdict reads, so that they are enumerated even when no rule lists them. */
export interface ExtraValues {
  readonly groups?: readonly string[];
  readonly resources?: readonly string[];
}

/** The request shapes `rule` matches that `by` does not cover; empty when it covers all of them. */
export function uncoveredShapes(
  rule: Rule,
  by: readonly Rule[],
  judge: (shape: RuleAttributes) => ShapeVerdict = () => undefined,
  extra: ExtraValues = {},
): RuleAttributes[] {
  const universe = universeOf([rule, ...by], extra);
  const missing: RuleAttributes[] = [];
  for (const shape of shapesOf(rule, universe)) {
    const verdict = judge(shape);
    if (verdict === 'skip') continue;
    if (verdict === 'missing' || !by.some((b) => matchesRule(b, shape))) missing.push(shape);
  }
  return missing;
}

/** `a` matches every request `b` matches (a dimension-wise check, enough to drop duplicates). */
export function subsumes(a: Rule, b: Rule): boolean {
  const within = (outer: readonly string[] | undefined, inner: readonly string[] | undefined) =>
    (outer ?? []).includes('*') || (inner ?? []).every((v) => (outer ?? []).includes(v));
  const scopeWithin = (a.scope ?? '*') === '*' || (a.scope ?? '*') === (b.scope ?? '*');
  const resourcesWithin = (b.resources ?? []).every((entry) => {
    const [res, sub] = splitResourceEntry(entry);
    return (a.resources ?? []).some((outer) => {
      const [ores, osub] = splitResourceEntry(outer);
      return (ores === '*' || ores === res) && (osub === '*' || osub === sub);
    });
  });
  return (
    scopeWithin &&
    within(a.operations, b.operations) &&
    within(a.apiGroups, b.apiGroups) &&
    within(a.apiVersions, b.apiVersions) &&
    resourcesWithin
  );
}

/** The rules as one list without a rule another one subsumes (the first of two equal ones stays). */
export function withoutSubsumed<R extends Rule>(rules: readonly R[]): R[] {
  const kept: R[] = [];
  rules.forEach((rule, i) => {
    const dominated = rules.some((other, j) => j !== i && subsumes(other, rule) && (!subsumes(rule, other) || j < i));
    if (!dominated) kept.push(rule);
  });
  return kept;
}
