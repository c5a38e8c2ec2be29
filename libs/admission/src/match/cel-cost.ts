/**
 * A runtime bound for CEL evaluation. cel-go stops an expression once its actual cost passes the
 * apiserver's per-call limit (1,000,000, "roughly 0.1 second"); cel-js has no cost accounting, so a
 * condition such as three nested comprehensions over a 400-element list ran for seconds and held
 * its worker. Hookgate counts comprehension iterations instead, the one thing whose count the
 * object can make unbounded, against the same limit, and fails the evaluation with cel-go's text.
 *
 * cel-js keeps its iteration scopes (OverlayContext) internal; the two-variable comprehension
 * macros (cel-comprehensions.ts) see one when they are type-checked, and hand it here so the
 * shared prototype's setIterValue is metered for every comprehension, built-in ones included.
 */

/** cel-go's per-call cost limit (apiserver celconfig.PerCallLimit), counted here in iterations. */
export const ITERATION_LIMIT = 1_000_000;

export const COST_LIMIT_MESSAGE = 'operation cancelled: actual cost limit exceeded';

export class CelCostLimitError extends Error {
  constructor() {
    super(COST_LIMIT_MESSAGE);
  }
}

interface IterationScope {
  setIterValue(value: unknown, evaluator: unknown): unknown;
}

/** Iterations left in the evaluation running now; unlimited outside withIterationLimit. */
let remaining = Number.POSITIVE_INFINITY;
const metered = new WeakSet<object>();

/** Meter the iteration scopes of cel-js (idempotent; called with any iteration scope). */
export function meterIterationScopes(scope: IterationScope): void {
  const prototype = Object.getPrototypeOf(scope) as IterationScope | null;
  if (prototype === null || metered.has(prototype) || typeof prototype.setIterValue !== 'function') return;
  metered.add(prototype);
  const setIterValue = prototype.setIterValue;
  prototype.setIterValue = function meteredSetIterValue(this: IterationScope, value: unknown, evaluator: unknown) {
    remaining -= 1;
    if (remaining < 0) throw new CelCostLimitError();
    return setIterValue.call(this, value, evaluator);
  };
}

/**
 * Runs one evaluation under the limit. Once over it, the result is the cost error whatever the
 * expression made of it: cel-go halts, so `||` or a quantifier cannot absorb it.
 */
export function withIterationLimit<T>(limit: number, evaluate: () => T): T {
  const saved = remaining;
  remaining = limit;
  try {
    const result = evaluate();
    if (remaining < 0) throw new CelCostLimitError();
    return result;
  } catch (error) {
    if (remaining < 0) throw new CelCostLimitError();
    throw error;
  } finally {
    remaining = saved;
  }
}
