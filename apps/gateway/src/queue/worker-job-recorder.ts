/**
 * A worker's side of the durable hand-over: the worker adds its reviews' jobs to Redis itself, over
 * its own connection, and answers the apiserver once Redis acknowledged them. What Redis does not
 * take in time goes to the primary, which owns the spool (the job channel), and so does every job
 * while the primary says so (it is spooling, or draining the spool: the route). Jobs Redis
 * acknowledged here go to the primary in batches, off the reviews' path, for its counters and the
 * replay copy. docs/architecture.md ("Side-effect jobs") gives the measurement behind the split.
 */
import type { Logger } from '@hookgate/observability';
import type { AddOutcome, AddResult, SideEffectProducer } from '@hookgate/queue';
import { openGatewayProducer, type GatewayRedisSettings } from './gateway-producer.js';
import { prepareJob, type PreparedJob, type SideEffectJob } from '@hookgate/queue/jobs';
import type { RecordPreparedJobs } from './job-channel.js';
import { describeError, redisHadItsTime, redisWaitMs, withDeadline } from './redis-deadline.js';
import { TimedBatch } from './timed-batch.js';
import {
  ACKNOWLEDGED_BATCH_MS,
  type AcknowledgedJobs,
  type RecordOutcome,
  type WorkerFallback,
} from './record-outcome.js';

export interface WorkerJobRecorderOptions {
  readonly redis: GatewayRedisSettings;
  readonly log: Logger;
  /** The primary: takes what this worker did not hand to Redis (fallback set: it tried, so spool them). */
  readonly viaPrimary: RecordPreparedJobs;
  /** Sends a batch of jobs Redis acknowledged here to the primary; resolves once it is on its way. */
  readonly sendAcknowledged: (batch: AcknowledgedJobs) => Promise<void>;
}

const ACKNOWLEDGED_BATCH_JOBS = 256;

export class WorkerJobRecorder {
  readonly #producer: SideEffectProducer;
  readonly #options: WorkerJobRecorderOptions;
  /** False while the primary spools or drains: every job goes through it, in order. */
  #direct = true;
  /** Jobs Redis acknowledged here, on their way to the primary. */
  readonly #acknowledged: TimedBatch<{ readonly job: PreparedJob; readonly outcome: AddOutcome }>;
  #sent: Promise<void> = Promise.resolve();

  constructor(options: WorkerJobRecorderOptions) {
    this.#options = options;
    // The primary says it at warn for the gateway; a worker's reconnect attempts are detail.
    this.#producer = openGatewayProducer(options.redis, (fields) =>
      options.log.debug(
        fields,
        "side-effect queue: this worker's Redis connection failed; its jobs go through the primary",
      ),
    );
    this.#acknowledged = new TimedBatch({
      maxItems: ACKNOWLEDGED_BATCH_JOBS,
      maxDelayMs: ACKNOWLEDGED_BATCH_MS,
      flush: (items) => {
        const batch: AcknowledgedJobs = { jobs: items.map((i) => i.job), outcomes: items.map((i) => i.outcome) };
        this.#sent = options.sendAcknowledged(batch);
      },
    });
  }

  /** True when this worker adds its jobs to Redis itself. */
  redisUp(): boolean {
    return this.#direct && this.#producer.connectionStatus === 'ready';
  }

  /** The primary's route: false while it spools or drains (jobs go through it), true once Redis comes first again. */
  setDirect(direct: boolean): void {
    this.#direct = direct;
  }

  /**
   * Makes one review's jobs durable within `waitMs`: Redis from here, else the primary (the spool).
   * Resolves (never rejects) with how, or with why not.
   */
  async record(jobs: readonly SideEffectJob[], waitMs: number): Promise<RecordOutcome> {
    const started = performance.now();
    const prepared = jobs.map(prepareJob);
    if (!this.redisUp()) return this.#options.viaPrimary(prepared, waitMs);
    const budgetMs = redisWaitMs(this.#options.redis.addTimeoutMs, waitMs);
    let settled: PromiseSettledResult<AddResult>[];
    try {
      settled = await withDeadline(
        Promise.allSettled(prepared.map((job) => this.#producer.addPrepared(job))),
        budgetMs,
      );
    } catch (error) {
      // Out of time: whichever of them Redis still stores is a duplicate when the spool drains.
      const redisDown = redisHadItsTime(budgetMs, this.#options.redis.addTimeoutMs);
      return this.#fallBack(prepared, { reason: describeError(error), redisDown }, started, waitMs);
    }
    let refused: PreparedJob[] | undefined;
    let reason: string | undefined;
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') this.#acknowledged.add({ job: prepared[i]!, outcome: result.value.outcome });
      else {
        (refused ??= []).push(prepared[i]!);
        reason ??= describeError(result.reason);
      }
    });
    if (refused === undefined) return { ok: true, via: 'redis' };
    return this.#fallBack(refused, { reason: reason!, redisDown: true }, started, waitMs);
  }

  /** Sends what waits for the primary and closes the connection. */
  async close(): Promise<void> {
    this.#acknowledged.flush();
    await this.#sent;
    await this.#producer.close();
  }

  /**
   * Redis did not take these here: to the primary's spool, with what is left of the review's time.
   * When Redis failed them, the primary also routes every worker through itself until drained.
   */
  #fallBack(
    jobs: readonly PreparedJob[],
    fallback: WorkerFallback,
    started: number,
    waitMs: number,
  ): Promise<RecordOutcome> {
    if (fallback.redisDown) this.#direct = false;
    return this.#options.viaPrimary(jobs, Math.max(0, waitMs - (performance.now() - started)), fallback);
  }
}
