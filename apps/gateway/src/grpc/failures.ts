/**
 * Transport events → HookFailure, worded in the apiserver's shape so that operators read the same
 * messages as for a webhook: `failed to call webhook: Post "plugin://<plugin>/<hook>?timeout=10s": ...`.
 * The plugin "URL" is Hookgate's own; gRPC errors read like Go's `rpc error: code = ... desc = ...`.
 */
import type * as grpc from '@grpc/grpc-js';
import type { HookFailure } from '@hookgate/admission';
import { GRPC_STATUS_NAME } from '@hookgate/proto';

/** The apiserver counts transport and decode failures as 503 (ServiceUnavailable). */
const UNAVAILABLE = 503;

export function pluginUrl(plugin: string, hook: string, timeoutSeconds: number): string {
  return `plugin://${plugin}/${hook}?timeout=${timeoutSeconds}s`;
}

function callFailed(url: string, detail: string): string {
  return `failed to call webhook: Post ${JSON.stringify(url)}: ${detail}`;
}

export function timeoutFailure(url: string): HookFailure {
  return { kind: 'timeout', message: callFailed(url, 'context deadline exceeded'), code: UNAVAILABLE };
}

export function canceledFailure(url: string): HookFailure {
  return { kind: 'transport', message: callFailed(url, 'context canceled'), code: UNAVAILABLE };
}

/** A gRPC status (unary), a hook error sent in-band (stream), or a broken stream. */
export function rpcFailure(url: string, code: grpc.status, detail: string): HookFailure {
  const name = GRPC_STATUS_NAME[code] ?? `Code(${code})`;
  return {
    kind: 'transport',
    message: callFailed(url, `rpc error: code = ${name} desc = ${detail}`),
    code: UNAVAILABLE,
  };
}

export function circuitOpenFailure(url: string, plugin: string, failures: number): HookFailure {
  return {
    kind: 'transport',
    message: callFailed(
      url,
      `circuit open for plugin ${JSON.stringify(plugin)} after ${failures} consecutive failures`,
    ),
    code: UNAVAILABLE,
  };
}

/** The answer came but cannot be used (the apiserver's VerifyAdmissionResponse errors). */
export function invalidResponseFailure(detail: string): HookFailure {
  return { kind: 'invalid-response', message: `received invalid webhook response: ${detail}`, code: UNAVAILABLE };
}

/** No client for the hook: a configuration problem, not a transport one (apiserver: ClientFor failed). */
export function clientFailure(detail: string): HookFailure {
  return { kind: 'client', message: `could not get REST client: ${detail}`, code: 500 };
}
