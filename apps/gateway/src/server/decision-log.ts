/**
 * What the gateway logs about each admission decision, built from ChainOutcome.trace and the
 * request summary only, so object contents never reach these lines:
 * - one info line per denial and per failure-policy decision (`decision`: denied, fail-closed,
 *   fail-open), naming hook, uid, operation, resource, namespace, objectName and reason;
 * - one warn/error line per hook problem, saying what to fix;
 * - the per-request trace at debug level (matched and skipped hooks with reasons, time per hook).
 * The object's name is `objectName`: pino-pretty shows a field called `name` as the logger's name.
 */
import { CONDITION_ERRORS_IGNORED, CONDITIONS_FAILED, type ChainOutcome, type TraceEvent } from '@hookgate/admission';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestSummary } from './request-summary.js';

/** The `decision` field of a decision line. */
export type DecisionKind = 'denied' | 'fail-closed' | 'fail-open';

/** A reason is a status or failure message; a hook's message can be long, a log line must not be. */
const MAX_REASON_LENGTH = 512;

/** Where a request points, on every decision and problem line. */
interface Coordinates {
  readonly uid: string;
  readonly phase: RequestSummary['phase'];
  readonly operation: string;
  readonly resource: string;
  readonly namespace: string;
  readonly objectName: string;
}

/** The plugin serving a hook (its `clientConfig.plugin`), for failure lines; undefined for bridged hooks. */
export type PluginOfHook = (hook: string) => string | undefined;

export function logDecision(
  log: FastifyBaseLogger,
  summary: RequestSummary,
  outcome: ChainOutcome,
  durationMs: number,
  pluginOf?: PluginOfHook,
): void {
  for (const event of outcome.trace) {
    // Most events are fine calls or plain skips: nothing to log, nothing to allocate.
    if (event.type === 'conditions' || (event.type === 'call' && event.outcome === 'allowed')) continue;
    if (event.type === 'skip' && event.reason !== CONDITION_ERRORS_IGNORED) continue;
    logFailOpen(log, summary, event);
    logHookProblem(log, summary, event, pluginOf);
  }
  if (!outcome.allowed) logDenial(log, summary, outcome);
  // Building the trace costs allocations: only when someone reads debug lines.
  if (log.level !== 'debug' && log.level !== 'trace') return;
  log.debug(
    {
      ...coordinatesOf(summary),
      kind: summary.kind,
      dryRun: summary.dryRun,
      allowed: outcome.allowed,
      code: outcome.status?.code ?? 200,
      mutated: outcome.patch !== undefined && outcome.patch.length > 0,
      durationMs: round(durationMs),
      trace: outcome.trace.map(describeEvent),
    },
    'admission decision',
  );
}

const FAIL_OPEN_MESSAGE = 'a hook failed under failurePolicy Ignore; the request goes on without it';

function coordinatesOf(summary: RequestSummary): Coordinates {
  return {
    uid: summary.uid,
    phase: summary.phase,
    operation: summary.operation,
    resource: summary.resource,
    namespace: summary.namespace,
    objectName: summary.name,
  };
}

/** failurePolicy Ignore let the request go on without this hook: a failed call, or erroring matchConditions. */
function logFailOpen(log: FastifyBaseLogger, summary: RequestSummary, event: TraceEvent): void {
  if (event.type === 'skip') {
    log.info(
      {
        decision: 'fail-open' satisfies DecisionKind,
        hook: event.hook,
        ...coordinatesOf(summary),
        reason: 'matchConditions could not be evaluated; the hook was not called',
      },
      FAIL_OPEN_MESSAGE,
    );
    return;
  }
  if (event.type !== 'call' || event.outcome !== 'failed-open') return;
  log.info(
    {
      decision: 'fail-open' satisfies DecisionKind,
      hook: event.hook,
      ...coordinatesOf(summary),
      reason: cap(event.failure?.message ?? 'hook call failed'),
      failure: event.failure?.kind,
    },
    FAIL_OPEN_MESSAGE,
  );
}

/**
 * One line per denied request, naming the hook whose answer the apiserver gets: the first
 * rejecting event (the mutating chain stops at it; the validating chain records calls as they
 * finish, and the first error to arrive is the answer). An unexpected chain error names no hook.
 */
function logDenial(log: FastifyBaseLogger, summary: RequestSummary, outcome: ChainOutcome): void {
  const decisive = outcome.trace.find(isRejection);
  const failClosed =
    decisive !== undefined &&
    ((decisive.type === 'call' && decisive.outcome === 'failed-closed') ||
      (decisive.type === 'reject' && decisive.reason === CONDITIONS_FAILED));
  log.info(
    {
      decision: (failClosed ? 'fail-closed' : 'denied') satisfies DecisionKind,
      ...(decisive !== undefined ? { hook: decisive.hook } : {}),
      ...coordinatesOf(summary),
      reason: cap(outcome.status?.message ?? 'denied'),
      code: outcome.status?.code,
      ...(decisive?.type === 'call' && decisive.failure ? { failure: decisive.failure.kind } : {}),
    },
    failClosed ? 'admission request denied: a hook failed under failurePolicy Fail' : 'admission request denied',
  );
}

function isRejection(event: TraceEvent): boolean {
  return (
    event.type === 'reject' || (event.type === 'call' && event.outcome !== 'allowed' && event.outcome !== 'failed-open')
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

function logHookProblem(
  log: FastifyBaseLogger,
  summary: RequestSummary,
  event: TraceEvent,
  pluginOf: PluginOfHook | undefined,
): void {
  if (event.type === 'reject') {
    log.warn(
      { hook: event.hook, ...coordinatesOf(summary), reason: event.reason, code: event.code },
      'request rejected before the hook was called',
    );
    return;
  }
  if (event.type !== 'call') return;
  switch (event.outcome) {
    case 'failed-open':
      log.warn(
        {
          hook: event.hook,
          ...pluginField(pluginOf, event.hook),
          ...coordinatesOf(summary),
          failure: event.failure?.kind,
          error: event.failure?.message,
        },
        'hook call failed; ignored (failurePolicy Ignore)',
      );
      return;
    case 'failed-closed':
      log.error(
        {
          hook: event.hook,
          ...pluginField(pluginOf, event.hook),
          ...coordinatesOf(summary),
          failure: event.failure?.kind,
          error: event.failure?.message,
        },
        'hook call failed; request rejected (failurePolicy Fail)',
      );
      return;
    case 'patch-error':
      log.error(
        { hook: event.hook, ...coordinatesOf(summary), error: event.failure?.message },
        'hook patch could not be applied; request rejected: fix the hook',
      );
      return;
    default:
      return;
  }
}

/** `plugin`, on the lines of a failed call: which plugin (and its TLS, its target) to look at. */
function pluginField(pluginOf: PluginOfHook | undefined, hook: string): { plugin?: string } {
  const plugin = pluginOf?.(hook);
  return plugin === undefined ? {} : { plugin };
}

function cap(text: string): string {
  return text.length <= MAX_REASON_LENGTH ? text : `${text.slice(0, MAX_REASON_LENGTH)}…(${text.length} characters)`;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
