/**
 * The port between the pure chain and the transports (gRPC, HTTP bridge, tests).
 * The chain awaits the invoker it is given; it never opens a socket or a timer itself.
 */
import type { Hook } from './hook.js';
import type { HookFailure } from './hook-failure.js';
import type { AdmissionRequest, ReviewVersion, Status } from './review.js';
import type { PatchOperation } from './patch-operation.js';

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

/**
 * Optional: several calls started together, one promise per call in the same order. The validating
 * dispatcher uses it for the hooks it calls concurrently, so that a transport may carry the calls
 * of one plugin in one message. Each promise settles on its own (its own deadline, its own answer):
 * the dispatcher records, times and decides every call exactly as with `HookInvoker`.
 */
export type HookGroupInvoker = (calls: readonly HookCall[], signal: AbortSignal) => readonly Promise<HookReply>[];
