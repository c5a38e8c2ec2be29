/**
 * Webhook matchConditions (k8s-semantics §9): compiled once per hook, evaluated per request.
 * All conditions are evaluated; a `false` skips the hook even when others errored; otherwise
 * errors follow the effective failurePolicy (Fail rejects, Ignore skips).
 */
import type { MatchCondition, FailurePolicyType } from '../types/webhook-configuration.js';
import type { CelActivation, CompiledMatchCondition } from '../types/hook.js';
import type { AdmissionRequest } from '../types/review.js';
import type { ParseResult } from '@marcbachmann/cel-js';
import { compileBoolExpression, celErrorText } from './cel.js';
import { AUTHORIZER_VALUE } from './cel-authorizer.js';
import { BUDGET_EXHAUSTED_MESSAGE, matchConditionsBudget, runMetered } from './cel-cost.js';
import type { EvaluationBudget } from '../types/evaluation-budget.js';
import { formatAggregate } from '../errors/status.js';
import { buildCelRequest, toCelRequest, toCelValue } from './cel-values.js';

type EvalResult = ReturnType<CompiledMatchCondition['evaluate']>;

const celRequests = new WeakMap<object, Record<string, unknown>>();
const celContexts = new WeakMap<CelActivation, Record<string, unknown>>();

/** The cel-js context of an activation, built once per activation and shared by all expressions. */
function celContext(activation: CelActivation): Record<string, unknown> {
  let context = celContexts.get(activation);
  if (context !== undefined) return context;
  let request = celRequests.get(activation.request);
  if (request === undefined) {
    request = toCelRequest(activation.request);
    celRequests.set(activation.request, request);
  }
  context = {
    object: toCelValue(activation.object),
    oldObject: toCelValue(activation.oldObject),
    request,
    namespaceObject: toCelValue(activation.namespaceObject),
    authorizer: AUTHORIZER_VALUE,
  };
  celContexts.set(activation, context);
  return context;
}

/** The activation for one request: namespaceObject is always null for webhooks. */
export function buildCelActivation(request: AdmissionRequest): CelActivation {
  return {
    object: request.object ?? null,
    oldObject: request.oldObject ?? null,
    request: buildCelRequest(request),
    namespaceObject: null,
  };
}

function runProgram(
  program: ParseResult,
  expression: string,
  activation: CelActivation,
  budget: EvaluationBudget,
): EvalResult {
  const context = celContext(activation);
  const run = runMetered(budget, () => program(context) as unknown);
  if (run.ok) {
    if (typeof run.value === 'boolean') return { ok: true, value: run.value };
    return {
      ok: false,
      error: `expression '${expression}' resulted in error: expected a bool result, got ${typeof run.value}`,
    };
  }
  if (run.limited === 'budget') return { ok: false, error: BUDGET_EXHAUSTED_MESSAGE, budgetExhausted: true };
  return { ok: false, error: `expression '${expression}' resulted in error: ${celErrorText(run.error)}` };
}

/** A condition that does not compile (only possible without validation) errors on every evaluation. */
export function compileMatchCondition(condition: Required<MatchCondition>): CompiledMatchCondition {
  const { name, expression } = condition;
  const compiled = compileBoolExpression(expression);
  const evaluate = compiled.ok
    ? (activation: CelActivation, budget?: EvaluationBudget): EvalResult =>
        runProgram(compiled.program, expression, activation, budget ?? matchConditionsBudget())
    : (): EvalResult => ({ ok: false, error: `compilation error: ${compiled.error}` });
  return Object.freeze({ name, expression, evaluate });
}

export function compileMatchConditions(conditions: readonly Required<MatchCondition>[]): CompiledMatchCondition[] {
  return conditions.map(compileMatchCondition);
}

export type MatchConditionsResult =
  | { readonly kind: 'match' }
  /** `condition` names the first false condition; absent when skipped because of errors under Ignore. */
  | { readonly kind: 'skip'; readonly condition?: string; readonly errors: readonly string[] }
  /** failurePolicy Fail and at least one error, no false: `message` is the aggregated error text. */
  | { readonly kind: 'error'; readonly message: string; readonly errors: readonly string[] };

const MATCH: MatchConditionsResult = Object.freeze({ kind: 'match' });

/**
 * Like the apiserver: cel.Filter.ForInput evaluates every condition first (a budget running out
 * anywhere fails the set as a whole, even after a false condition); the matcher then walks the
 * results in order and stops at the first false (errors before it are still reported, for
 * metrics), else decides on the errors by failurePolicy (missing means Fail).
 */
export function evaluateMatchConditions(
  conditions: readonly CompiledMatchCondition[],
  activation: CelActivation,
  failurePolicy: FailurePolicyType | undefined,
  now?: () => number,
): MatchConditionsResult {
  // One budget for all of the webhook's conditions, as cel.Filter.ForInput gives them.
  const budget = matchConditionsBudget(now);
  const results: EvalResult[] = [];
  for (const condition of conditions) {
    const result = condition.evaluate(activation, budget);
    if (!result.ok && result.budgetExhausted === true) {
      // Not an evaluation error (no metric upstream): the set fails as a whole, by failurePolicy.
      return failurePolicy === 'Ignore'
        ? { kind: 'skip', errors: [] }
        : { kind: 'error', message: BUDGET_EXHAUSTED_MESSAGE, errors: [] };
    }
    results.push(result);
  }
  const errors: string[] = [];
  for (let i = 0; i < results.length; i++) {
    const result = results[i]!;
    if (!result.ok) errors.push(result.error);
    else if (!result.value) return { kind: 'skip', condition: conditions[i]!.name, errors };
  }
  if (errors.length === 0) return MATCH;
  if (failurePolicy === 'Ignore') return { kind: 'skip', errors };
  return { kind: 'error', message: formatAggregate(errors), errors };
}
