/** The plain contract: one unary Admit with a gRPC deadline, cancelled with the caller's signal. */
import * as grpc from '@grpc/grpc-js';
import type { AdmissionPluginClient, AdmitRequest } from '@hookgate/proto';
import { onAbort } from './abort-fanout.js';
import { CANCELED, TIMEOUT, type TransportOutcome } from './transport-outcome.js';

export function admitUnary(
  client: AdmissionPluginClient,
  message: AdmitRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<TransportOutcome> {
  if (signal.aborted) return Promise.resolve(CANCELED);
  return new Promise((resolve) => {
    let cancelledByUs = false;
    let unsubscribe = (): void => {};
    const call = client.Admit(message, { deadline: Date.now() + Math.max(0, timeoutMs) }, (error, response) => {
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

function outcomeOfStatus(error: grpc.ServiceError): TransportOutcome {
  if (error.code === grpc.status.DEADLINE_EXCEEDED) return TIMEOUT;
  return {
    ok: false,
    kind: 'rpc',
    code: error.code,
    detail: error.details || error.message,
    transport: error.code === grpc.status.UNAVAILABLE,
  };
}
