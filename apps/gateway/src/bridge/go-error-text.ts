/**
 * Node/undici transport errors reworded the way Go's net/http client words them, so bridge failures
 * read like the apiserver's (`dial tcp 127.0.0.1:1: connect: connection refused`). Only the stable
 * prefix `failed to call webhook: Post "<url>":` is a contract (k8s-semantics §22); this is courtesy.
 */
import type { HookEndpoint } from './hook-endpoint.js';

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

export function describeTransportError(error: unknown, endpoint: HookEndpoint): string {
  const e = (error ?? {}) as { code?: string; message?: string; cause?: unknown };
  const code = e.code ?? (e.cause as { code?: string } | undefined)?.code ?? '';
  if (code === 'ECONNREFUSED') return `dial tcp ${endpoint.hostPort}: connect: connection refused`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `dial tcp: lookup ${endpoint.servername}: no such host`;
  if (code === 'ECONNRESET') return 'read: connection reset by peer';
  // undici's "other side closed": the hook closed the connection without answering; Go reads EOF.
  if (code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return 'EOF';
  if (UNKNOWN_AUTHORITY.has(code))
    return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED')
    return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `tls: failed to verify certificate: x509: ${e.message ?? 'certificate name mismatch'}`;
  const message = e.message ?? String(error);
  return code === '' ? message : `${message} (${code})`;
}
