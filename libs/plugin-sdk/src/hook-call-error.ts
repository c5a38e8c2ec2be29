import { status } from '@grpc/grpc-js';

/**
 * A hook call that produced no decision: a handler bug, an unknown hook, an unusable request.
 * Unary Admit answers it as a gRPC status; AdmitStream as AdmitResponse.error. The gateway treats
 * both as a calling failure, decided by the hook's failurePolicy. Not an HG_ERR_* error: its `code`
 * is the gRPC status that crosses the wire (docs/errors.md).
 */
export class HookCallError extends Error {
  override readonly name = 'HookCallError';
  constructor(
    readonly code: status,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

export function handlerFailed(hook: string, error: unknown): HookCallError {
  return new HookCallError(status.INTERNAL, `hook ${JSON.stringify(hook)} failed: ${describeError(error)}`, {
    cause: error,
  });
}
