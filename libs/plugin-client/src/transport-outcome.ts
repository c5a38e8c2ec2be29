/** What one call to a plugin over gRPC came to, before any admission or reconcile meaning is given to it. */
import * as grpc from '@grpc/grpc-js';
import type {
  AdmitResponse__Output,
  ListHeldEffectsResponse__Output,
  ReconcileResponse__Output,
} from '@hookgate/proto';

/** Why a call has no answer. */
export type CallFailure =
  /** The per-call deadline passed (our timer on the stream, the gRPC deadline on unary). */
  | { readonly ok: false; readonly kind: 'timeout' }
  /** The caller's AbortSignal fired (the apiserver hung up, the controller stopped). */
  | { readonly ok: false; readonly kind: 'canceled' }
  /** The circuit breaker refused the call without trying. */
  | { readonly ok: false; readonly kind: 'circuit-open'; readonly failures: number }
  /**
   * A gRPC status. `transport`: the plugin could not be reached or the stream broke (counts for the
   * circuit breaker); otherwise the plugin itself answered with an error.
   */
  | {
      readonly ok: false;
      readonly kind: 'rpc';
      readonly code: grpc.status;
      readonly detail: string;
      readonly transport: boolean;
    };

/** An answer of type R, or why there is none. */
export type CallOutcome<R> = { readonly ok: true; readonly response: R } | CallFailure;

/** One admit call (stream or unary). */
export type TransportOutcome = CallOutcome<AdmitResponse__Output>;

/** One Reconcile call. */
export type ReconcileCallOutcome = CallOutcome<ReconcileResponse__Output>;

/** One ListHeldEffects call (periodic resync). */
export type ListHeldEffectsCallOutcome = CallOutcome<ListHeldEffectsResponse__Output>;

export const TIMEOUT: CallFailure = Object.freeze({ ok: false, kind: 'timeout' });
export const CANCELED: CallFailure = Object.freeze({ ok: false, kind: 'canceled' });

/**
 * A call on a client that was closed (its plugin was removed or replaced). A fresh object each time:
 * the breaker counts a shared rpc outcome once (see PluginClient#record).
 */
export function clientClosed(): CallFailure {
  return {
    ok: false,
    kind: 'rpc',
    code: grpc.status.UNAVAILABLE,
    detail: 'the plugin client is closed',
    transport: true,
  };
}
