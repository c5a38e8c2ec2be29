/**
 * Where side effects reported by hooks go once the outcome is known. Violations (reported for a
 * dryRun request, or by a hook whose sideEffects is None) are logged at warn and produce no job.
 * Without `redis` the gateway counts and logs the others; with it, each becomes one reconciliation
 * job, and the review is answered only once its jobs are recorded (Redis or the spool). Jobs that
 * cannot be recorded fail their hooks by failurePolicy. Payloads are never logged.
 */
import {
  callingFailureStatus,
  type AdmissionRequest,
  type ChainOutcome,
  type ReportedSideEffect,
  type Status,
} from '@hookgate/admission';
import { HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED } from '@hookgate/errors';
import { webhookType, type GatewayMetrics, type Logger } from '@hookgate/observability';
import {
  buildSideEffectJob,
  decisionFromOutcome,
  summarizeAdmission,
  type AdmissionSummary,
  type GatewayDecision,
  type SideEffectJob,
} from '@hookgate/queue/jobs';
import type { RecordJobs } from '../queue/record-outcome.js';
import type { UnrecordedCounter } from '../queue/queue-metrics.js';

/** What the chain's outcome tells a sink about the request (no object contents). */
export interface SideEffectContext {
  readonly uid: string;
  readonly phase: 'mutating' | 'validating';
  readonly operation: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly allowed: boolean;
  readonly dryRun: boolean;
}

/** What a job is built from: the request (summarised, never stored), the outcome, the time left. */
export interface ReviewFacts {
  readonly request: AdmissionRequest;
  readonly outcome: Pick<ChainOutcome, 'allowed' | 'status' | 'trace'>;
  /** How long the review may wait for its jobs to be recorded. */
  readonly waitMs: number;
}

/** The request stands, or is denied because a failurePolicy Fail hook's side effects were not recorded. */
export interface SideEffectVerdict {
  readonly denial?: Status;
}

export interface SideEffectSink {
  /** undefined: nothing to wait for (side effects counted and logged only, or only violations). */
  record(
    effects: readonly ReportedSideEffect[],
    context: SideEffectContext,
    review: ReviewFacts,
  ): Promise<SideEffectVerdict> | undefined;
}

/** Without redis: count and log (info), violations at warn. */
export function loggingSideEffectSink(log: Logger, metrics: GatewayMetrics): SideEffectSink {
  return {
    record(effects, context) {
      for (const effect of effects) {
        if (countAndCheck(log, metrics, effect, context)) {
          log.info(
            fieldsOf(effect, context),
            'side effect reported (reconciliation queue not configured: counted and logged only)',
          );
        }
      }
      return undefined;
    },
  };
}

export interface QueuedSinkOptions {
  readonly log: Logger;
  readonly metrics: GatewayMetrics;
  readonly unrecorded: UnrecordedCounter;
  /** Makes one review's jobs durable (the worker's recorder, or a JobRecorder in one process). */
  readonly record: RecordJobs;
  /** The gateway's id in every job (its host name). */
  readonly gateway: string;
  readonly clock?: () => number;
}

/** With redis: one job per side effect; the verdict once they are recorded (or not). */
export function queuedSideEffectSink(options: QueuedSinkOptions): SideEffectSink {
  const { log, metrics, unrecorded, record, gateway } = options;
  const clock = options.clock ?? Date.now;
  return {
    record(effects, context, review) {
      let jobs: SideEffectJob[] | undefined;
      let queued: ReportedSideEffect[] | undefined;
      let admission: AdmissionSummary | undefined;
      let decision: GatewayDecision | undefined;
      for (const effect of effects) {
        if (!countAndCheck(log, metrics, effect, context)) continue;
        if (effect.plugin === undefined) {
          // Only plugins report side effects (an AdmissionReview answer has no field for them).
          log.warn(fieldsOf(effect, context), 'side effect reported by a hook that is not served by a plugin: no job');
          continue;
        }
        admission ??= summarizeAdmission(review.request, context.phase);
        decision ??= decisionFromOutcome(review.outcome);
        (jobs ??= []).push(
          buildSideEffectJob({ plugin: effect.plugin, effect, admission, decision, gateway, time: clock() }),
        );
        (queued ??= []).push(effect);
      }
      if (jobs === undefined || queued === undefined) return undefined;
      const recordedEffects = queued;
      return record(jobs, review.waitMs).then((outcome): SideEffectVerdict => {
        if (outcome.ok) {
          if (log.isLevelEnabled('debug')) {
            for (const effect of recordedEffects)
              log.debug({ ...fieldsOf(effect, context), via: outcome.via }, 'side-effect job recorded');
          }
          return {};
        }
        return failByPolicy(log, unrecorded, recordedEffects, context, outcome.reason);
      });
    },
  };
}

/** Each hook once: Fail denies (when the request was allowed), Ignore admits; both logged at error and counted. */
function failByPolicy(
  log: Logger,
  unrecorded: UnrecordedCounter,
  effects: readonly ReportedSideEffect[],
  context: SideEffectContext,
  reason: string,
): SideEffectVerdict {
  let denial: Status | undefined;
  const seen = new Set<string>();
  for (const effect of effects) {
    if (seen.has(effect.hook)) continue;
    seen.add(effect.hook);
    const error = new HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED(effect.hook, reason);
    const fails = effect.failurePolicy === 'Fail';
    unrecorded.inc({ name: effect.hook, failure_policy: effect.failurePolicy });
    log.error(
      {
        decision: fails ? 'fail-closed' : 'fail-open',
        hook: effect.hook,
        ...coordinatesOf(context),
        code: error.code,
        reason,
        kinds: [...new Set(effects.filter((e) => e.hook === effect.hook).map((e) => e.kind))],
      },
      fails
        ? 'side effects not recorded for reconciliation: request denied (failurePolicy Fail)'
        : 'side effects not recorded for reconciliation: request admitted without their jobs (failurePolicy Ignore); reconcile them by hand',
    );
    if (fails && context.allowed && denial === undefined) {
      const text = `${error.code}: ${error.message}`;
      const status = callingFailureStatus(effect.hook, { message: text });
      denial = { ...status, details: { causes: [{ reason: error.code, message: text }] } };
    }
  }
  return denial === undefined ? {} : { denial };
}

/** Counts the effect; false (after a warning) for a violation, which makes no job. */
function countAndCheck(
  log: Logger,
  metrics: GatewayMetrics,
  effect: ReportedSideEffect,
  context: SideEffectContext,
): boolean {
  metrics.sideEffects.inc({
    name: effect.hook,
    type: webhookType(context.phase),
    kind: effect.kind,
    violation: effect.violation ?? 'none',
  });
  if (effect.violation === 'dry-run') {
    log.warn(
      fieldsOf(effect, context),
      'hook reported a side effect for a dryRun request: fix the hook, or declare sideEffects Some/Unknown (then dryRun requests are refused)',
    );
    return false;
  }
  if (effect.violation === 'side-effects-none') {
    log.warn(
      fieldsOf(effect, context),
      'hook declared sideEffects None but reported a side effect: declare NoneOnDryRun (or Some) in its configuration',
    );
    return false;
  }
  return true;
}

function coordinatesOf(context: SideEffectContext) {
  return {
    uid: context.uid,
    operation: context.operation,
    resource: context.resource,
    namespace: context.namespace,
    // Not `name`: pino-pretty shows that field as the logger's name.
    objectName: context.name,
  };
}

function fieldsOf(effect: ReportedSideEffect, context: SideEffectContext) {
  return {
    hook: effect.hook,
    configuration: effect.configuration,
    kind: effect.kind,
    key: effect.key,
    ...coordinatesOf(context),
    allowed: context.allowed,
  };
}
