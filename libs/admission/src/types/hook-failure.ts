import type { Status } from './review.js';

/**
 * A failure to get a usable answer from a hook: the apiserver's ErrCallingWebhook.
 * These, and only these, are decided by failurePolicy (chain/failure-policy.ts).
 * Rejections, dry-run refusals and patch-apply errors are not HookFailures.
 */
export type HookFailureKind =
  /** connection refused/reset, TLS, malformed HTTP, gRPC UNAVAILABLE, circuit open */
  | 'transport'
  /** the hook's own deadline (min of timeoutSeconds and the request budget) passed */
  | 'timeout'
  /** bridge: HTTP status outside 200-206 (the Status decoded from the body if any) */
  | 'http-status'
  /** body not decodable as an AdmissionReview / gRPC answer unusable */
  | 'malformed'
  /** response absent, wrong uid, wrong apiVersion/kind, patch/patchType mismatch, validating patch */
  | 'invalid-response'
  /** patch bytes not a JSON array of operations ("received undecodable patch ...") */
  | 'undecodable-patch'
  /** patchType other than JSONPatch ("unsupported patch type ...") */
  | 'unsupported-patch-type'
  /** none of the hook's admissionReviewVersions is known */
  | 'no-known-version'
  /** dryRun request and sideEffects null */
  | 'sideeffects-nil'
  /** client construction failed (bad caBundle, unknown plugin) */
  | 'client';

export interface HookFailure {
  readonly kind: HookFailureKind;
  /**
   * The reason text exactly as the apiserver words it after `failed calling webhook "<name>": `,
   * e.g. `failed to call webhook: Post "https://x/y?timeout=10s": context deadline exceeded`.
   */
  readonly message: string;
  /** The status code the apiserver counts in webhook_request_total for this failure (§15 table). */
  readonly code: number;
  /** For http-status failures that carried a metav1.Status: that Status (it becomes the error as-is). */
  readonly status?: Status;
}
