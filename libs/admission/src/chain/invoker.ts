/**
 * The port between the pure chain and the transports (gRPC, HTTP bridge, tests).
 * The chain awaits the invoker it is given; it never opens a socket or a timer itself.
 */
import type { Hook } from '../hook.js';
import type { HookFailure } from '../errors/hook-failure.js';
import type { AdmissionRequest, ReviewVersion, Status, JsonValue } from '../review/types.js';
import type { PatchOperation } from '../patch/types.js';

export interface HookCall {
  readonly hook: Hook;
  /**
   * The request stanza to send: a fresh uid for this call, the object as patched so far,
   * kind/resource as invoked and requestKind/requestResource as received.
   */
  readonly request: AdmissionRequest;
  /** The AdmissionReview version to use (hook.reviewVersion, never null here). */
  readonly version: ReviewVersion;
  readonly round: 0 | 1;
  /** Absolute time (ms, env.now() clock) by which the invoker must have answered or failed with 'timeout'. */
  readonly deadline: number;
  /** The `?timeout=` value the bridge appends: remaining time rounded up to whole seconds. */
  readonly timeoutSeconds: number;
  /**
   * The combined patch from the received object to request.object (empty while unchanged).
   * Lets a transport send the original bytes plus this patch instead of re-serialising the object.
   */
  readonly patchFromOriginal: readonly PatchOperation[];
}

/** One out-of-band change a hook reports, to be reconciled once the outcome is known. */
export interface SideEffect {
  readonly kind: string;
  readonly key: string;
  /** Opaque to the gateway; base64 when it crosses JSON. */
  readonly payload?: Uint8Array;
}

/** A verified answer. Wire checks (uid, version, patch/patchType pairing) are already done. */
export interface HookAnswer {
  readonly allowed: boolean;
  readonly status?: Status;
  /** The JSON Patch document as raw JSON text (decoded by the chain). Absent or '' = no patch. */
  readonly patch?: string;
  /** Absent means JSONPatch (gRPC contract, v1beta1). */
  readonly patchType?: string;
  readonly warnings?: readonly string[];
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  readonly sideEffects?: readonly SideEffect[];
}

export type HookReply =
  { readonly ok: true; readonly answer: HookAnswer } | { readonly ok: false; readonly failure: HookFailure };

export type HookInvoker = (call: HookCall, signal: AbortSignal) => Promise<HookReply>;

/** Namespace labels for namespaceSelector (§6). Sync when cached; async for a live GET. */
export type NamespaceLookupResult =
  | { readonly found: true; readonly labels: Readonly<Record<string, string>>; readonly object?: JsonValue }
  | { readonly found: false }
  | { readonly error: string };
export type NamespaceLookup = (name: string) => NamespaceLookupResult | Promise<NamespaceLookupResult>;

export interface ChainEnv {
  readonly invoke: HookInvoker;
  readonly namespaces: NamespaceLookup;
  /** Clock in ms. Injected so tests control time. */
  now(): number;
  /** A fresh uid for each hook call (crypto.randomUUID in the gateway). */
  newUid(): string;
  /** Absolute end of the request budget (ms, same clock): ?timeout= minus the safety margin. Enforced. */
  readonly deadline: number;
  /**
   * When the apiserver itself gives up (?timeout= without the margin). Hooks are told in their own
   * `?timeout=` the time left until it, as the apiserver would tell them; default `deadline`.
   */
  readonly apiserverDeadline?: number;
  /** Aborted when the apiserver hung up; passed to every invocation. */
  readonly signal: AbortSignal;
}

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
