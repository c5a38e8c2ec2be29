/**
 * Runtime bounds for CEL evaluation. cel-go stops an expression once its actual cost passes the
 * per-call limit (1,000,000, "roughly 0.1 second"), and a webhook's matchConditions together once
 * they pass RuntimeCELCostBudgetMatchConditions (2,500,000). cel-js has no cost accounting, so
 * Hookgate counts comprehension iterations, the one thing whose count an object can make
 * unbounded, against the same numbers. Work inside one iteration is not counted (`x in list` per
 * element is quadratic), so a clock check every few iterations backs the counts up: an evaluation
 * that runs past its time is cut with the same error.
 *
 * cel-js keeps its iteration scopes (OverlayContext) internal; the two-variable comprehension
 * macros (cel-comprehensions.ts) see one when they are type-checked, and hand it here so the
 * shared prototype's setIterValue is metered for every comprehension, built-in ones included.
 */
import type { EvaluationBudget } from '../types/evaluation-budget.js';

/** cel-go's per-call cost limit (apiserver celconfig.PerCallLimit), counted here in iterations. */
const PER_CALL_ITERATIONS = 1_000_000;
/** celconfig.RuntimeCELCostBudgetMatchConditions: one webhook's conditions together. */
const MATCH_CONDITIONS_ITERATIONS = 2_500_000;
/** Wall-clock backstop for one webhook's conditions, far above what the iteration limits allow. */
const MATCH_CONDITIONS_TIME_MS = 1000;

const COST_LIMIT_MESSAGE = 'operation cancelled: actual cost limit exceeded';
/** The error cel.Filter.ForInput returns once the webhook's budget is spent. */
export const BUDGET_EXHAUSTED_MESSAGE =
  'validation failed due to running out of cost budget, no further validation rules will be run';

class CelCostLimitError extends Error {
  constructor() {
    super(COST_LIMIT_MESSAGE);
  }
}

interface IterationScope {
  setIterValue(value: unknown, evaluator: unknown): unknown;
}

/** How often (in iterations) the clock is read. */
const CLOCK_EVERY = 64;

/** The evaluation running now; none outside runMetered. */
let meter: { remaining: number; timedOut: boolean; readonly budget: EvaluationBudget } | undefined;
const metered = new WeakSet<object>();

/** Meter the iteration scopes of cel-js (idempotent; called with any iteration scope). */
export function meterIterationScopes(scope: IterationScope): void {
  const prototype = Object.getPrototypeOf(scope) as IterationScope | null;
  if (prototype === null || metered.has(prototype) || typeof prototype.setIterValue !== 'function') return;
  metered.add(prototype);
  const setIterValue = prototype.setIterValue;
  prototype.setIterValue = function meteredSetIterValue(this: IterationScope, value: unknown, evaluator: unknown) {
    const m = meter;
    if (m !== undefined) {
      m.remaining -= 1;
      if (m.remaining < 0) throw new CelCostLimitError();
      if (m.budget.now !== undefined && m.remaining % CLOCK_EVERY === 0 && pastDeadline(m.budget, m.budget.now())) {
        m.timedOut = true;
        m.remaining = -1;
        throw new CelCostLimitError();
      }
    }
    return setIterValue.call(this, value, evaluator);
  };
}

export function matchConditionsBudget(now?: () => number): EvaluationBudget {
  return now === undefined
    ? { remaining: MATCH_CONDITIONS_ITERATIONS }
    : { remaining: MATCH_CONDITIONS_ITERATIONS, now };
}

function pastDeadline(budget: EvaluationBudget, t: number): boolean {
  budget.deadline ??= t + MATCH_CONDITIONS_TIME_MS;
  return t > budget.deadline;
}

/** `limited`: 'call' when this expression passed the per-call limit, 'budget' when the webhook's budget (or time) ran out. */
export type MeteredResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown; readonly limited?: 'call' | 'budget' };

/**
 * Runs one evaluation under min(per-call limit, what the budget has left) and charges the budget.
 * Once over a limit the result is the limit's error whatever the expression made of it: cel-go
 * halts, so `||` or a quantifier cannot absorb it.
 */
export function runMetered<T>(budget: EvaluationBudget, evaluate: () => T): MeteredResult<T> {
  if (budget.remaining <= 0) return { ok: false, error: new CelCostLimitError(), limited: 'budget' };
  const limit = Math.min(PER_CALL_ITERATIONS, budget.remaining);
  const saved = meter;
  const current = { remaining: limit, timedOut: false, budget };
  meter = current;
  let value: T | undefined;
  let error: unknown;
  let threw = false;
  try {
    value = evaluate();
  } catch (e) {
    threw = true;
    error = e;
  } finally {
    meter = saved;
  }
  const over = current.remaining < 0;
  budget.remaining -= over ? limit : limit - current.remaining;
  if (current.timedOut) budget.remaining = 0;
  if (over) {
    const limited = current.timedOut || limit < PER_CALL_ITERATIONS ? 'budget' : 'call';
    return { ok: false, error: new CelCostLimitError(), limited };
  }
  return threw ? { ok: false, error } : { ok: true, value: value as T };
}
