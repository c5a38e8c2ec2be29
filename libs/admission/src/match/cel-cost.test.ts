import { describe, expect, it } from 'vitest';
import { buildCelActivation, compileMatchCondition, evaluateMatchConditions } from './match-conditions.js';
import { BUDGET_EXHAUSTED_MESSAGE } from './cel-cost.js';
import { podAdmissionRequest } from '../testing/sample-requests.js';

/** A Pod whose spec carries a list of n integers, for comprehensions to range over. */
function activationWithItems(n: number) {
  const items = Array.from({ length: n }, (_, i) => i);
  return buildCelActivation(
    podAdmissionRequest({ object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { items } } }),
  );
}

const evaluate = (expression: string, n: number) =>
  compileMatchCondition({ name: 'c', expression }).evaluate(activationWithItems(n));
const LIMIT_ERROR = 'resulted in error: operation cancelled: actual cost limit exceeded';

describe('CEL iteration limit (cel-go per-call cost limit)', () => {
  const nested = 'object.spec.items.all(x, object.spec.items.all(y, object.spec.items.all(z, x + y + z >= 0)))';

  it('evaluates comprehensions under the limit', () => {
    expect(evaluate(nested, 50)).toEqual({ ok: true, value: true }); // 127,550 iterations
  });

  it('stops a built-in comprehension that runs past it, with cel-go text', () => {
    const result = evaluate(nested, 200); // 8 million iterations
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(LIMIT_ERROR);
  });

  it('cannot be absorbed by a logical operator', () => {
    const result = evaluate(`${nested} || true`, 200);
    expect(!result.ok && result.error).toContain(LIMIT_ERROR);
  });

  it('meters two-variable comprehensions too', () => {
    const result = evaluate(
      'object.spec.items.all(i, x, object.spec.items.all(j, y, object.spec.items.all(k, z, x + y + z >= 0)))',
      120,
    );
    expect(!result.ok && result.error).toContain(LIMIT_ERROR);
  });

  it('gives every evaluation its own budget', () => {
    const heavy = compileMatchCondition({ name: 'c', expression: nested });
    const activation = activationWithItems(90); // 737,280 iterations, under the limit
    for (let i = 0; i < 3; i++) expect(heavy.evaluate(activation)).toEqual({ ok: true, value: true });
  });

  // Each condition 90³ = 729,000 iterations: under the per-call limit, but four of them pass the
  // webhook's 2,500,000 together.
  const heavyConditions = ['a', 'b', 'c', 'd'].map((name) => compileMatchCondition({ name, expression: nested }));

  it('fails the webhook as a whole once its conditions together pass the budget (Fail)', () => {
    const result = evaluateMatchConditions(heavyConditions, activationWithItems(90), 'Fail');
    expect(result).toEqual({ kind: 'error', message: BUDGET_EXHAUSTED_MESSAGE, errors: [] });
  });

  it('skips the webhook when the budget runs out under Ignore', () => {
    expect(evaluateMatchConditions(heavyConditions, activationWithItems(90), 'Ignore')).toEqual({
      kind: 'skip',
      errors: [],
    });
  });

  it('a false condition before them does not spare the webhook: every condition is evaluated first', () => {
    // cel.Filter.ForInput runs all expressions before the matcher looks for a false one.
    const conditions = [compileMatchCondition({ name: 'never', expression: 'false' }), ...heavyConditions];
    expect(evaluateMatchConditions(conditions, activationWithItems(90), 'Fail')).toEqual({
      kind: 'error',
      message: BUDGET_EXHAUSTED_MESSAGE,
      errors: [],
    });
  });

  it('three of them fit the budget', () => {
    expect(evaluateMatchConditions(heavyConditions.slice(0, 3), activationWithItems(90), 'Fail')).toEqual({
      kind: 'match',
    });
  });

  it('cuts work the iteration count does not see once its time is up (injected clock)', () => {
    let t = 0;
    const clock = () => (t += 100); // every reading advances 100 ms: the 1 s allowance ends after 11 readings
    const quadratic = compileMatchCondition({
      name: 'q',
      expression: 'object.spec.items.all(x, x in object.spec.items)',
    });
    expect(evaluateMatchConditions([quadratic], activationWithItems(20_000), 'Fail', clock)).toEqual({
      kind: 'error',
      message: BUDGET_EXHAUSTED_MESSAGE,
      errors: [],
    });
  });
});
