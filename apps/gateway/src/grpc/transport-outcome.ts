/** What one admit call over gRPC came to, before any admission meaning is given to it. */
import type * as grpc from '@grpc/grpc-js';
import type { AdmitResponse__Output } from '@hookgate/proto';

export type TransportOutcome =
  | { readonly ok: true; readonly response: AdmitResponse__Output }
  /** The per-call deadline passed (our timer on the stream, the gRPC deadline on unary). */
  | { readonly ok: false; readonly kind: 'timeout' }
  /** The caller's AbortSignal fired (the apiserver hung up). */
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

export const TIMEOUT: TransportOutcome = Object.freeze({ ok: false, kind: 'timeout' });
export const CANCELED: TransportOutcome = Object.freeze({ ok: false, kind: 'canceled' });
