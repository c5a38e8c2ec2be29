/**
 * A listener that cannot bind ends `hookgate serve`: one fatal line (HG_ERR_GATEWAY_LISTEN) naming
 * the address and the cause, in the log schema like every other line, then exit 1, so a static
 * pod restarts rather than running without a listener (its liveness probe would pass forever).
 */
import { HG_ERR_GATEWAY_LISTEN } from '@hookgate/errors';
import type { Logger } from '@hookgate/observability';

/** One fatal line naming the address and the cause; `hookgate serve` then exits 1. */
export function logListenFailure(log: Logger, what: string, address: string, code: string, cause: string): void {
  const error = new HG_ERR_GATEWAY_LISTEN(what, address, describeBindError(code, cause), code);
  log.fatal({ address, code, cause, errorCode: error.code }, error.message);
}

/** The system error codes a bind fails with, in words; any other keeps Node's own text. */
const BIND_ERRORS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied (a port below 1024 needs privileges)',
  EADDRNOTAVAIL: 'no such address on this host',
};

function describeBindError(code: string, cause: string): string {
  return BIND_ERRORS[code] ?? cause;
}
