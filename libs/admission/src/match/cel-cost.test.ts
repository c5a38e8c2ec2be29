import { describe, expect, it } from 'vitest';
import { buildCelActivation, compileMatchCondition } from './match-conditions.js';
import { podAdmissionRequest } from '../testing/sample-requests.js';

/** A Pod whose spec carries a list of n integers, for comprehensions to range over. */
function activationWithItems(n: number) {
  const items = Array.from({ length: n }, (_, i) => i);
  return buildCelActivation(podAdmissionRequest({ object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { items } } }));
}

const evaluate = (expression: string, n: number) => compileMatchCondition({ name: 'c', expression }).evaluate(activationWithItems(n));
const LIMIT_ERROR = "resulted in error: operation cancelled: actual cost limit exceeded";

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
    const result = evaluate('object.spec.items.all(i, x, object.spec.items.all(j, y, object.spec.items.all(k, z, x + y + z >= 0)))', 120);
    expect(!result.ok && result.error).toContain(LIMIT_ERROR);
  });

  it('gives every evaluation its own budget', () => {
    const heavy = compileMatchCondition({ name: 'c', expression: nested });
    const activation = activationWithItems(90); // 737,280 iterations, under the limit
    for (let i = 0; i < 3; i++) expect(heavy.evaluate(activation)).toEqual({ ok: true, value: true });
  });
});
