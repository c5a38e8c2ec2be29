// Public surface of review/: re-exports only.
export { decodeReview, decodeReviewText, type IncomingReview, type ReviewError } from './decode.js';
export { encodeReview, type ReviewOutcome } from './encode.js';
export { buildHookReview, buildHookRequest, hookTimeoutQuery, formatGoDuration } from './hook-request.js';
export {
  verifyHookResponse,
  transportFailure,
  timeoutFailure,
  undecodablePatchFailure,
  unsupportedPatchTypeFailure,
  type HookHttpResponse,
} from './verify.js';
export { encodeBase64, encodeBase64Text, decodeBase64, decodeBase64Text } from './base64.js';
export { REVIEW_API_VERSION } from './api-version.js';
