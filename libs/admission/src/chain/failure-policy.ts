/**
 * The one place that decides what a calling failure means (k8s-semantics.md §15): every
 * HookFailure is an ErrCallingWebhook, so failurePolicy Ignore fails open and Fail answers
 * 500 `Internal error occurred: failed calling webhook "<n>": <reason>`. Rejections, dry-run
 * refusals and patch errors are not HookFailures and never come here.
 */
import type { FailurePolicyType } from '../types/webhook-configuration.js';
import type { HookFailure } from '../types/hook-failure.js';
import type { Status } from '../types/review.js';
import { assertNever } from '../result.js';
import { callingFailureStatus } from '../errors/status.js';

export type FailureDecision =
  { readonly action: 'fail-open' } | { readonly action: 'fail-closed'; readonly status: Status };

const FAIL_OPEN: FailureDecision = Object.freeze({ action: 'fail-open' });

export function decideOnFailure(policy: FailurePolicyType, failure: HookFailure, hookName: string): FailureDecision {
  switch (failure.kind) {
    case 'transport':
    case 'timeout':
    case 'http-status':
    case 'malformed':
    case 'invalid-response':
    case 'undecodable-patch':
    case 'unsupported-patch-type':
    case 'no-known-version':
    case 'sideeffects-nil':
    case 'client':
      return applyPolicy(policy, failure, hookName);
    default:
      return assertNever(failure.kind, 'hook failure kind');
  }
}

function applyPolicy(policy: FailurePolicyType, failure: HookFailure, hookName: string): FailureDecision {
  switch (policy) {
    case 'Ignore':
      return FAIL_OPEN;
    case 'Fail':
      return { action: 'fail-closed', status: callingFailureStatus(hookName, failure) };
    default:
      return assertNever(policy, 'failurePolicy');
  }
}
