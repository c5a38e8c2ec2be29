/**
 * Resources the gateway's own registration never covers unless a hook names them: node heartbeats
 * and leader election (leases) and events are written constantly by the control plane itself, so a
 * gateway that is down must never stand in their way (the bootstrapping seed).
 */
import { splitResourceEntry } from '../match/index.js';
import type { RuleWithOperations } from '../types/webhook-configuration.js';

export interface ProtectedResource {
  readonly group: string;
  readonly resource: string;
  /** The registration's matchCondition name when it is subtracted (a CEL qualified name). */
  readonly conditionName: string;
}

export const PROTECTED_RESOURCES: readonly ProtectedResource[] = Object.freeze([
  { group: 'coordination.k8s.io', resource: 'leases', conditionName: 'hookgate.dev/not-leases' },
  { group: '', resource: 'events', conditionName: 'hookgate.dev/not-core-events' },
  { group: 'events.k8s.io', resource: 'events', conditionName: 'hookgate.dev/not-events' },
]);

const hasGroup = (rule: Readonly<RuleWithOperations>, group: string) =>
  (rule.apiGroups ?? []).some((g) => g === '*' || g === group);

/**
 * The rule names the resource: one of its resource entries is the resource itself (`leases`,
 * `leases/status`, `leases/*`) in a group it covers. `*`, `*\/*` or `*\/status` do not name it.
 */
export function namesResource(rule: Readonly<RuleWithOperations>, p: ProtectedResource): boolean {
  return hasGroup(rule, p.group) && (rule.resources ?? []).some((e) => splitResourceEntry(e)[0] === p.resource);
}

/** The rule can match some request for the resource (or one of its subresources). */
export function reachesResource(rule: Readonly<RuleWithOperations>, p: ProtectedResource): boolean {
  if (!hasGroup(rule, p.group) || (rule.operations ?? []).length === 0 || (rule.apiVersions ?? []).length === 0)
    return false;
  return (rule.resources ?? []).some((e) => {
    const res = splitResourceEntry(e)[0];
    return res === '*' || res === p.resource;
  });
}

/** The CEL matchCondition that keeps the resource's requests inside the apiserver (reads only fields that are always set). */
export function exclusionCondition(p: ProtectedResource): { name: string; expression: string } {
  return {
    name: p.conditionName,
    expression: `!(request.resource.group == '${p.group}' && request.resource.resource == '${p.resource}')`,
  };
}
