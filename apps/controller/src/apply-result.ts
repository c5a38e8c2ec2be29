/**
 * processJob's result → what BullMQ does with the job (libs/queue/README.md, "Processing a job"):
 *
 *   done                          → return: the job completes
 *   delay, no attempt used        → store state, moveToDelayed(untilMs), throw DelayedError
 *   delay using an attempt        → store state, throw AttemptDelayError: the backoff strategy waits until untilMs
 *   retry                         → store state, throw Error: the capped backoff
 *   fail                          → UnrecoverableError: straight to the failed set
 *
 * A throw that ends the job's attempts leaves it in the failed set (the dead-letter set; never
 * removed): that is logged at warn with what an operator needs and counted, before the throw.
 */
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from '@hookgate/observability';
import type { ProcessJobResult, ReconcileJobState } from '@hookgate/queue';
import type { ControllerMetrics } from './metrics.js';

/** A not-done answer with retry_after_ms: uses an attempt, and the backoff waits until `untilMs`. */
export class AttemptDelayError extends Error {
  constructor(
    message: string,
    readonly untilMs: number,
  ) {
    super(message);
    this.name = 'AttemptDelayError';
  }
}

/** Wraps the capped backoff so an AttemptDelayError's `untilMs` wins over the computed step. */
export function honourAttemptDelay(
  backoff: (attemptsMade: number) => number,
  now: () => number = Date.now,
): (attemptsMade: number, type?: string, error?: Error) => number {
  return (attemptsMade, _type, error) =>
    error instanceof AttemptDelayError ? Math.max(0, error.untilMs - now()) : backoff(attemptsMade);
}

export interface ApplyContext {
  readonly plugin: string;
  readonly logger: Logger;
  readonly metrics: ControllerMetrics;
  /** The controller's attempt limit; the job's own `attempts` applies too. */
  readonly attempts: number;
  readonly now: () => number;
}

/** What a completed job returns (BullMQ stores it as the job's return value). */
export interface CompletedReconcile {
  readonly outcome: string;
  readonly rule: string;
  readonly message: string;
}

export async function applyResult(
  job: Job,
  token: string | undefined,
  result: ProcessJobResult,
  attempt: number,
  context: ApplyContext,
): Promise<CompletedReconcile> {
  const { plugin, metrics } = context;
  const outcome = outcomeOf(result);
  metrics.reconciles.inc({ plugin, outcome, result: result.kind });
  switch (result.kind) {
    case 'done':
      settled(job, attempt, 'done', context);
      context.logger.info(
        { ...describeJob(job), attempts: attempt, outcome: result.outcome, rule: result.rule },
        `reconciled: ${result.message || 'done'}`,
      );
      return { outcome: result.outcome, rule: result.rule, message: result.message };
    case 'delay':
      if (!result.consumesAttempt) {
        await storeState(job, result.state);
        await job.moveToDelayed(result.untilMs, token);
        context.logger.debug({ ...describeJob(job), until: new Date(result.untilMs).toISOString() }, result.reason);
        throw new DelayedError(result.reason);
      }
      deadLetterIfLast(job, attempt, result.reason, outcome, context);
      await storeState(job, result.state);
      throw new AttemptDelayError(result.reason, result.untilMs);
    case 'retry':
      deadLetterIfLast(job, attempt, result.reason, outcome, context);
      await storeState(job, result.state);
      throw new Error(result.reason);
    case 'fail':
      deadLetter(job, attempt, result.reason, outcome, context);
      throw new UnrecoverableError(result.reason);
    default:
      return assertNever(result);
  }
}

/** The attempt limit is reached: the throw that follows leaves the job in the failed set. */
function deadLetterIfLast(job: Job, attempt: number, reason: string, outcome: string, context: ApplyContext): void {
  const limit = Math.min(context.attempts, job.opts.attempts ?? 1);
  if (attempt < limit) return;
  deadLetter(job, attempt, reason, outcome, context);
  // Our limit below the job's own: BullMQ would retry, so make the failure unrecoverable.
  if (context.attempts < (job.opts.attempts ?? 1)) {
    throw new UnrecoverableError(`${reason} (after ${attempt} attempts, the controller's limit)`);
  }
}

function deadLetter(job: Job, attempt: number, reason: string, outcome: string, context: ApplyContext): void {
  settled(job, attempt, 'dead-lettered', context);
  context.metrics.reconciles.inc({ plugin: context.plugin, outcome, result: 'dead-lettered' });
  context.logger.warn(
    { ...describeJob(job), attempts: attempt, outcome, reason },
    `reconcile job left in the failed set after ${attempt} attempt(s): ${reason}. Fix the cause, then retry it from the failed set`,
  );
}

function settled(job: Job, attempt: number, result: 'done' | 'dead-lettered', context: ApplyContext): void {
  context.metrics.attempts.observe({ plugin: context.plugin, result }, attempt);
  const time = (job.data as { time?: unknown } | null)?.time;
  if (typeof time === 'number' && Number.isFinite(time)) {
    context.metrics.latency.observe({ plugin: context.plugin, result }, Math.max(0, (context.now() - time) / 1000));
  }
}

async function storeState(job: Job, state: ReconcileJobState | undefined): Promise<void> {
  if (state !== undefined) await job.updateProgress(state);
}

function outcomeOf(result: ProcessJobResult): string {
  if (result.kind === 'done') return result.outcome;
  if (result.kind !== 'fail' && result.state?.stage === 'settled') return result.state.outcome;
  return 'none';
}

/**
 * The fields an operator needs to find the job and the object, read defensively from untrusted
 * data: never the effect payload or anything of the object.
 */
export function describeJob(job: Job): Record<string, string> {
  const data = (typeof job.data === 'object' && job.data !== null ? job.data : {}) as Record<string, unknown>;
  const effect = (typeof data['effect'] === 'object' && data['effect'] !== null ? data['effect'] : {}) as Record<
    string,
    unknown
  >;
  const admission = (
    typeof data['admission'] === 'object' && data['admission'] !== null ? data['admission'] : {}
  ) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 256) : '');
  return {
    jobId: job.id ?? '',
    plugin: text(data['plugin']),
    hook: text(data['hook']),
    requestUid: text(admission['uid']),
    effectKind: text(effect['kind']),
    effectKey: text(effect['key']),
  };
}

function assertNever(value: never): never {
  throw new Error(`unhandled processJob result ${JSON.stringify(value)}`);
}
