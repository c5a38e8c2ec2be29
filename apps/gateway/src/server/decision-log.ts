/**
 * The per-request decision trace at debug level (matched and skipped hooks with reasons, time per
 * hook, outcome), and one warn line per hook failure naming hook, resource, namespace, name and uid.
 * Built from ChainOutcome.trace only: object contents never reach these lines.
 */
import type { ChainOutcome, TraceEvent } from '@hookgate/admission';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestSummary } from './request-summary.js';

export function logDecision(
  log: FastifyBaseLogger,
  summary: RequestSummary,
  outcome: ChainOutcome,
  durationMs: number,
): void {
  for (const event of outcome.trace) logHookProblem(log, summary, event);
  // Building the trace costs allocations: only when someone reads debug lines.
  if (log.level !== 'debug' && log.level !== 'trace') return;
  log.debug(
    {
      ...summary,
      allowed: outcome.allowed,
      code: outcome.status?.code ?? 200,
      mutated: outcome.patch !== undefined && outcome.patch.length > 0,
      durationMs: round(durationMs),
      trace: outcome.trace.map(describeEvent),
    },
    'admission decision',
  );
}

function describeEvent(event: TraceEvent): Record<string, unknown> {
  switch (event.type) {
    case 'skip':
      return { hook: event.hook, round: event.round, skipped: event.reason };
    case 'reject':
      return { hook: event.hook, round: event.round, rejected: event.reason, code: event.code };
    case 'conditions':
      return { hook: event.hook, round: event.round, matchConditionErrors: event.errors, ms: round(event.durationMs) };
    case 'call':
      return {
        hook: event.hook,
        round: event.round,
        outcome: event.outcome,
        mutated: event.mutated,
        ms: round(event.durationMs),
        code: event.code,
        ...(event.failure ? { failure: event.failure.kind } : {}),
      };
  }
}

function logHookProblem(log: FastifyBaseLogger, summary: RequestSummary, event: TraceEvent): void {
  // Most events are fine calls: nothing to log, nothing to allocate.
  if (
    event.type === 'skip' ||
    event.type === 'conditions' ||
    (event.type === 'call' && (event.outcome === 'allowed' || event.outcome === 'denied'))
  )
    return;
  const where = {
    uid: summary.uid,
    phase: summary.phase,
    operation: summary.operation,
    resource: summary.resource,
    namespace: summary.namespace,
    name: summary.name,
  };
  if (event.type === 'reject') {
    log.warn(
      { hook: event.hook, ...where, reason: event.reason, code: event.code },
      'request rejected before the hook was called',
    );
    return;
  }
  if (event.type !== 'call') return;
  switch (event.outcome) {
    case 'failed-open':
      log.warn(
        { hook: event.hook, ...where, failure: event.failure?.kind, error: event.failure?.message },
        'hook call failed; ignored (failurePolicy Ignore)',
      );
      return;
    case 'failed-closed':
      log.error(
        { hook: event.hook, ...where, failure: event.failure?.kind, error: event.failure?.message },
        'hook call failed; request rejected (failurePolicy Fail)',
      );
      return;
    case 'patch-error':
      log.error(
        { hook: event.hook, ...where, error: event.failure?.message },
        'hook patch could not be applied; request rejected: fix the hook',
      );
      return;
    default:
      return;
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
