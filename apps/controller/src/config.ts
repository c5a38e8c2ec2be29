/**
 * The controller's configuration: YAML → validated ControllerConfig, every problem named by its
 * field path (the shared FieldReader, as the gateway and the plugins read theirs). Unknown fields
 * are errors: a misspelt one would otherwise fall back to its default without a word.
 *
 *   redis: { url: redis://127.0.0.1:6379, prefix: "{hookgate}" }   # or redis+sentinel://, redis+cluster://
 *   plugins:
 *     - { name: ledger, target: unix:///run/hookgate/ledger.sock }
 *   registeredPlugins: { clientTls: { certFile: client.crt, keyFile: client.key } }   # mTLS to registered plugins
 *   kubernetes: { mode: inCluster }            # or { mode: kubeconfig, kubeconfig: ~/.kube/config }
 *   concurrency: 8
 *   health: { host: 127.0.0.1, port: 9464 }
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { FieldReader, formatFieldError } from '@hookgate/admission';
import {
  readClientTls,
  readPluginList,
  type PluginConfiguration,
  type PluginTls,
  type RegistryClientTls,
} from '@hookgate/config';
import { LOG_LEVELS, type LogLevel } from '@hookgate/observability';
import { DEFAULT_QUEUE_PREFIX, validateQueuePrefix } from '@hookgate/queue';
import { clusterPrefixProblem, parseRedisUrl, redactRedisUrl } from '@hookgate/queue/redis-url';

/** A plugin whose queue this controller serves: name, target and TLS as the gateway reads them. */
export type ControllerPlugin = PluginConfiguration;
export type ControllerPluginTls = PluginTls;

export type ControllerKubernetes =
  { readonly mode: 'inCluster' } | { readonly mode: 'kubeconfig'; readonly kubeconfig?: string };

export interface ControllerConfig {
  readonly redis: { readonly url: string; readonly prefix: string };
  /** Plugins served whatever the gateways publish (they win over a registered plugin of the same name). */
  readonly plugins: readonly ControllerPlugin[];
  /** Plugins registered at run time with a gateway's Registry, read from what gateways publish in Redis. */
  readonly registeredPlugins: {
    readonly enabled: boolean;
    readonly pollMs: number;
    /**
     * The client certificate and key presented to plugins registered with TLS (those requiring mTLS).
     * Their CA comes from the registration, as the gateway published it.
     */
    readonly clientTls?: RegistryClientTls;
  };
  readonly kubernetes: ControllerKubernetes;
  /** Jobs one worker (one plugin's queue) runs at once. */
  readonly concurrency: number;
  /** BullMQ lock: a job whose lock lapses is handed to another worker (stalled). */
  readonly lockDurationMs: number;
  readonly stalledIntervalMs: number;
  /** Stalls a job survives before it is failed. */
  readonly maxStalledCount: number;
  /** From admission to the first read. */
  readonly graceMs: number;
  /** From a NOT_PERSISTED read to the confirming read. */
  readonly confirmDelayMs: number;
  /** When the apiserver or the plugin cannot answer now. */
  readonly unavailableDelayMs: number;
  /** Deadline of one Reconcile call and of one apiserver read. */
  readonly reconcileTimeoutMs: number;
  readonly readTimeoutMs: number;
  /** Attempts a job may use here (the job's own `attempts` applies too: the lower one wins). */
  readonly attempts: number;
  readonly backoff: { readonly baseMs: number; readonly capMs: number };
  /** How long a stop waits for running jobs before it abandons them (they stall and run again). */
  readonly shutdownTimeoutMs: number;
  readonly health: { readonly host: string; readonly port: number };
  /** Periodic resync of each plugin that serves it (intervalMs 0: off). */
  readonly resync: {
    readonly intervalMs: number;
    /** Each run starts up to this much later, at random: plugins and clusters do not resync in step. */
    readonly jitterMs: number;
    /** Held effects younger than this are left alone (default graceMs + confirmDelayMs). */
    readonly minAgeMs: number;
    readonly pageSize: number;
  };
  /** The read-only queue dashboard (bull-board); `enabled: false` for none. Keep it on localhost. */
  readonly dashboard: { readonly enabled: boolean; readonly host: string; readonly port: number };
  readonly logLevel: LogLevel;
}

export const CONTROLLER_DEFAULTS = {
  redisUrl: 'redis://127.0.0.1:6379',
  concurrency: 8,
  lockDurationMs: 60_000,
  stalledIntervalMs: 30_000,
  maxStalledCount: 2,
  graceMs: 10_000,
  confirmDelayMs: 90_000,
  unavailableDelayMs: 5_000,
  reconcileTimeoutMs: 10_000,
  readTimeoutMs: 10_000,
  attempts: 12,
  backoffBaseMs: 1_000,
  backoffCapMs: 300_000,
  shutdownTimeoutMs: 10_000,
  healthHost: '127.0.0.1',
  healthPort: 9464,
  resyncIntervalMs: 600_000,
  resyncPageSize: 100,
  dashboardHost: '127.0.0.1',
  dashboardPort: 9465,
  registeredPluginsPollMs: 2_000,
  logLevel: 'info' as LogLevel,
} as const;

export interface ConfigEnvironment {
  /** Relative file paths (kubeconfig, TLS files) resolve against it: the configuration file's directory. */
  readonly configDir: string;
  /** REDIS_URL overrides `redis.url`. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export type ConfigResult =
  { readonly ok: true; readonly config: ControllerConfig } | { readonly ok: false; readonly errors: string[] };

const MS = (max: number) => ({ min: 1, max });
const DAY_MS = 86_400_000;

export function readControllerConfig(document: unknown, environment: ConfigEnvironment): ConfigResult {
  const top = FieldReader.of(document ?? {});
  const path = (p: string) => (isAbsolute(p) ? p : resolve(environment.configDir, p));
  const optionalPath = (r: FieldReader, name: string) => {
    const v = r.string(name);
    return v === undefined ? undefined : path(v);
  };

  const redisReader = top.object('redis');
  const fileUrl = redisReader.string('url', CONTROLLER_DEFAULTS.redisUrl);
  const envUrl = environment.env['REDIS_URL'];
  const fromEnv = envUrl !== undefined && envUrl !== '';
  const url = fromEnv ? envUrl : fileUrl;
  const envErrors: string[] = [];
  // One syntax for every topology (@hookgate/queue/redis-url); the URL may hold a password: redacted.
  const parsedUrl = parseRedisUrl(url);
  if (!parsedUrl.ok) {
    if (fromEnv)
      envErrors.push(`REDIS_URL (environment): Invalid value: "${redactRedisUrl(url)}": ${parsedUrl.problem}`);
    else redisReader.invalid('url', redactRedisUrl(url), parsedUrl.problem);
  }
  const prefix = redisReader.string('prefix', DEFAULT_QUEUE_PREFIX);
  const prefixProblem =
    prefixProblemOf(prefix) ?? (parsedUrl.ok ? clusterPrefixProblem(parsedUrl.spec, prefix) : undefined);
  if (prefixProblem !== undefined) redisReader.invalid('prefix', prefix, prefixProblem);
  redisReader.finish();

  const registeredReader = top.object('registeredPlugins');
  const clientTls = registeredReader.has('clientTls')
    ? readClientTls(registeredReader.object('clientTls'), optionalPath)
    : undefined;
  const registeredPlugins = {
    enabled: registeredReader.bool('enabled', true),
    pollMs: registeredReader.int('pollMs', CONTROLLER_DEFAULTS.registeredPluginsPollMs, { min: 100, max: 60_000 }),
    ...(clientTls === undefined ? {} : { clientTls }),
  };
  registeredReader.finish();
  const plugins = readPlugins(top, path, registeredPlugins.enabled);
  const kubernetes = readKubernetes(top.object('kubernetes'), path);

  const concurrency = top.int('concurrency', CONTROLLER_DEFAULTS.concurrency, { min: 1, max: 1000 });
  const lockDurationMs = top.int('lockDurationMs', CONTROLLER_DEFAULTS.lockDurationMs, { min: 1_000, max: DAY_MS });
  const stalledIntervalMs = top.int('stalledIntervalMs', CONTROLLER_DEFAULTS.stalledIntervalMs, MS(DAY_MS));
  const maxStalledCount = top.int('maxStalledCount', CONTROLLER_DEFAULTS.maxStalledCount, { min: 0, max: 100 });
  const graceMs = top.int('graceMs', CONTROLLER_DEFAULTS.graceMs, { min: 0, max: DAY_MS });
  const confirmDelayMs = top.int('confirmDelayMs', CONTROLLER_DEFAULTS.confirmDelayMs, { min: 0, max: DAY_MS });
  const unavailableDelayMs = top.int('unavailableDelayMs', CONTROLLER_DEFAULTS.unavailableDelayMs, MS(DAY_MS));
  const reconcileTimeoutMs = top.int('reconcileTimeoutMs', CONTROLLER_DEFAULTS.reconcileTimeoutMs, MS(DAY_MS));
  const readTimeoutMs = top.int('readTimeoutMs', CONTROLLER_DEFAULTS.readTimeoutMs, MS(DAY_MS));
  // A job's lock must outlast its slowest run (one read, one Reconcile), or it runs twice at once.
  if (readTimeoutMs + reconcileTimeoutMs >= lockDurationMs) {
    top.invalid(
      'lockDurationMs',
      lockDurationMs,
      `must be longer than readTimeoutMs + reconcileTimeoutMs (${readTimeoutMs + reconcileTimeoutMs}): a job's lock must outlast one run`,
    );
  }
  const attempts = top.int('attempts', CONTROLLER_DEFAULTS.attempts, { min: 1, max: 1000 });
  const backoffReader = top.object('backoff');
  const baseMs = backoffReader.int('baseMs', CONTROLLER_DEFAULTS.backoffBaseMs, MS(DAY_MS));
  const capMs = backoffReader.int('capMs', Math.max(baseMs, CONTROLLER_DEFAULTS.backoffCapMs), MS(DAY_MS));
  if (capMs < baseMs) backoffReader.invalid('capMs', capMs, `must be at least backoff.baseMs (${baseMs})`);
  backoffReader.finish();
  const shutdownTimeoutMs = top.int('shutdownTimeoutMs', CONTROLLER_DEFAULTS.shutdownTimeoutMs, MS(DAY_MS));

  const healthReader = top.object('health');
  const health = {
    host: healthReader.string('host', CONTROLLER_DEFAULTS.healthHost),
    port: healthReader.int('port', CONTROLLER_DEFAULTS.healthPort, { min: 0, max: 65535 }),
  };
  healthReader.finish();

  const resyncReader = top.object('resync');
  const intervalMs = resyncReader.int('intervalMs', CONTROLLER_DEFAULTS.resyncIntervalMs, { min: 0, max: 7 * DAY_MS });
  if (intervalMs > 0 && intervalMs < 1_000)
    resyncReader.invalid('intervalMs', intervalMs, 'must be 0 (off) or at least 1000');
  const resync = {
    intervalMs,
    jitterMs: resyncReader.int('jitterMs', Math.floor(intervalMs / 10), { min: 0, max: 7 * DAY_MS }),
    minAgeMs: resyncReader.int('minAgeMs', graceMs + confirmDelayMs, { min: 0, max: 7 * DAY_MS }),
    pageSize: resyncReader.int('pageSize', CONTROLLER_DEFAULTS.resyncPageSize, { min: 1, max: 1000 }),
  };
  resyncReader.finish();

  const dashboardReader = top.object('dashboard');
  const dashboard = {
    enabled: dashboardReader.bool('enabled', true),
    host: dashboardReader.string('host', CONTROLLER_DEFAULTS.dashboardHost),
    port: dashboardReader.int('port', CONTROLLER_DEFAULTS.dashboardPort, { min: 0, max: 65535 }),
  };
  dashboardReader.finish();
  const logLevel = top.oneOf('logLevel', LOG_LEVELS, CONTROLLER_DEFAULTS.logLevel);
  top.finish();

  const errors = [...top.errors().map(formatFieldError), ...envErrors];
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      redis: { url, prefix },
      plugins,
      registeredPlugins,
      kubernetes,
      concurrency,
      lockDurationMs,
      stalledIntervalMs,
      maxStalledCount,
      graceMs,
      confirmDelayMs,
      unavailableDelayMs,
      reconcileTimeoutMs,
      readTimeoutMs,
      attempts,
      backoff: { baseMs, capMs },
      shutdownTimeoutMs,
      health,
      resync,
      dashboard,
      logLevel,
    },
  };
}

/** Reads and checks the file; a YAML error or any bad field is one line each in `errors`. */
export async function loadControllerConfig(file: string, env: ConfigEnvironment['env']): Promise<ConfigResult> {
  let document: unknown;
  try {
    document = parseYaml(await readFile(file, 'utf8'));
  } catch (error) {
    return { ok: false, errors: [`${file}: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const result = readControllerConfig(document, { configDir: dirname(resolve(file)), env });
  return result.ok ? result : { ok: false, errors: result.errors.map((e) => `${file}: ${e}`) };
}

/**
 * The plugins this controller serves by configuration: the gateway's `plugins` list without
 * `stream`, which is about admission. May be empty when registered plugins are followed.
 */
function readPlugins(top: FieldReader, path: (p: string) => string, registered: boolean): ControllerPlugin[] {
  const given = top.raw('plugins');
  if (given === undefined && registered) return [];
  if (!Array.isArray(given) || (given.length === 0 && !registered)) {
    if (given === undefined)
      top.required('plugins', 'list the plugins whose queues this controller serves (registeredPlugins is disabled)');
    else
      top.invalid(
        'plugins',
        given,
        registered
          ? 'must be a list of { name, target, tls? }'
          : 'must be a non-empty list of { name, target, tls? } (registeredPlugins is disabled)',
      );
    return [];
  }
  if (given.length === 0) return [];
  const optionalPath = (r: FieldReader, name: string) => {
    const v = r.string(name);
    return v === undefined ? undefined : path(v);
  };
  return readPluginList(top, optionalPath);
}

function readKubernetes(r: FieldReader, path: (p: string) => string): ControllerKubernetes {
  // No 'none': every job that needs a read would wait forever.
  const mode = r.oneOf('mode', ['inCluster', 'kubeconfig'] as const, 'inCluster');
  const given = r.string('kubeconfig');
  if (given !== undefined && mode !== 'kubeconfig')
    r.invalid('kubeconfig', given, 'may only be set when mode is kubeconfig');
  r.finish();
  return mode === 'kubeconfig' ? (given === undefined ? { mode } : { mode, kubeconfig: path(given) }) : { mode };
}

function prefixProblemOf(prefix: string): string | undefined {
  try {
    validateQueuePrefix(prefix);
    return undefined;
  } catch {
    return "must be letters, digits, '-', '_', '.' and at most one {hash tag}, without ':', e.g. {hookgate}";
  }
}
