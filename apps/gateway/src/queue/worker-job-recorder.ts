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
import { describeError, redisWaitMs, withDeadline } from './redis-deadline.js';
import { ACKNOWLEDGED_BATCH_MS, type AcknowledgedJobs, type RecordOutcome } from './record-outcome.js';

export interface WorkerJobRecorderOptions {
  readonly redis: GatewayRedisSettings;
  readonly log: Logger;
  /** The primary: spools what this worker could not hand to Redis (redisProblem set: Redis failed them here). */
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
  #jobs: PreparedJob[] = [];
  #outcomes: AddOutcome[] = [];
  #timer: NodeJS.Timeout | undefined;
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
    let settled: PromiseSettledResult<AddResult>[];
    try {
      settled = await withDeadline(
        Promise.allSettled(prepared.map((job) => this.#producer.addPrepared(job))),
        redisWaitMs(this.#options.redis.addTimeoutMs, waitMs),
      );
    } catch (error) {
      // Out of time: whichever of them Redis still stores is a duplicate when the spool drains.
      return this.#failed(prepared, describeError(error), waitMs - (performance.now() - started));
    }
    let refused: PreparedJob[] | undefined;
    let problem: string | undefined;
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') this.#keep(prepared[i]!, result.value.outcome);
      else {
        (refused ??= []).push(prepared[i]!);
        problem ??= describeError(result.reason);
      }
    });
    if (refused === undefined) return { ok: true, via: 'redis' };
    return this.#failed(refused, problem!, waitMs - (performance.now() - started));
  }

  /** Sends what waits for the primary and closes the connection. */
  async close(): Promise<void> {
    this.#flush();
    await this.#sent;
    await this.#producer.close();
  }

  /** Redis failed these here: through the primary (which spools them and tells every worker to follow until drained). */
  #failed(jobs: readonly PreparedJob[], redisProblem: string, waitMs: number): Promise<RecordOutcome> {
    this.#direct = false;
    return this.#options.viaPrimary(jobs, Math.max(0, waitMs), redisProblem);
  }

  #keep(job: PreparedJob, outcome: AddOutcome): void {
    this.#jobs.push(job);
    this.#outcomes.push(outcome);
    if (this.#jobs.length >= ACKNOWLEDGED_BATCH_JOBS) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), ACKNOWLEDGED_BATCH_MS);
  }

  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#jobs.length === 0) return;
    const batch: AcknowledgedJobs = { jobs: this.#jobs, outcomes: this.#outcomes };
    this.#jobs = [];
    this.#outcomes = [];
    this.#sent = this.#options.sendAcknowledged(batch);
  }
}
