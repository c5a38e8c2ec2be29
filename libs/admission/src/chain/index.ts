// Public surface of chain/: re-exports only.
export type { ChainEnv } from './env.js';
export type { ChainOutcome, TraceEvent, ReportedSideEffect } from './outcome.js';
export { runMutating } from './mutating.js';
export { runValidating } from './validating.js';
export { decideOnFailure, type FailureDecision } from './failure-policy.js';
export {
  computeRequestBudget,
  computeHookDeadline,
  parseGoDuration,
  DEFAULT_MIN_MARGIN_MS,
  DEFAULT_MARGIN_RATIO,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type RequestBudget,
  type RequestBudgetOptions,
  type HookDeadline,
} from './deadline.js';
export { checkDryRun, classifySideEffect, type DryRunCheck } from './dry-run.js';
export { ReinvocationTracker } from './reinvocation.js';
