import { describe, expect, it } from 'vitest';
import { isHookgateError } from '@hookgate/errors';
import { buildBackoffStrategy, computeBackoffDelay, computeBackoffStep, DEFAULT_BACKOFF } from './backoff.js';

const options = { baseMs: 100, capMs: 1_000 };

describe('computeBackoffStep', () => {
  it.each([
    { attemptsMade: 0, want: 100 },
    { attemptsMade: 1, want: 100 },
    { attemptsMade: 2, want: 200 },
    { attemptsMade: 3, want: 400 },
    { attemptsMade: 4, want: 800 },
    { attemptsMade: 5, want: 1_000 },
    { attemptsMade: 60, want: 1_000 },
    { attemptsMade: 5_000, want: 1_000 },
  ])('after $attemptsMade attempts: $want ms', ({ attemptsMade, want }) => {
    expect(computeBackoffStep(attemptsMade, options)).toBe(want);
  });
});

describe('computeBackoffDelay', () => {
  it.each([
    { name: 'random 0 gives half the step', random: 0, attemptsMade: 3, want: 200 },
    { name: 'random 0.5 gives three quarters', random: 0.5, attemptsMade: 3, want: 300 },
    { name: 'random just below 1 stays below the step', random: 0.999999, attemptsMade: 3, want: 399 },
    { name: 'a random source out of range is clamped', random: 7, attemptsMade: 3, want: 400 },
    { name: 'at the cap, the delay is jittered below the cap', random: 0, attemptsMade: 40, want: 500 },
  ])('$name', ({ random, attemptsMade, want }) => {
    expect(computeBackoffDelay(attemptsMade, { ...options, random: () => random })).toBe(want);
  });

  it('stays in [step/2, step], whole milliseconds, never above the cap', () => {
    for (let attemptsMade = 1; attemptsMade <= 30; attemptsMade++) {
      const step = computeBackoffStep(attemptsMade, options);
      for (let i = 0; i < 200; i++) {
        const delay = computeBackoffDelay(attemptsMade, options);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(step / 2);
        expect(delay).toBeLessThanOrEqual(Math.min(step, options.capMs));
      }
    }
  });

  it('spreads delays across the jitter range (not one value)', () => {
    const delays = new Set(Array.from({ length: 200 }, () => computeBackoffDelay(4, options)));
    expect(delays.size).toBeGreaterThan(50);
  });
});

describe('buildBackoffStrategy', () => {
  it('is a BullMQ backoff strategy: attempts made in, milliseconds out', () => {
    const strategy = buildBackoffStrategy({ ...options, random: () => 0 });
    expect([1, 2, 3, 4, 5, 6].map((n) => strategy(n))).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it('defaults to 1 s doubling to 5 min', () => {
    const strategy = buildBackoffStrategy();
    expect(strategy(1)).toBeGreaterThanOrEqual(500);
    expect(strategy(1)).toBeLessThanOrEqual(1_000);
    expect(strategy(100)).toBeLessThanOrEqual(DEFAULT_BACKOFF.capMs);
    expect(strategy(100)).toBeGreaterThanOrEqual(DEFAULT_BACKOFF.capMs / 2);
  });

  it.each([
    { name: 'baseMs below 1', bad: { baseMs: 0, capMs: 10 } },
    { name: 'baseMs not a number', bad: { baseMs: Number.NaN, capMs: 10 } },
    { name: 'capMs below baseMs', bad: { baseMs: 10, capMs: 5 } },
    { name: 'capMs infinite', bad: { baseMs: 10, capMs: Number.POSITIVE_INFINITY } },
  ])('refuses $name with HG_ERR_QUEUE_OPTION_INVALID', ({ bad }) => {
    let caught: unknown;
    try {
      buildBackoffStrategy(bad);
    } catch (error) {
      caught = error;
    }
    expect(isHookgateError(caught, 'HG_ERR_QUEUE_OPTION_INVALID')).toBe(true);
  });
});
