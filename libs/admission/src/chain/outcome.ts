/** What the chain returns: the verdict, and what each hook did on the way. */
import type { HookFailure } from '../types/hook-failure.js';
import type { Status } from '../types/review.js';
import type { PatchOperation } from '../types/patch-operation.js';
import type { SideEffect } from '../types/invoker.js';
import type { FailurePolicyType } from '../types/webhook-configuration.js';

/** What one hook did, for the decision trace, metrics and logs. Plain data, no object contents. */
export type TraceEvent =
  | { readonly type: 'skip'; readonly hook: string; readonly round: 0 | 1; readonly reason: string }
  | {
      readonly type: 'call';
      readonly hook: string;
      readonly round: 0 | 1;
      /** allowed | denied | failed-open | failed-closed | refused (dry-run) | patch-error */
      readonly outcome: 'allowed' | 'denied' | 'failed-open' | 'failed-closed' | 'refused' | 'patch-error';
      readonly mutated: boolean;
      readonly durationMs: number;
      /** HTTP-ish code counted for metrics (200, denial code, failure code). */
      readonly code: number;
      readonly failure?: HookFailure;
    }
  | {
      readonly type: 'reject';
      readonly hook: string;
      readonly round: 0 | 1;
      readonly reason: string;
      readonly code: number;
    }
  /** The hook's matchConditions were evaluated (before its skip, reject or call event). */
  | {
      readonly type: 'conditions';
      readonly hook: string;
      readonly round: 0 | 1;
      readonly errors: number;
      readonly durationMs: number;
    };

export interface ReportedSideEffect extends SideEffect {
  readonly hook: string;
  readonly configuration: string;
  /** The plugin serving the hook (its `clientConfig.plugin`): whose queue the effect's job goes to. */
  readonly plugin?: string;
  /** The hook's failurePolicy: what happens to the request when the effect cannot be recorded. */
  readonly failurePolicy: FailurePolicyType;
  /** Violation when reported for a dryRun request or by a hook whose sideEffects is None. */
  readonly violation?: 'dry-run' | 'side-effects-none';
}

/** The chain's verdict, ready to encode for the apiserver. */
export interface ChainOutcome {
  readonly allowed: boolean;
  /** Set when not allowed: the exact Status the apiserver would return. */
  readonly status?: Status;
  /** Mutating: the combined patch from the received object to the final one; absent when unchanged. */
  readonly patch?: readonly PatchOperation[];
  readonly warnings: readonly string[];
  /** Apiserver-style keys (`<hook>/<key>`, `mutation.webhook.admission.k8s.io/round_0_index_1`, …). */
  readonly auditAnnotations: Readonly<Record<string, string>>;
  readonly sideEffects: readonly ReportedSideEffect[];
  readonly trace: readonly TraceEvent[];
}
