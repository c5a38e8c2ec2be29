/**
 * shouldCallHook (k8s-semantics §3), in the apiserver's order and error precedence:
 *   1. namespaceSelector   no match, no error → skip
 *   2. objectSelector      no match, no error → skip
 *   3. rules               no rule matches → skip (selector errors are dropped for such hooks)
 *   4. namespaceSelector error, then objectSelector error → reject (regardless of failurePolicy)
 *   5. matchConditions     false → skip; errors → failurePolicy (Fail: 403 reject, Ignore: skip)
 *   6. call
 * Synchronous unless the namespace lookup returns a Promise.
 *
 * matchPolicy Equivalent: Hookgate cannot convert objects between API versions (§8, §22), so every
 * hook is matched against the request's own GVR only, as with Exact. Register Hookgate itself with
 * `matchPolicy: Exact` and `*`/`*`/`*\/*` rules so requests arrive in their original version.
 */
import type { NamespaceLookup } from '../types/namespace-lookup.js';
import type { CelActivation, Hook } from '../types/hook.js';
import type { AdmissionRequest, Status } from '../types/review.js';
import { forbiddenStatus } from '../errors/status.js';
import { buildCelActivation, evaluateMatchConditions } from './match-conditions.js';
import { matchNamespaceSelector } from './namespace-selector.js';
import { matchObjectSelector } from './object-selector.js';
import { findMatchingRule } from './rules.js';
import type { SelectorResult } from './selector-result.js';

/** How a hook's matchConditions went, when it has any: erroring expressions and evaluation time (metrics). */
export interface ConditionsEvaluated {
  readonly errors: number;
  readonly durationMs: number;
}

/** The skip reason of a hook whose matchConditions errored under failurePolicy Ignore. */
export const CONDITION_ERRORS_IGNORED = 'matchConditions:ignored-errors';
/** The reject reason of a hook whose matchConditions errored under failurePolicy Fail. */
export const CONDITIONS_FAILED = 'matchConditions';

export type ShouldCall =
  | { readonly kind: 'call'; readonly conditions?: ConditionsEvaluated }
  /**
   * reason: 'namespaceSelector' | 'objectSelector' | 'rules' | 'matchCondition:<name>' |
   * 'matchConditions:ignored-errors'. conditions: how the matchConditions went (metrics).
   */
  | { readonly kind: 'skip'; readonly reason: string; readonly conditions?: ConditionsEvaluated }
  /** reason: 'namespaceSelector' | 'objectSelector' | 'matchConditions'. */
  | {
      readonly kind: 'reject';
      readonly status: Status;
      readonly reason: string;
      readonly conditions?: ConditionsEvaluated;
    };

const CALL: ShouldCall = Object.freeze({ kind: 'call' });
const skip = (reason: string): ShouldCall => ({ kind: 'skip', reason });
const SKIP_NAMESPACE = Object.freeze(skip('namespaceSelector'));
const SKIP_OBJECT = Object.freeze(skip('objectSelector'));
const SKIP_RULES = Object.freeze(skip('rules'));

const activations = new WeakMap<AdmissionRequest, CelActivation>();

/** One activation per request (and per object state), shared by every hook's conditions. */
function activationFor(request: AdmissionRequest): CelActivation {
  const cached = activations.get(request);
  if (cached && cached.object === (request.object ?? null) && cached.oldObject === (request.oldObject ?? null)) {
    return cached;
  }
  const activation = buildCelActivation(request);
  activations.set(request, activation);
  return activation;
}

function checkMatchConditions(hook: Hook, request: AdmissionRequest, now: (() => number) | undefined): ShouldCall {
  if (hook.matchConditions.length === 0) return CALL;
  const started = now?.() ?? 0;
  const result = evaluateMatchConditions(hook.matchConditions, activationFor(request), hook.failurePolicy, now);
  const conditions: ConditionsEvaluated = {
    errors: result.kind === 'match' ? 0 : result.errors.length,
    durationMs: now === undefined ? 0 : Math.max(0, now() - started),
  };
  switch (result.kind) {
    case 'match':
      return { kind: 'call', conditions };
    case 'skip':
      return {
        kind: 'skip',
        reason: result.condition !== undefined ? `matchCondition:${result.condition}` : CONDITION_ERRORS_IGNORED,
        conditions,
      };
    case 'error': {
      const resource = { group: request.resource.group, resource: request.resource.resource };
      const status = forbiddenStatus(resource, request.name ?? '', result.message);
      return { kind: 'reject', status, reason: CONDITIONS_FAILED, conditions };
    }
  }
}

function afterNamespace(
  hook: Hook,
  request: AdmissionRequest,
  ns: SelectorResult,
  now: (() => number) | undefined,
): ShouldCall {
  if (!ns.matches && ns.error === undefined) return SKIP_NAMESPACE;
  const obj = matchObjectSelector(hook.objectSelector, request);
  if (!obj.matches && obj.error === undefined) return SKIP_OBJECT;
  if (findMatchingRule(hook.rules, request) < 0) return SKIP_RULES;
  if (!ns.matches && ns.error !== undefined) return { kind: 'reject', status: ns.error, reason: 'namespaceSelector' };
  if (!obj.matches && obj.error !== undefined) return { kind: 'reject', status: obj.error, reason: 'objectSelector' };
  return checkMatchConditions(hook, request, now);
}

/** `now` (the chain's clock) times the matchConditions' evaluation. */
export function shouldCallHook(
  hook: Hook,
  request: AdmissionRequest,
  namespaces: NamespaceLookup,
  now?: () => number,
): ShouldCall | Promise<ShouldCall> {
  const ns = matchNamespaceSelector(hook.namespaceSelector, request, namespaces);
  if (ns instanceof Promise) return ns.then((result) => afterNamespace(hook, request, result, now));
  return afterNamespace(hook, request, ns, now);
}
