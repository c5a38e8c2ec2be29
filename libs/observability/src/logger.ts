/**
 * The one pino setup for every Hookgate process (gateway primary and workers, the CLI, plugins
 * built on the SDK, the dev stack). Every line is JSON with the same fields in the same form:
 * `level` as a label, ISO `time`, `pid`, `hostname`, `component`, then the call site's fields and
 * `msg` (README.md lists the fields an operator can grep for).
 *
 * Object contents must never reach the logs: call sites log names and uids only, and the
 * redaction below is a safety net for a field that slips through (object, oldObject, patch,
 * credentials), at the top level and up to two levels deep.
 */
import { hostname } from 'node:os';
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

/**
 * Where a logger keeps its component. pino children inherit their parent's properties (they are
 * created with Object.create), so a child made by componentLogger and every child below it (a
 * request's logger, for one) report the component set here.
 */
const COMPONENT = Symbol('hookgate.component');
type WithComponent = { [COMPONENT]?: string };

/**
 * `component` is written by a mixin rather than as a binding: pino appends a child's bindings to
 * its parent's, so `child({ component })` would put the field on the line twice. The call site's
 * own fields win over the mixin's, so a line never carries it twice either way.
 */
function componentField(_fields: object, _level: number, logger: Logger): { component: string | undefined } {
  return { component: (logger as WithComponent)[COMPONENT] };
}

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** The part that logs: gateway, registry, a plugin's name, stack… Becomes the `component` field. */
  component: string;
  /** Extra fields on every line (worker id, role). Keep them small and non-sensitive. */
  base?: Record<string, string | number>;
  /** Where lines go; stdout by default. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const config = {
    level: options.level ?? 'info',
    base: { pid: process.pid, hostname: hostname(), ...options.base },
    timestamp: stdTimeFunctions.isoTime,
    mixin: componentField,
    redact: { paths: [...REDACTED_PATHS], censor: REDACTION_CENSOR },
    serializers: { err: stdSerializers.err, error: stdSerializers.err },
    formatters: { level: (label: string) => ({ level: label }), log: capUid },
  };
  const logger = options.destination ? pino(config, options.destination) : pino(config);
  (logger as WithComponent)[COMPONENT] = options.component;
  return logger;
}

/**
 * A child of `parent` whose lines say `component` instead of the parent's (the gateway primary's
 * Registry logs as `registry`). Same destination, level and base fields; `bindings` are added.
 */
export function componentLogger(parent: Logger, component: string, bindings: Record<string, unknown> = {}): Logger {
  const child = parent.child(bindings);
  (child as WithComponent)[COMPONENT] = component;
  return child;
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
