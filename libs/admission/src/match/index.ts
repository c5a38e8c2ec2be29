// Public surface of match/: re-exports only.
export {
  matchesRule,
  matchesOperation,
  matchesGroup,
  matchesVersion,
  matchesResource,
  matchesScope,
  findMatchingRule,
  splitResourceEntry,
  isExemptRequest,
  isExemptAdmissionConfiguration,
  isVirtualAuthResource,
} from './rules.js';
export type { RuleAttributes } from './rules.js';
export { compileSelector, labelsOf } from './label-selector.js';
export { matchNamespaceSelector } from './namespace-selector.js';
export { matchObjectSelector } from './object-selector.js';
export type { SelectorResult } from './selector-result.js';
export { checkMatchConditionExpression } from './cel.js';
export { compileMatchConditions, evaluateMatchConditions, buildCelActivation } from './match-conditions.js';
export type { MatchConditionsResult } from './match-conditions.js';
export { CONDITION_ERRORS_IGNORED, CONDITIONS_FAILED, shouldCallHook } from './should-call.js';
export type { ShouldCall } from './should-call.js';
export { HookIndex, buildHookSet } from './hook-index.js';
export type { HookSet } from './hook-index.js';
