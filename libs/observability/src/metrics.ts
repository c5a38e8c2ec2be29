/**
 * Metric definitions for the gateway, after the apiserver's admission metrics (k8s-semantics §21),
 * named `hookgate_<subsystem>_<name>_<unit>`.
 *
 * Label values are bounded: hook, configuration and plugin names come from the configuration;
 * object names, namespaces and uids never become labels. `phase` is `mutating` or `validating`
 * (the apiserver's `type` label says `admit`/`validating`), `operation` is CREATE, UPDATE, DELETE
 * or CONNECT.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type PhaseLabel = 'mutating' | 'validating';
export type CircuitState = 'closed' | 'open' | 'half-open';
export const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half-open'];

/** The apiserver's rejection error types (§21). */
export type RejectionErrorType = 'no_error' | 'calling_webhook_error' | 'apiserver_internal_error';

/** Latency buckets: the apiserver's (5 ms … 25 s) plus sub-millisecond ones, since gRPC hooks answer in µs. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25];
/** The apiserver's match-condition evaluation buckets. */
export const MATCH_CONDITION_BUCKETS = [0.0001, 0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25];

export interface MetricsRegistryOptions {
  /** Node process metrics (CPU, memory, event-loop lag) with the `hookgate_` prefix. */
  collectDefault?: boolean;
}

export function createMetricsRegistry(options: MetricsRegistryOptions = {}): Registry {
  const registry = new Registry();
  if (options.collectDefault) collectDefaultMetrics({ register: registry, prefix: 'hookgate_' });
  return registry;
}

export function createGatewayMetrics(registry: Registry) {
  const registers = [registry];
  return {
    /** One admission request to /mutate or /validate, whole chain. outcome: allowed | denied | error (bad request, internal). */
    requestDuration: new Histogram<'phase' | 'operation' | 'outcome'>({
      name: 'hookgate_admission_request_duration_seconds',
      help: 'Time to answer one admission request, by phase, operation and outcome.',
      labelNames: ['phase', 'operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    requests: new Counter<'phase' | 'operation' | 'outcome'>({
      name: 'hookgate_admission_requests_total',
      help: 'Admission requests answered, by phase, operation and outcome.',
      labelNames: ['phase', 'operation', 'outcome'],
      registers,
    }),
    /** Every hook call (apiserver_admission_webhook_admission_duration_seconds). */
    hookDuration: new Histogram<'name' | 'phase' | 'operation' | 'rejected'>({
      name: 'hookgate_webhook_admission_duration_seconds',
      help: 'Time of one hook call, by hook name, phase, operation and whether it rejected the request.',
      labelNames: ['name', 'phase', 'operation', 'rejected'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    /** code: 200 on success, the rejection code, the calling error's code, 0 otherwise; use clampCode. */
    hookRequests: new Counter<'name' | 'phase' | 'operation' | 'code' | 'rejected'>({
      name: 'hookgate_webhook_requests_total',
      help: 'Hook calls, by hook name, phase, operation, status code and whether the request was rejected.',
      labelNames: ['name', 'phase', 'operation', 'code', 'rejected'],
      registers,
    }),
    hookRejections: new Counter<'name' | 'phase' | 'operation' | 'error_type' | 'rejection_code'>({
      name: 'hookgate_webhook_rejections_total',
      help: 'Requests rejected by a hook: denials (no_error), calling errors under Fail, internal errors.',
      labelNames: ['name', 'phase', 'operation', 'error_type', 'rejection_code'],
      registers,
    }),
    hookFailOpen: new Counter<'name' | 'phase'>({
      name: 'hookgate_webhook_fail_open_total',
      help: 'Hook calls that failed and were ignored because the hook has failurePolicy Ignore.',
      labelNames: ['name', 'phase'],
      registers,
    }),
    hookTimeouts: new Counter<'name' | 'phase'>({
      name: 'hookgate_webhook_timeouts_total',
      help: 'Hook calls that did not answer within their deadline (or could not start in time).',
      labelNames: ['name', 'phase'],
      registers,
    }),
    matchConditionErrors: new Counter<'name' | 'phase' | 'operation'>({
      name: 'hookgate_match_condition_evaluation_errors_total',
      help: 'matchConditions expressions that failed to evaluate, by hook.',
      labelNames: ['name', 'phase', 'operation'],
      registers,
    }),
    matchConditionExclusions: new Counter<'name' | 'phase' | 'operation'>({
      name: 'hookgate_match_condition_exclusions_total',
      help: 'Requests a hook skipped by its matchConditions: one was false, or they errored under failurePolicy Ignore.',
      labelNames: ['name', 'phase', 'operation'],
      registers,
    }),
    matchConditionDuration: new Histogram<'name' | 'phase' | 'operation'>({
      name: 'hookgate_match_condition_evaluation_seconds',
      help: "Time to evaluate a hook's matchConditions.",
      labelNames: ['name', 'phase', 'operation'],
      buckets: MATCH_CONDITION_BUCKETS,
      registers,
    }),
    /** kind is the side-effect kind a plugin declares (a small fixed vocabulary per plugin); violation: none | dry-run | side-effects-none. */
    sideEffects: new Counter<'name' | 'phase' | 'kind' | 'violation'>({
      name: 'hookgate_webhook_side_effects_total',
      help: 'Side effects reported by hooks; violation says when one was reported for a dryRun request or by a hook with sideEffects None.',
      labelNames: ['name', 'phase', 'kind', 'violation'],
      registers,
    }),
    /** One series per plugin and state, 1 for the current state (aggregated: number of workers in that state). */
    circuitState: new Gauge<'plugin' | 'state'>({
      name: 'hookgate_plugin_circuit_state',
      help: 'Circuit breaker state per plugin: 1 on the current state (summed across workers).',
      labelNames: ['plugin', 'state'],
      aggregator: 'sum',
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
    tlsCertificateExpiry: new Gauge({
      name: 'hookgate_tls_serving_certificate_expiry_timestamp_seconds',
      help: "Unix time at which the admission listener's serving certificate expires.",
      aggregator: 'min',
      registers,
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;

/** The apiserver's code label rule: codes above 600 count as 600, non-HTTP errors as 0. */
export function clampCode(code: number): string {
  if (!Number.isFinite(code) || code < 0) return '0';
  return String(Math.min(Math.trunc(code), 600));
}

export function setCircuitState(metrics: GatewayMetrics, plugin: string, state: CircuitState): void {
  for (const s of CIRCUIT_STATES) metrics.circuitState.set({ plugin, state: s }, s === state ? 1 : 0);
}

/** Remove a plugin's series when it is deregistered, so the gauge does not report a ghost. */
export function forgetPlugin(metrics: GatewayMetrics, plugin: string): void {
  for (const s of CIRCUIT_STATES) metrics.circuitState.remove({ plugin, state: s });
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
