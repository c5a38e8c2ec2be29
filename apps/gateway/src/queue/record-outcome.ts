/** What the side-effect recorders of the primary and the workers tell each other. */
import type { AddOutcome } from '@hookgate/queue';
import type { PreparedJob, SideEffectJob } from '@hookgate/queue/jobs';

/** How a review's jobs were made durable, or why they were not. */
export type RecordOutcome =
  | { readonly ok: true; readonly via: 'redis' | 'spool' }
  | { readonly ok: false; readonly code: string; readonly reason: string };

/** Makes one review's jobs durable within waitMs (a WorkerJobRecorder, or a JobRecorder in one process). */
export type RecordJobs = (jobs: readonly SideEffectJob[], waitMs: number) => Promise<RecordOutcome>;

/** Jobs Redis acknowledged in a worker, with what each add found (outcomes[i] is jobs[i]'s). */
export interface AcknowledgedJobs {
  readonly jobs: readonly PreparedJob[];
  readonly outcomes: readonly AddOutcome[];
}

/**
 * Jobs a worker's Redis acknowledged wait this long for company before going to the primary: the
 * replay copy lags Redis by at most this plus the primary's own batch, and the primary wakes at
 * most this often for it (per worker).
 */
export const ACKNOWLEDGED_BATCH_MS = 50;

/**
 * Why a worker hands jobs to the primary after trying Redis itself: they are spooled at once.
 * `redisDown`: Redis refused them or did not answer within addTimeoutMs (the primary switches to
 * spooling and routes every worker through itself until drained); false: the review's own time
 * ran out first, which says nothing about Redis.
 */
export interface WorkerFallback {
  readonly reason: string;
  readonly redisDown: boolean;
}
