/**
 * Metrics from the chain's trace, after the apiserver's admission metrics (k8s-semantics §21):
 * per hook duration, calls by code, rejections by error type, fail-open and timeouts, match
 * condition exclusions; per request duration and count by outcome.
 */
import type { ChainOutcome, TraceEvent } from '@hookgate/admission';
import { clampCode, type GatewayMetrics } from '@hookgate/observability';
import type { RequestSummary } from './request-summary.js';

export type RequestOutcomeLabel = 'allowed' | 'denied' | 'error';

export function recordRequest(metrics: GatewayMetrics, summary: Pick<RequestSummary, 'phase' | 'operation'>, outcome: RequestOutcomeLabel, seconds: number): void {
  const labels = { phase: summary.phase, operation: summary.operation, outcome };
  metrics.requests.inc(labels);
  metrics.requestDuration.observe(labels, seconds);
}

export function recordOutcome(metrics: GatewayMetrics, summary: RequestSummary, outcome: ChainOutcome, seconds: number): void {
  for (const event of outcome.trace) recordEvent(metrics, summary, event);
  recordRequest(metrics, summary, outcome.allowed ? 'allowed' : 'denied', seconds);
}

function recordEvent(metrics: GatewayMetrics, summary: RequestSummary, event: TraceEvent): void {
  const base = { name: event.hook, phase: summary.phase, operation: summary.operation };
  if (event.type === 'skip') {
    if (event.reason.startsWith('matchCondition:')) metrics.matchConditionExclusions.inc(base);
    if (event.reason === 'matchConditions:ignored-errors') metrics.matchConditionErrors.inc(base);
    return;
  }
  if (event.type === 'reject') {
    if (event.reason === 'matchConditions') metrics.matchConditionErrors.inc(base);
    metrics.hookRejections.inc({ ...base, error_type: 'apiserver_internal_error', rejection_code: '0' });
    return;
  }
  const rejected = event.outcome === 'denied' || event.outcome === 'failed-closed' || event.outcome === 'refused' || event.outcome === 'patch-error';
  if (event.outcome !== 'refused') {
    metrics.hookDuration.observe({ ...base, rejected: String(rejected) }, event.durationMs / 1000);
    metrics.hookRequests.inc({ ...base, code: clampCode(event.code), rejected: String(rejected) });
  }
  if (event.failure?.kind === 'timeout') metrics.hookTimeouts.inc({ name: event.hook, phase: summary.phase });
  switch (event.outcome) {
    case 'denied':
      metrics.hookRejections.inc({ ...base, error_type: 'no_error', rejection_code: clampCode(event.code) });
      return;
    case 'failed-closed':
      metrics.hookRejections.inc({ ...base, error_type: 'calling_webhook_error', rejection_code: clampCode(event.code) });
      return;
    case 'failed-open':
      metrics.hookFailOpen.inc({ name: event.hook, phase: summary.phase });
      return;
    case 'refused':
    case 'patch-error':
      metrics.hookRejections.inc({ ...base, error_type: 'apiserver_internal_error', rejection_code: '0' });
      return;
    default:
      return;
  }
}
