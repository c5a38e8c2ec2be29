// The shared case tables (testing/cases) through both dispatchers with the scripted invoker.
import { describe, expect, it } from 'vitest';
import {
  HOOKGATE_COMMON_CASES,
  HOOKGATE_MUTATING_CASES,
  HOOKGATE_VALIDATING_CASES,
  MUTATING_CASES,
  NON_MUTATING_CASES,
  REINVOCATION_CASES,
  checkExpectation,
  convertToMutatingCases,
  observe,
  runChainCase,
} from '../testing/index.js';
import type { ChainCase } from '../testing/index.js';

const validating: readonly ChainCase[] = [
  ...NON_MUTATING_CASES,
  ...HOOKGATE_COMMON_CASES,
  ...HOOKGATE_VALIDATING_CASES,
];
const mutating: readonly ChainCase[] = [
  ...convertToMutatingCases(NON_MUTATING_CASES),
  ...MUTATING_CASES,
  ...REINVOCATION_CASES,
  ...HOOKGATE_COMMON_CASES,
  ...HOOKGATE_MUTATING_CASES,
];

describe('validating dispatcher: shared tables', () => {
  it.each(validating.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const run = await runChainCase('validating', testCase);
    expect(checkExpectation(testCase.expect, observe(run))).toEqual([]);
  });
});

describe('validating dispatcher: shared tables, calls started together (invokeTogether)', () => {
  it.each(validating.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const run = await runChainCase('validating', testCase, { together: true });
    expect(checkExpectation(testCase.expect, observe(run))).toEqual([]);
  });
});

describe('mutating dispatcher: shared tables', () => {
  it.each(mutating.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const run = await runChainCase('mutating', testCase);
    expect(checkExpectation(testCase.expect, observe(run))).toEqual([]);
  });
});

describe('tables with url targets (as the gateway end-to-end tests build them)', () => {
  it.each(NON_MUTATING_CASES.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const run = await runChainCase('validating', testCase, {
      defaultTarget: 'url',
      baseUrl: 'http://127.0.0.1:9/hooks',
    });
    expect(checkExpectation(testCase.expect, observe(run))).toEqual([]);
  });
});
