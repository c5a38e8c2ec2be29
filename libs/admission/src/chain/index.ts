// Public surface of chain/: re-exports only.
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
export {
  buildDenialStatus,
  internalErrorStatus,
  callingFailureStatus,
  formatCallingError,
  badRequestStatus,
  dryRunUnsupportedStatus,
  timeoutStatus,
  notFoundStatus,
  namespaceNotFoundStatus,
  forbiddenStatus,
  modificationNotSupportedStatus,
  formatAggregate,
  formatGroupResource,
  type GroupResource,
} from '../errors/status.js';
export {
  noKnownVersionFailure,
  sideEffectsNilFailure,
  deadlineExceededFailure,
  cancelledFailure,
  invokerErrorFailure,
  isHookFailureKind,
} from '../errors/failures.js';
export { goQuote } from '../errors/go-quote.js';
export {
  decodePatch,
  applyPatch,
  diffPatch,
  isJsonEqual,
  toPatchOperations,
  cloneJsonValue,
  type DecodedPatch,
  type DecodedOperation,
} from '../patch/index.js';
export {
  encodeAnnotationsForApiserver,
  encodeAnnotationKey,
  decodeApiserverAnnotationKey,
  isValidAnnotationKey,
  AuditAnnotations,
  mutationAnnotationKey,
  mutationAnnotationValue,
  patchAnnotationKey,
  patchAnnotationValue,
  failedOpenMutationKey,
  failedOpenValidatingKey,
  type EncodeAnnotationsOptions,
} from '../annotations.js';
export { WarningRecorder, collectWarnings, isRecordableWarning } from '../warnings.js';
