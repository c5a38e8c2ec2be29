/**
 * Metrics from the chain's trace, recorded where and as the apiserver's dispatchers record
 * theirs (mutating/dispatcher.go, validating/dispatcher.go, matchconditions/matcher.go): per hook
 * duration, calls by code, rejections by error type, fail-open, match condition errors,
 * exclusions and time; the step histogram; plus Hookgate's timeouts and per-request count and
 * duration by outcome.
 */
import { CONDITION_ERRORS_IGNORED, type ChainOutcome, type TraceEvent } from '@hookgate/admission';
import { MATCH_CONDITION_KIND, clampCode, stepType, webhookType, type GatewayMetrics } from '@hookgate/observability';
import type { RequestSummary } from './request-summary.js';

export type RequestOutcomeLabel = 'allowed' | 'denied';

/** A request no hook matched (allowed without a chain) or one the chain answered. */
export function recordRequest(
  metrics: GatewayMetrics,
  summary: Pick<RequestSummary, 'phase' | 'operation'>,
  outcome: RequestOutcomeLabel,
  seconds: number,
): void {
  const series = requestSeries(metrics, summary.phase, summary.operation, outcome);
  series.count.inc();
  series.duration.observe(seconds);
  series.step.observe(seconds);
}

/**
 * prom-client children, one per label set, made once: `labels()` checks and copies the labels,
 * which every request would otherwise pay again. Bounded like the metrics themselves (hook names,
 * phases, operations, codes); per metrics object, so a new registry starts afresh.
 */
interface RequestSeries {
  readonly count: { inc(value?: number): void };
  readonly duration: { observe(value: number): void };
  readonly step: { observe(value: number): void };
}

interface CallSeries {
  readonly duration: { observe(value: number): void };
  readonly count: { inc(value?: number): void };
}

const requestSeriesCache = new WeakMap<GatewayMetrics, Map<string, RequestSeries>>();
const callSeriesCache = new WeakMap<GatewayMetrics, Map<string, CallSeries>>();

function cacheOf<T>(caches: WeakMap<GatewayMetrics, Map<string, T>>, metrics: GatewayMetrics): Map<string, T> {
  let cache = caches.get(metrics);
  if (cache === undefined) caches.set(metrics, (cache = new Map()));
  return cache;
}

function requestSeries(
  metrics: GatewayMetrics,
  phase: RequestSummary['phase'],
  operation: string,
  outcome: RequestOutcomeLabel,
): RequestSeries {
  const cache = cacheOf(requestSeriesCache, metrics);
  const key = `${phase}\u0000${operation}\u0000${outcome}`;
  let series = cache.get(key);
  if (series === undefined) {
    const labels = { type: webhookType(phase), operation, outcome };
    series = {
      count: metrics.requests.labels(labels),
      duration: metrics.requestDuration.labels(labels),
      // The apiserver's step is rejected when the phase answered with an error (a denial).
      step: metrics.stepDuration.labels({ type: stepType(phase), operation, rejected: String(outcome === 'denied') }),
    };
    cache.set(key, series);
  }
  return series;
}

function callSeries(
  metrics: GatewayMetrics,
  name: string,
  type: string,
  operation: string,
  code: string,
  rejected: boolean,
): CallSeries {
  const cache = cacheOf(callSeriesCache, metrics);
  const key = `${name}\u0000${type}\u0000${operation}\u0000${code}\u0000${rejected ? 1 : 0}`;
  let series = cache.get(key);
  if (series === undefined) {
    // Label order as elsewhere: the exposition lists labels in the order of the first label object.
    const flag = String(rejected);
    series = {
      duration: metrics.hookDuration.labels({ name, type, operation, rejected: flag }),
      count: metrics.hookRequests.labels({ name, type, operation, code, rejected: flag }),
    };
    cache.set(key, series);
  }
  return series;
}

export function recordOutcome(
  metrics: GatewayMetrics,
  summary: RequestSummary,
  outcome: ChainOutcome,
  seconds: number,
): void {
  for (const event of outcome.trace) recordEvent(metrics, summary, event);
  recordRequest(metrics, summary, outcome.allowed ? 'allowed' : 'denied', seconds);
}

function recordEvent(metrics: GatewayMetrics, summary: RequestSummary, event: TraceEvent): void {
  const type = webhookType(summary.phase);
  if (event.type === 'call' && event.outcome === 'allowed') {
    // The common case: two cached series, no label objects.
    const series = callSeries(metrics, event.hook, type, summary.operation, clampCode(event.code), false);
    series.duration.observe(event.durationMs / 1000);
    series.count.inc();
    if (event.failure?.kind === 'timeout') metrics.hookTimeouts.inc({ name: event.hook, type });
    return;
  }
  const base = { name: event.hook, type, operation: summary.operation };
  if (event.type === 'conditions') {
    // In the apiserver's label order (the exposition follows the first label object's order).
    const conditions = { name: event.hook, kind: MATCH_CONDITION_KIND, type, operation: summary.operation };
    // Every erroring expression counts, also when a false one then skipped the hook.
    if (event.errors > 0) metrics.matchConditionErrors.inc(conditions, event.errors);
    metrics.matchConditionDuration.observe(conditions, event.durationMs / 1000);
    return;
  }
  if (event.type === 'skip') {
    // A false condition, or errors under failurePolicy Ignore: both are `!Matches` upstream (webhook.go).
    if (event.reason.startsWith('matchCondition:') || event.reason === CONDITION_ERRORS_IGNORED)
      metrics.matchConditionExclusions.inc({
        name: event.hook,
        kind: MATCH_CONDITION_KIND,
        type: stepType(summary.phase), // `validate`: upstream labels exclusions with the webhook's GetType()
        operation: summary.operation,
      });
    return;
  }
  if (event.type === 'reject') {
    metrics.hookRejections.inc({ ...base, error_type: 'apiserver_internal_error', rejection_code: '0' });
    return;
  }
  const rejected =
    event.outcome === 'denied' ||
    event.outcome === 'failed-closed' ||
    event.outcome === 'refused' ||
    event.outcome === 'patch-error';
  // A dry-run refusal too: upstream it is an error of callHook (default case), observed with code 0.
  metrics.hookDuration.observe({ ...base, rejected: String(rejected) }, event.durationMs / 1000);
  metrics.hookRequests.inc({ ...base, code: clampCode(event.code), rejected: String(rejected) });
  if (event.failure?.kind === 'timeout') metrics.hookTimeouts.inc({ name: event.hook, type });
  switch (event.outcome) {
    case 'denied':
      metrics.hookRejections.inc({ ...base, error_type: 'no_error', rejection_code: clampCode(event.code) });
      return;
    case 'failed-closed':
      metrics.hookRejections.inc({
        ...base,
        error_type: 'calling_webhook_error',
        rejection_code: clampCode(event.code),
      });
      return;
    case 'failed-open':
      metrics.hookFailOpen.inc({ name: event.hook, type });
      return;
    case 'refused':
    case 'patch-error':
      metrics.hookRejections.inc({ ...base, error_type: 'apiserver_internal_error', rejection_code: '0' });
      return;
    default:
      return;
  }
}
