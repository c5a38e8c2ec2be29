/**
 * The one pino setup for every Hookgate process.
 * Object contents must never reach the logs: call sites log names and uids only, and the
 * redaction below is a safety net for a field that slips through (object, oldObject, patch,
 * credentials), at the top level and up to two levels deep.
 */
import { pino, stdSerializers, stdTimeFunctions } from 'pino';
import type { DestinationStream, Logger, LevelWithSilent } from 'pino';

export type { Logger, LevelWithSilent as LogLevel } from 'pino';

export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Field names whose values may hold Kubernetes object contents or credentials. */
const SENSITIVE_FIELDS = ['object', 'oldObject', 'patch', 'authorization', 'token', 'privateKey'] as const;

/** Redaction paths for each sensitive field at depth 0, 1 and 2 (pino wildcards cover one level each). */
export const REDACTED_PATHS: readonly string[] = SENSITIVE_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]);

export const REDACTION_CENSOR = '[redacted]';

/** Request uids are UUIDs; a client sending a megabyte one must not make every log line that big. */
const MAX_LOGGED_UID = 128;

function capUid(object: Record<string, unknown>): Record<string, unknown> {
  const uid = object['uid'];
  if (typeof uid !== 'string' || uid.length <= MAX_LOGGED_UID) return object;
  return { ...object, uid: `${uid.slice(0, MAX_LOGGED_UID)}…(${uid.length} characters)` };
}

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Process role: gateway, controller, plugin name… Becomes the `component` field. */
  component: string;
  /** Extra fields on every line (worker id, version). Keep them small and non-sensitive. */
  base?: Record<string, string | number>;
  /** Where lines go; stdout by default. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const config = {
    level: options.level ?? 'info',
    base: { component: options.component, pid: process.pid, ...options.base },
    timestamp: stdTimeFunctions.isoTime,
    redact: { paths: [...REDACTED_PATHS], censor: REDACTION_CENSOR },
    serializers: { err: stdSerializers.err, error: stdSerializers.err },
    formatters: { level: (label: string) => ({ level: label }), log: capUid },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}

export function isLogLevel(value: unknown): value is LevelWithSilent {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/**
 * The slice of a logger that components take (`Pick<ComponentLog, 'warn'>` and so on), so tests
 * can pass a plain recorder. pino's Logger satisfies it.
 */
export interface ComponentLog {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
