/**
 * @hookgate/admission test kit: the apiserver's shared webhook case tables (ported), a scripted
 * fake webhook whose behaviour is chosen by name, an invoker that runs it through the real
 * response verification, and builders for hooks, requests and a ChainEnv on a test clock.
 *
 *   for (const c of NON_MUTATING_CASES) {
 *     const run = await runChainCase('validating', c);
 *     expect(checkExpectation(c.expect, observe(run))).toEqual([]);
 *   }
 *
 * End-to-end tests serve respondAsWebhook() from a real HTTP server, build the same cases with
 * `defaultTarget: 'url'` and their server's base URL, and check what the gateway answered.
 */
export * from './scripted-webhook.js';
export * from './scripted-invoker.js';
export * from './test-clock.js';
export * from './builders.js';
export * from './sample-requests.js';
export * from './defaulted-webhook.js';
export * from './run-case.js';
export type * from './cases/types.js';
export { NON_MUTATING_CASES } from './cases/non-mutating.js';
export { MUTATING_CASES, convertToMutatingCases, expectedPatchAnnotation } from './cases/mutating.js';
export { REINVOCATION_CASES } from './cases/reinvocation.js';
export { HOOKGATE_COMMON_CASES, HOOKGATE_VALIDATING_CASES, HOOKGATE_MUTATING_CASES } from './cases/hookgate.js';
