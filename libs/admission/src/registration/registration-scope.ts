/**
 * What the gateway's own registration must cover for one phase and one failure class: the union
 * of its hooks' rules (plus rules reserved for hooks registered at run time), minus the protected
 * resources no hook names. The apiserver then sends the gateway only requests a hook can match.
 *
 * The union is the hooks' rules side by side (a webhook matches when any rule matches, so a list
 * of rules is an exact union), without the ones another rule already covers. Protected resources
 * reached only through wildcards are subtracted with matchConditions: rules cannot say "every
 * group but one", and the set of groups and resources is open (CRDs), so enumeration could not.
 */
import type { RuleAttributes } from '../match/index.js';
import type { FailurePolicyType, RuleWithOperations } from '../types/webhook-configuration.js';
import {
  PROTECTED_RESOURCES,
  exclusionCondition,
  namesResource,
  reachesResource,
  type ProtectedResource,
} from './protected-resources.js';
import { uncoveredShapes, withoutSubsumed } from './rule-coverage.js';

export type RegistrationRule = Required<RuleWithOperations>;

export interface RegistrationScope {
  readonly failurePolicy: FailurePolicyType;
  /** The union of the rules, scope made explicit. Empty: nothing to register for this class. */
  readonly rules: readonly RegistrationRule[];
  /** Protected resources the rules reach only through wildcards: subtracted by matchConditions. */
  readonly excluded: readonly ProtectedResource[];
}

/** The hooks of one phase and one failure class (their rules are all that matters here). */
export interface ScopedHook {
  readonly rules: readonly RuleWithOperations[];
}

export function registrationScope(
  failurePolicy: FailurePolicyType,
  hooks: readonly ScopedHook[],
  reserved: readonly RuleWithOperations[] = [],
): RegistrationScope {
  const all = [...hooks.flatMap((h) => h.rules), ...reserved].map(explicit);
  const rules = withoutSubsumed(all);
  // Named by any rule, also one the union drops because a wildcard rule covers it.
  const excluded = PROTECTED_RESOURCES.filter(
    (p) => rules.some((r) => reachesResource(r, p)) && !all.some((r) => namesResource(r, p)),
  );
  return { failurePolicy, rules, excluded };
}

/** The registration's matchConditions: one per subtracted resource. */
export function registrationConditions(scope: RegistrationScope): { name: string; expression: string }[] {
  return scope.excluded.map(exclusionCondition);
}

const excludedBy = (scope: RegistrationScope, shape: RuleAttributes) =>
  scope.excluded.find((p) => p.group === shape.resource.group && p.resource === shape.resource.resource);

/**
 * The requests `rule` can match that a registration of `scope` does not send to the gateway, as
 * readable shapes; empty when the registration covers the rule. A protected resource the scope
 * subtracts counts as outside only when the rule names it: through a wildcard it is left out for
 * every hook alike.
 */
export function outsideRegistration(rule: RuleWithOperations, scope: RegistrationScope): RuleAttributes[] {
  const r = explicit(rule);
  return uncoveredShapes(
    r,
    scope.rules,
    (shape) => {
      const p = excludedBy(scope, shape);
      if (p === undefined) return undefined;
      return namesResource(r, p) ? 'missing' : 'skip';
    },
    { groups: PROTECTED_RESOURCES.map((p) => p.group), resources: PROTECTED_RESOURCES.map((p) => p.resource) },
  );
}

/** `CREATE apps/v1 deployments/scale (namespaced)`; the stand-in for unnamed values reads `<other>`. */
export function describeShape(shape: RuleAttributes): string {
  const show = (v: string) => (v.startsWith('\u0000') ? '<other>' : v);
  const { group, version, resource } = shape.resource;
  const gv = group === '' ? show(version) : `${show(group)}/${show(version)}`;
  const sub = shape.subResource ? `/${show(shape.subResource)}` : '';
  return `${shape.operation} ${gv} ${show(resource)}${sub} (${shape.namespace ? 'namespaced' : 'cluster-scoped'})`;
}

function explicit(rule: RuleWithOperations): RegistrationRule {
  return {
    operations: [...(rule.operations ?? [])],
    apiGroups: [...(rule.apiGroups ?? [])],
    apiVersions: [...(rule.apiVersions ?? [])],
    resources: [...(rule.resources ?? [])],
    scope: rule.scope ?? '*',
  };
}
