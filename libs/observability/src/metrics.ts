/**
 * Metric definitions for the gateway. The per-hook metrics are the apiserver's
 * `apiserver_admission_*` metrics (staging/src/k8s.io/apiserver/pkg/admission/metrics/metrics.go)
 * with `hookgate_` in place of `apiserver_`: same names, label names, label values and buckets, so
 * a dashboard or alert written for the apiserver carries over by changing the prefix. Metrics the
 * apiserver has no counterpart for are named `hookgate_<subsystem>_<name>_<unit>`.
 *
 * Label values are bounded: hook, configuration and plugin names come from the configuration;
 * object names, namespaces and uids never become labels. `type` is the apiserver's: `admit` for
 * mutating hooks, `validating` for validating ones, except where upstream says `validate` (the
 * step histogram and the match-condition exclusions, `stepType`); `operation` is CREATE, UPDATE,
 * DELETE or CONNECT.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type PhaseLabel = 'mutating' | 'validating';
/** The apiserver's `type` label of webhook metrics. */
export type WebhookTypeLabel = 'admit' | 'validating';
/** The apiserver's `type` label of the step histogram and the match-condition exclusions (a webhook's GetType()). */
export type StepTypeLabel = 'admit' | 'validate';
export type CircuitState = 'closed' | 'open' | 'half-open';
export const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half-open'];

/** The apiserver's rejection error types. */
export type RejectionErrorType = 'no_error' | 'calling_webhook_error' | 'apiserver_internal_error';

/** The apiserver's webhook latency buckets (webhook_admission_duration_seconds). */
export const WEBHOOK_LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25];
/** The apiserver's step buckets (step_admission_duration_seconds). */
export const STEP_LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1, 2.5];
/** The apiserver's match-condition buckets (match_condition_evaluation_seconds; the first release used the step ones). */
export const MATCH_CONDITION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25];
/**
 * Buckets of Hookgate's own latency histograms (the whole request): the apiserver's webhook
 * buckets plus sub-millisecond ones, since gRPC hooks answer in microseconds and the apiserver's
 * first bucket is 5 ms.
 */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, ...WEBHOOK_LATENCY_BUCKETS];

/** The `kind` label of match-condition metrics: always `webhook` here (the apiserver also has `policy`). */
export const MATCH_CONDITION_KIND = 'webhook';

export function webhookType(phase: PhaseLabel): WebhookTypeLabel {
  return phase === 'mutating' ? 'admit' : 'validating';
}

export function stepType(phase: PhaseLabel): StepTypeLabel {
  return phase === 'mutating' ? 'admit' : 'validate';
}

export interface MetricsRegistryOptions {
  /** prom-client's default process and Node metrics, under their standard names (no prefix). */
  collectDefault?: boolean;
}

export function createMetricsRegistry(options: MetricsRegistryOptions = {}): Registry {
  const registry = new Registry();
  if (options.collectDefault) collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * The default process and Node metrics of one node:cluster worker, every series labelled
 * `worker="<id>"`: summed across workers they would be meaningless (start time, max fds, heap
 * limits), so each worker's series stays its own. prom-client's aggregators would drop
 * `process_start_time_seconds` ('omit'); with one value per label set, 'sum' passes each through.
 */
export function createWorkerProcessRegistry(worker: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ worker });
  collectDefaultMetrics({ register: registry });
  for (const metric of registry.getMetricsAsArray()) (metric as { aggregator: string }).aggregator = 'sum';
  return registry;
}

export interface GatewayMetricsOptions {
  /** The `worker` label of per-worker gauges: the node:cluster worker id, `0` in a single process. */
  worker?: string;
}

export function createGatewayMetrics(registry: Registry, options: GatewayMetricsOptions = {}) {
  const registers = [registry];
  return {
    worker: options.worker ?? '0',
    /** One admission request to /mutate or /validate, whole chain (Hookgate's own, sub-ms buckets). */
    requestDuration: new Histogram<'type' | 'operation' | 'outcome'>({
      name: 'hookgate_admission_request_duration_seconds',
      help: 'Time to answer one admission request, by type (admit, validating), operation and outcome (allowed, denied).',
      labelNames: ['type', 'operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    requests: new Counter<'type' | 'operation' | 'outcome'>({
      name: 'hookgate_admission_requests_total',
      help: 'Admission requests answered, by type (admit, validating), operation and outcome (allowed, denied).',
      labelNames: ['type', 'operation', 'outcome'],
      registers,
    }),
    /** apiserver_admission_step_admission_duration_seconds: the whole mutating or validating step. */
    stepDuration: new Histogram<'type' | 'operation' | 'rejected'>({
      name: 'hookgate_admission_step_admission_duration_seconds',
      help: 'Admission sub-step latency histogram in seconds, broken out for each operation and step type (validate or admit).',
      labelNames: ['type', 'operation', 'rejected'],
      buckets: STEP_LATENCY_BUCKETS,
      registers,
    }),
    /** apiserver_admission_webhook_admission_duration_seconds: every hook call. */
    hookDuration: new Histogram<'name' | 'type' | 'operation' | 'rejected'>({
      name: 'hookgate_admission_webhook_admission_duration_seconds',
      help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and type (validating or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: WEBHOOK_LATENCY_BUCKETS,
      registers,
    }),
    /** apiserver_admission_webhook_request_total. code: 200, the rejection or calling error's code, 0 otherwise; use clampCode. */
    hookRequests: new Counter<'name' | 'type' | 'operation' | 'code' | 'rejected'>({
      name: 'hookgate_admission_webhook_request_total',
      help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or admit) and operation, whether the request was rejected and the HTTP status code (above 600 counted as 600).',
      labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
      registers,
    }),
    /** apiserver_admission_webhook_rejection_count. */
    hookRejections: new Counter<'name' | 'type' | 'operation' | 'error_type' | 'rejection_code'>({
      name: 'hookgate_admission_webhook_rejection_count',
      help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation, error type (calling_webhook_error, apiserver_internal_error, no_error) and rejection code.',
      labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
      registers,
    }),
    /** apiserver_admission_webhook_fail_open_count. */
    hookFailOpen: new Counter<'name' | 'type'>({
      name: 'hookgate_admission_webhook_fail_open_count',
      help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).',
      labelNames: ['name', 'type'],
      registers,
    }),
    /** Hookgate's own: the apiserver counts a timeout only as a calling error. */
    hookTimeouts: new Counter<'name' | 'type'>({
      name: 'hookgate_admission_webhook_timeouts_total',
      help: 'Hook calls that did not answer within their deadline (or could not start in time), by name and type (validating or admit).',
      labelNames: ['name', 'type'],
      registers,
    }),
    /** apiserver_admission_match_condition_evaluation_errors_total (kind is always webhook). */
    matchConditionErrors: new Counter<'name' | 'kind' | 'type' | 'operation'>({
      name: 'hookgate_admission_match_condition_evaluation_errors_total',
      help: 'Admission match condition evaluation errors count, identified by name of the webhook and broken out for kind (webhook), type (validating or admit) and operation.',
      labelNames: ['name', 'kind', 'type', 'operation'],
      registers,
    }),
    /** apiserver_admission_match_condition_exclusions_total; type admit | validate, as upstream (webhook.go passes GetType()). */
    matchConditionExclusions: new Counter<'name' | 'kind' | 'type' | 'operation'>({
      name: 'hookgate_admission_match_condition_exclusions_total',
      help: 'Admission match condition evaluation exclusions count, identified by name of the webhook and broken out for kind (webhook), type (validate or admit) and operation.',
      labelNames: ['name', 'kind', 'type', 'operation'],
      registers,
    }),
    /** apiserver_admission_match_condition_evaluation_seconds. */
    matchConditionDuration: new Histogram<'name' | 'kind' | 'type' | 'operation'>({
      name: 'hookgate_admission_match_condition_evaluation_seconds',
      help: 'Admission match condition evaluation time in seconds, identified by name and broken out for kind (webhook), type (validating or admit) and operation.',
      labelNames: ['name', 'kind', 'type', 'operation'],
      buckets: MATCH_CONDITION_BUCKETS,
      registers,
    }),
    /** kind is the side-effect kind a plugin declares (a small fixed vocabulary per plugin); violation: none | dry-run | side-effects-none. */
    sideEffects: new Counter<'name' | 'type' | 'kind' | 'violation'>({
      name: 'hookgate_admission_webhook_side_effects_total',
      help: 'Side effects reported by hooks; violation says when one was reported for a dryRun request or by a hook with sideEffects None.',
      labelNames: ['name', 'type', 'kind', 'violation'],
      registers,
    }),
    /** Per worker: each worker has its own breaker per plugin, so a sum would say nothing. */
    circuitState: new Gauge<'plugin' | 'state' | 'worker'>({
      name: 'hookgate_plugin_circuit_state',
      help: "Circuit breaker state per plugin and gateway worker: 1 on the worker's current state, 0 on the others.",
      labelNames: ['plugin', 'state', 'worker'],
      registers,
    }),
    strayAnswers: new Counter<'plugin'>({
      name: 'hookgate_plugin_stray_answers_total',
      help: 'Answers on a plugin stream that matched no call in flight: an unknown or repeated id, or an answer after its call timed out.',
      labelNames: ['plugin'],
      registers,
    }),
    configReloads: new Counter<'result'>({
      name: 'hookgate_config_reloads_total',
      help: 'Configuration loads and reloads, by result (success, failure).',
      labelNames: ['result'],
      registers,
    }),
    configLastReloadSuccessful: new Gauge({
      name: 'hookgate_config_last_reload_successful',
      help: '1 if the last configuration reload succeeded, 0 if it failed and the previous configuration is still running.',
      aggregator: 'min',
      registers,
    }),
    configLastSuccess: new Gauge({
      name: 'hookgate_config_last_reload_success_timestamp_seconds',
      help: 'Unix time of the last successful configuration load.',
      aggregator: 'max',
      registers,
    }),
    configGeneration: new Gauge({
      name: 'hookgate_config_generation',
      help: 'Generation of the configuration in use: 1 at start, +1 on each successful change.',
      aggregator: 'min',
      registers,
    }),
    namespaceLookups: new Counter<'source' | 'result'>({
      name: 'hookgate_namespace_lookups_total',
      help: 'Namespace label lookups for namespaceSelector, by source (static, cache, live) and result (found, not_found, error).',
      labelNames: ['source', 'result'],
      registers,
    }),
    /** The earliest across workers: the one that will fail first. */
    tlsCertificateExpiry: new Gauge({
      name: 'hookgate_tls_serving_certificate_expiry_timestamp_seconds',
      help: "Unix time at which the admission listener's serving certificate expires (the earliest across workers).",
      aggregator: 'min',
      registers,
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;

/** The metric objects of a GatewayMetrics (every member but the worker label). */
export type GatewayMetricKey = Exclude<keyof GatewayMetrics, 'worker'>;

/** The apiserver's code label rule: codes above 600 count as 600, non-HTTP errors as 0. */
export function clampCode(code: number): string {
  if (!Number.isFinite(code) || code < 0) return '0';
  return String(Math.min(Math.trunc(code), 600));
}

export function setCircuitState(metrics: GatewayMetrics, plugin: string, state: CircuitState): void {
  const worker = metrics.worker;
  for (const s of CIRCUIT_STATES) metrics.circuitState.set({ plugin, state: s, worker }, s === state ? 1 : 0);
}

/** Remove a plugin's series when it is deregistered, so the gauge does not report a ghost. */
export function forgetPlugin(metrics: GatewayMetrics, plugin: string): void {
  for (const s of CIRCUIT_STATES) metrics.circuitState.remove({ plugin, state: s, worker: metrics.worker });
  metrics.strayAnswers.remove({ plugin });
}

export type ConfigReloadRecord = { ok: true; generation: number; at: Date } | { ok: false };

export function recordConfigReload(metrics: GatewayMetrics, record: ConfigReloadRecord): void {
  metrics.configReloads.inc({ result: record.ok ? 'success' : 'failure' });
  metrics.configLastReloadSuccessful.set(record.ok ? 1 : 0);
  if (record.ok) {
    metrics.configGeneration.set(record.generation);
    metrics.configLastSuccess.set(record.at.getTime() / 1000);
  }
}

export interface BuildInfo {
  /** The Hookgate release (the gateway package's version). */
  readonly version: string;
}

/** `hookgate_build_info{version, nodejs_version} 1`, as Prometheus and Kubernetes components export theirs. */
export function registerBuildInfo(registry: Registry, info: BuildInfo): void {
  new Gauge<'version' | 'nodejs_version'>({
    name: 'hookgate_build_info',
    help: 'A metric with a constant 1 labelled by the Hookgate version and the Node.js version it runs on.',
    labelNames: ['version', 'nodejs_version'],
    aggregator: 'first',
    registers: [registry],
  }).set({ version: info.version, nodejs_version: process.version }, 1);
}
