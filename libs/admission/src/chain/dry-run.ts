/**
 * sideEffects × dryRun (k8s-semantics.md §19), checked for matching hooks only, before the call.
 * Also classifies the side effects a hook reports, for reconciliation.
 */
import type { Hook } from '../types/hook.js';
import type { HookFailure } from '../types/hook-failure.js';
import type { AdmissionRequest, Status } from '../types/review.js';
import type { ReportedSideEffect } from './outcome.js';
import { assertNever } from '../result.js';
import { dryRunUnsupportedStatus } from '../errors/status.js';
import { sideEffectsNilFailure } from '../errors/failures.js';

export type DryRunCheck =
  | { readonly kind: 'call' }
  /** 400 `does not support dry run`: the hook is not called, whatever its failurePolicy. */
  | { readonly kind: 'refuse'; readonly status: Status }
  /** sideEffects null on a dry run: a calling error, decided by failurePolicy. */
  | { readonly kind: 'failure'; readonly failure: HookFailure };

const CALL: DryRunCheck = Object.freeze({ kind: 'call' });

export function checkDryRun(
  hook: Pick<Hook, 'name' | 'sideEffects'>,
  request: Pick<AdmissionRequest, 'dryRun'>,
): DryRunCheck {
  if (request.dryRun !== true) return CALL;
  const sideEffects = hook.sideEffects;
  if (sideEffects === null) return { kind: 'failure', failure: sideEffectsNilFailure() };
  switch (sideEffects) {
    case 'None':
    case 'NoneOnDryRun':
      return CALL;
    case 'Some':
    case 'Unknown':
      return { kind: 'refuse', status: dryRunUnsupportedStatus(hook.name) };
    default:
      return assertNever(sideEffects, 'sideEffects');
  }
}

/**
 * A side effect reported by a hook that promised none is still collected (it happened), but
 * flagged: any side effect on a dryRun request, and any side effect from a hook whose sideEffects
 * is None, breaks the hook's declaration.
 */
export function classifySideEffect(
  hook: Pick<Hook, 'sideEffects'>,
  request: Pick<AdmissionRequest, 'dryRun'>,
): ReportedSideEffect['violation'] {
  if (request.dryRun === true) return 'dry-run';
  if (hook.sideEffects === 'None') return 'side-effects-none';
  return undefined;
}
