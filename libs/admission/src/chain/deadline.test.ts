import { describe, expect, it } from 'vitest';
import { computeHookDeadline, computeRequestBudget, parseGoDuration } from './deadline.js';

describe('parseGoDuration (time.ParseDuration)', () => {
  it.each([
    { text: '10s', ms: 10_000 },
    { text: '1m0s', ms: 60_000 },
    { text: '1h2m3s', ms: 3_723_000 },
    { text: '500ms', ms: 500 },
    { text: '1.5s', ms: 1500 },
    { text: '.5s', ms: 500 },
    { text: '2us', ms: 0.002 },
    { text: '3µs', ms: 0.003 },
    { text: '100ns', ms: 0.0001 },
    { text: '0', ms: 0 },
    { text: '+5s', ms: 5000 },
    { text: '-5s', ms: -5000 },
  ])('$text → $ms ms', ({ text, ms }) => {
    const parsed = parseGoDuration(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value).toBeCloseTo(ms, 9);
  });

  it.each([
    { text: '', error: 'time: invalid duration ""' },
    { text: 'abc', error: 'time: invalid duration "abc"' },
    { text: '10', error: 'time: missing unit in duration "10"' },
    { text: '10x', error: 'time: unknown unit "x" in duration "10x"' },
    { text: '.s', error: 'time: invalid duration ".s"' },
    { text: '-', error: 'time: invalid duration "-"' },
    { text: '9999999999h', error: 'time: invalid duration "9999999999h"' },
  ])('$text is refused', ({ text, error }) => {
    expect(parseGoDuration(text)).toEqual({ ok: false, error });
  });
});

describe('computeRequestBudget', () => {
  it.each([
    { name: '10s: margin 10% = 1s', param: '10s', deadline: 9000, margin: 1000, source: 'query' },
    { name: '2s: margin at least 300 ms', param: '2s', deadline: 1700, margin: 300, source: 'query' },
    { name: '30s: margin 3s', param: '30s', deadline: 27_000, margin: 3000, source: 'query' },
    { name: '500ms: margin at most half', param: '500ms', deadline: 250, margin: 250, source: 'query' },
    { name: 'no timeout: the 10s default', param: undefined, deadline: 9000, margin: 1000, source: 'default' },
  ])('$name', ({ param, deadline, margin, source }) => {
    const budget = computeRequestBudget(0, param);
    expect(budget).toEqual({
      deadline,
      apiserverDeadline: deadline + margin,
      timeoutMs: deadline + margin,
      marginMs: margin,
      source,
    });
  });

  it('falls back to the default on a bad or non-positive timeout and says why', () => {
    expect(computeRequestBudget(100, 'soon')).toEqual({
      deadline: 9100,
      apiserverDeadline: 10_100,
      timeoutMs: 10_000,
      marginMs: 1000,
      source: 'default',
      problem: 'time: invalid duration "soon"',
    });
    expect(computeRequestBudget(0, '0s').problem).toBe('timeout "0s" is not positive');
  });

  it('takes the margin options', () => {
    expect(computeRequestBudget(0, '10s', { minMarginMs: 50, marginRatio: 0 }).deadline).toBe(9950);
    expect(computeRequestBudget(0, undefined, { defaultTimeoutMs: 4000, marginRatio: 0.25 }).deadline).toBe(3000);
  });
});

describe('computeHookDeadline', () => {
  it.each([
    { name: 'the hook timeout is shorter', now: 0, seconds: 5, end: 9000, deadline: 5000, timeoutSeconds: 5 },
    { name: 'the request budget is shorter', now: 0, seconds: 30, end: 9000, deadline: 9000, timeoutSeconds: 9 },
    { name: 'remaining time rounds up', now: 1, seconds: 30, end: 8000, deadline: 8000, timeoutSeconds: 8 },
    { name: 'a sliver left is one second', now: 8999, seconds: 30, end: 9000, deadline: 9000, timeoutSeconds: 1 },
    { name: 'nothing left', now: 9000, seconds: 30, end: 9000, deadline: 9000, timeoutSeconds: 0 },
    { name: 'past the budget', now: 9500, seconds: 30, end: 9000, deadline: 9000, timeoutSeconds: 0 },
  ])('$name', ({ now, seconds, end, deadline, timeoutSeconds }) => {
    const d = computeHookDeadline(now, seconds, end);
    expect({ deadline: d.deadline, timeoutSeconds: d.timeoutSeconds, remainingMs: d.remainingMs }).toEqual({
      deadline,
      timeoutSeconds,
      remainingMs: deadline - now,
    });
  });

  // The budget (9 s of a 10 s ?timeout=) is enforced; ?timeout= tells the hook what the apiserver would.
  it.each([
    { name: 'the apiserver deadline is shorter: told its whole 10s', now: 0, seconds: 20, told: 10, deadline: 9000 },
    { name: 'the hook timeout is shorter: told its own 5s', now: 1000, seconds: 5, told: 5, deadline: 6000 },
    { name: 'later in the request: told what the apiserver has left', now: 2000, seconds: 20, told: 8, deadline: 9000 },
    {
      name: 'inside the margin: nothing left to enforce, still told 1s',
      now: 9500,
      seconds: 20,
      told: 1,
      deadline: 9000,
    },
  ])('$name', ({ now, seconds, told, deadline }) => {
    const d = computeHookDeadline(now, seconds, 9000, 10_000);
    expect({ deadline: d.deadline, timeoutSeconds: d.timeoutSeconds }).toEqual({ deadline, timeoutSeconds: told });
  });
});
