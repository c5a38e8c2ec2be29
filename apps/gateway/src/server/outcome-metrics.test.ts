import { describe, expect, it } from 'vitest';
import type { ChainOutcome, TraceEvent } from '@hookgate/admission';
import { createGatewayMetrics, createMetricsRegistry } from '@hookgate/observability';
import { recordOutcome } from './outcome-metrics.js';
import type { RequestSummary } from './request-summary.js';

const summary: RequestSummary = {
  uid: 'u',
  phase: 'validating',
  operation: 'CREATE',
  resource: 'v1/pods',
  kind: 'Pod',
  namespace: 'ns',
  name: 'n',
  dryRun: false,
};
const outcomeOf = (trace: TraceEvent[], allowed = true): ChainOutcome => ({
  allowed,
  warnings: [],
  auditAnnotations: {},
  sideEffects: [],
  trace,
});
const call = (
  outcome: Extract<TraceEvent, { type: 'call' }>['outcome'],
  code: number,
  failureKind?: 'timeout' | 'transport',
): TraceEvent => ({
  type: 'call',
  hook: 'h.example.com',
  round: 0,
  outcome,
  mutated: false,
  durationMs: 2,
  code,
  ...(failureKind ? { failure: { kind: failureKind, message: 'x', code } } : {}),
});

describe('recordOutcome', () => {
  const cases = [
    {
      name: 'an allowed call',
      event: call('allowed', 200),
      lines: [
        'hookgate_admission_webhook_request_total{name="h.example.com",type="validating",operation="CREATE",code="200",rejected="false"} 1',
      ],
    },
    {
      name: 'a denial',
      event: call('denied', 403),
      lines: [
        'hookgate_admission_webhook_request_total{name="h.example.com",type="validating",operation="CREATE",code="403",rejected="true"} 1',
        'hookgate_admission_webhook_rejection_count{name="h.example.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="403"} 1',
      ],
    },
    {
      name: 'a timeout under Fail',
      event: call('failed-closed', 503, 'timeout'),
      lines: [
        'hookgate_admission_webhook_rejection_count{name="h.example.com",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="503"} 1',
        'hookgate_admission_webhook_timeouts_total{name="h.example.com",type="validating"} 1',
      ],
    },
    {
      name: 'a transport failure under Ignore',
      event: call('failed-open', 503, 'transport'),
      lines: [
        'hookgate_admission_webhook_request_total{name="h.example.com",type="validating",operation="CREATE",code="503",rejected="false"} 1',
        'hookgate_admission_webhook_fail_open_count{name="h.example.com",type="validating"} 1',
      ],
    },
    {
      // Upstream the refusal is callHook's error (default case): observed with code 0, rejected.
      name: 'a dry-run refusal',
      event: call('refused', 0),
      lines: [
        'hookgate_admission_webhook_request_total{name="h.example.com",type="validating",operation="CREATE",code="0",rejected="true"} 1',
        'hookgate_admission_webhook_admission_duration_seconds_count{name="h.example.com",type="validating",operation="CREATE",rejected="true"} 1',
        'hookgate_admission_webhook_rejection_count{name="h.example.com",type="validating",operation="CREATE",error_type="apiserver_internal_error",rejection_code="0"} 1',
      ],
    },
    {
      name: 'match conditions with two erroring expressions, evaluated in 3 ms',
      event: { type: 'conditions', hook: 'h.example.com', round: 0, errors: 2, durationMs: 3 } as TraceEvent,
      lines: [
        'hookgate_admission_match_condition_evaluation_errors_total{name="h.example.com",kind="webhook",type="validating",operation="CREATE"} 2',
        'hookgate_admission_match_condition_evaluation_seconds_count{name="h.example.com",kind="webhook",type="validating",operation="CREATE"} 1',
        'hookgate_admission_match_condition_evaluation_seconds_sum{name="h.example.com",kind="webhook",type="validating",operation="CREATE"} 0.003',
      ],
    },
    {
      name: 'a false match condition',
      event: { type: 'skip', hook: 'h.example.com', round: 0, reason: 'matchCondition:only-pods' } as TraceEvent,
      lines: [
        'hookgate_admission_match_condition_exclusions_total{name="h.example.com",kind="webhook",type="validate",operation="CREATE"} 1',
      ],
    },
    {
      name: 'a hook skipped because its conditions errored under Ignore',
      event: { type: 'skip', hook: 'h.example.com', round: 0, reason: 'matchConditions:ignored-errors' } as TraceEvent,
      lines: [
        'hookgate_admission_match_condition_exclusions_total{name="h.example.com",kind="webhook",type="validate",operation="CREATE"} 1',
      ],
    },
  ];
  it.each(cases)('$name', async ({ event, lines }) => {
    const registry = createMetricsRegistry();
    recordOutcome(createGatewayMetrics(registry), summary, outcomeOf([event]), 0.01);
    const text = await registry.metrics();
    for (const line of lines) expect(text).toContain(line);
    expect(text).toContain(
      'hookgate_admission_requests_total{type="validating",operation="CREATE",outcome="allowed"} 1',
    );
    expect(text).toContain(
      'hookgate_admission_step_admission_duration_seconds_count{type="validate",operation="CREATE",rejected="false"} 1',
    );
  });

  it('labels mutating requests type admit, and a denied step rejected', async () => {
    const registry = createMetricsRegistry();
    const mutating: RequestSummary = { ...summary, phase: 'mutating' };
    recordOutcome(createGatewayMetrics(registry), mutating, outcomeOf([call('denied', 403)], false), 0.01);
    const text = await registry.metrics();
    expect(text).toContain(
      'hookgate_admission_webhook_rejection_count{name="h.example.com",type="admit",operation="CREATE",error_type="no_error",rejection_code="403"} 1',
    );
    expect(text).toContain(
      'hookgate_admission_webhook_admission_duration_seconds_count{name="h.example.com",type="admit",operation="CREATE",rejected="true"} 1',
    );
    expect(text).toContain('hookgate_admission_requests_total{type="admit",operation="CREATE",outcome="denied"} 1');
    expect(text).toContain(
      'hookgate_admission_step_admission_duration_seconds_count{type="admit",operation="CREATE",rejected="true"} 1',
    );
  });
});
