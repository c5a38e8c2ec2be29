/**
 * A unary call with a gRPC deadline, cancelled with the caller's signal: the plain-contract Admit,
 * and Reconcile.
 */
import * as grpc from '@grpc/grpc-js';
import type { AdmissionPluginClient, AdmitRequest } from '@hookgate/proto';
import { onAbort } from './abort-fanout.js';
import { CANCELED, TIMEOUT, type CallOutcome, type TransportOutcome } from './transport-outcome.js';

type Callback<R> = (error: grpc.ServiceError | null, response?: R) => void;

/** `start` makes the call with the options given (the deadline) and the callback that settles it. */
export function callUnary<R>(
  start: (options: grpc.CallOptions, callback: Callback<R>) => grpc.ClientUnaryCall,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<CallOutcome<R>> {
  if (signal.aborted) return Promise.resolve(CANCELED);
  return new Promise((resolve) => {
    let cancelledByUs = false;
    let unsubscribe = (): void => {};
    const call = start({ deadline: Date.now() + Math.max(0, timeoutMs) }, (error, response) => {
      unsubscribe();
      if (cancelledByUs) resolve(CANCELED);
      else if (error) resolve(outcomeOfStatus(error));
      else resolve({ ok: true, response: response! });
    });
    const stop = onAbort(signal, () => {
      cancelledByUs = true;
      call.cancel();
    });
    unsubscribe = () => void stop();
  });
}

/** The plain contract: one unary Admit. */
export function admitUnary(
  client: AdmissionPluginClient,
  message: AdmitRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<TransportOutcome> {
  return callUnary((options, callback) => client.Admit(message, options, callback), timeoutMs, signal);
}

function outcomeOfStatus(error: grpc.ServiceError): CallOutcome<never> {
  if (error.code === grpc.status.DEADLINE_EXCEEDED) return TIMEOUT;
  return {
    ok: false,
    kind: 'rpc',
    code: error.code,
    detail: error.details || error.message,
    transport: error.code === grpc.status.UNAVAILABLE,
  };
}
