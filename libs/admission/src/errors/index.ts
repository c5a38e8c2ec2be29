// Public surface of errors/: re-exports only.
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
} from './status.js';
export {
  noKnownVersionFailure,
  sideEffectsNilFailure,
  deadlineExceededFailure,
  cancelledFailure,
  invokerErrorFailure,
  isHookFailureKind,
} from './failures.js';
export { goQuote } from './go-quote.js';
