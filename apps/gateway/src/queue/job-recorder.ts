/**
 * The durable hand-over of side-effect jobs, the primary's part (docs/architecture.md says who does
 * what): workers add their jobs to Redis themselves (WorkerJobRecorder) and bring here what Redis
 * did not take, and every job Redis acknowledged, for the replay copy. Here one review's jobs are
 * acknowledged by Redis, or written and fsynced to the spool, before `record` resolves; otherwise it
 * says why, and the worker applies the hooks' failurePolicy.
 *
 * - Redis first (producer.add, bounded by addTimeoutMs and by the review's own time left). A
 *   failure (here or in a worker) switches to spooling: later reviews go straight to the spool
 *   instead of each waiting for Redis, and workers send every job here, until a drain succeeds.
 * - The spool drains oldest first in the background once Redis answers (at most every half
 *   second while it does not); each record is acknowledged after all its jobs are in Redis.
 * - Jobs Redis acknowledged are also appended to the spool in the background, in batches, and
 *   acknowledged at once (persisted within a second): kept for `replayWindowMinutes`. When Redis's run_id changes (checked
 *   every identityCheckSeconds, after every reconnect, and against the one kept in stateDir at
 *   start), those jobs are added again; their deterministic ids make the ones Redis kept duplicates.
 *
 * What this does not cover (the double-failure gap): Redis losing jobs it acknowledged (a restart
 * without persistence, a failover) while this process, or the worker that added them, also dies
 * before their batch reached the disk (at most ACKNOWLEDGED_BATCH_MS in the worker, then
 * BACKGROUND_BATCH_MS here, plus one fsync); jobs older than the replay
 * window that the controller had not finished; and the spool's disk itself.
 */
import { HG_ERR_SPOOL_WRITE_FAILED, isHookgateError } from '@hookgate/errors';
import type { Logger } from '@hookgate/observability';
import {
  type SideEffectProducer,
  prepareJob,
  redactRedisUrl,
  type AddOutcome,
  type AddResult,
  type PreparedJob,
  type SideEffectJob,
} from '@hookgate/queue';
import { Spool, type SpoolRecord } from '@hookgate/spool';
import { openGatewayProducer, type GatewayRedisSettings } from './gateway-producer.js';
import { TimedBatch } from './timed-batch.js';
import { decodeJobBatch, encodeJobBatch } from './job-batch.js';
import type { PrimaryJobs } from './job-channel.js';
import {
  ACKNOWLEDGED_BATCH_MS,
  type AcknowledgedJobs,
  type RecordOutcome,
  type WorkerFallback,
} from './record-outcome.js';
import { describeError, redisHadItsTime, redisWaitMs, withDeadline } from './redis-deadline.js';
import type { SideEffectQueueMetrics } from './queue-metrics.js';
import { readLastRunId, writeLastRunId } from './redis-identity-file.js';

export type { RecordOutcome } from './record-outcome.js';

export interface JobRecorderOptions {
  readonly redis: {
    readonly url: string;
    readonly prefix: string;
    readonly addTimeoutMs: number;
    readonly connectTimeoutMs: number;
    readonly identityCheckSeconds: number;
  };
  readonly spool: { readonly dir: string; readonly maxBytes: number; readonly replayWindowMinutes: number };
  /** Where the last seen run_id is kept (redisIdentityFile(stateDir)). */
  readonly identityFile: string;
  readonly log: Logger;
  /** Metrics are created by the caller once the spool exists (its gauges read the spool). */
  readonly metrics: (source: JobRecorder) => SideEffectQueueMetrics;
  /** How often the background work (drain, identity check) runs; tests shorten it. */
  readonly maintenanceIntervalMs?: number;
}

/** Jobs Redis acknowledged wait this long for company before going to the spool for replay. */
const BACKGROUND_BATCH_MS = 50;
const BACKGROUND_BATCH_JOBS = 256;
/** Spool records handed to Redis at once while draining (in order; each acknowledged after its jobs). */
const DRAIN_WINDOW = 16;
/** How long after a replay the acknowledged jobs workers send are added again as well. */
const LATE_ACKNOWLEDGEMENTS_MS = 30_000;

export class JobRecorder implements PrimaryJobs {
  readonly #producer: SideEffectProducer;
  readonly #spool: Spool;
  readonly #options: JobRecorderOptions;
  readonly #log: Logger;
  readonly #metrics: SideEffectQueueMetrics;
  readonly #timer: NodeJS.Timeout;
  readonly #replayWindowMs: number;
  /** False after a Redis failure, until the spool drained: reviews go straight to the spool. */
  #redisFirst: boolean;
  #downReason = '';
  /** Jobs Redis acknowledged, on their way to the spool's replay copy. */
  readonly #background: TimedBatch<PreparedJob>;
  #backgroundWrites: Promise<void> = Promise.resolve();
  #runId: string | undefined;
  #lastIdentityCheck = 0;
  #lastStatus = '';
  #replayOwed = false;
  #maintaining: Promise<void> | undefined;
  #maintainAgain = false;
  #closed = false;
  #routeListeners: ((direct: boolean) => void)[] = [];
  #replayedAt: number | undefined;

  private constructor(options: JobRecorderOptions, spool: Spool) {
    this.#options = options;
    this.#log = options.log;
    this.#spool = spool;
    this.#replayWindowMs = options.spool.replayWindowMinutes * 60_000;
    this.#redisFirst = true;
    this.#producer = openGatewayProducer(options.redis, (fields) =>
      this.#log.warn(fields, 'side-effect queue: Redis connection failed; jobs go to the spool until it is back'),
    );
    this.#background = new TimedBatch({
      maxItems: BACKGROUND_BATCH_JOBS,
      maxDelayMs: BACKGROUND_BATCH_MS,
      flush: (jobs) => this.#writeForReplay(jobs),
    });
    this.#metrics = options.metrics(this);
    this.#timer = setInterval(() => this.#kick(), options.maintenanceIntervalMs ?? 500);
    this.#timer.unref();
  }

  /** Opens the spool (HG_ERR_SPOOL_LOCKED, HG_ERR_SPOOL_UNREADABLE: the caller stops) and connects. */
  static async open(options: JobRecorderOptions): Promise<JobRecorder> {
    const spool = await Spool.open({
      dir: options.spool.dir,
      maxBytes: options.spool.maxBytes,
      retainAcknowledgedMs: options.spool.replayWindowMinutes * 60_000,
    });
    const recorder = new JobRecorder(options, spool);
    const { recovery } = spool;
    if (recovery.corruptions.length > 0 || recovery.tornTails.length > 0) {
      options.log.warn(
        {
          spoolDir: spool.dir,
          corruptRecords: recovery.corruptions.length,
          tornTails: recovery.tornTails.length,
          damage: recovery.corruptions.slice(0, 10),
        },
        'side-effect spool: damaged records were skipped and torn tails cut off when it was opened; the jobs in damaged records are lost',
      );
    }
    const pending = spool.stats().pendingRecords;
    // Older jobs first: workers go through the primary until the drain is done.
    if (pending > 0) {
      recorder.#redisFirst = false;
      recorder.#downReason = 'the spool holds jobs from before the restart, which reach Redis first';
    }
    if (pending > 0) {
      options.log.info(
        { spoolDir: spool.dir, pendingRecords: pending },
        'side-effect spool holds jobs from before the restart: draining them to Redis',
      );
    }
    recorder.#kick();
    return recorder;
  }

  stats() {
    return this.#spool.stats();
  }

  redisUp(): boolean {
    return this.#redisFirst && this.#producer.connectionStatus === 'ready';
  }

  /** The Redis this recorder was opened on (workers add their jobs there). */
  get redis(): GatewayRedisSettings {
    const { url, prefix, addTimeoutMs, connectTimeoutMs } = this.#options.redis;
    return { url, prefix, addTimeoutMs, connectTimeoutMs };
  }

  /** True while workers hand their jobs to Redis themselves: Redis comes first and the spool is drained. */
  get workersAddDirectly(): boolean {
    return this.#redisFirst;
  }

  /** `listener` hears every change of workersAddDirectly (the primary tells its workers). */
  onRouteChange(listener: (direct: boolean) => void): void {
    this.#routeListeners.push(listener);
  }

  /**
   * Makes one review's jobs durable within `waitMs`: Redis, else the spool. Resolves (never
   * rejects) with how, or with why not. The producer sends the jobs of reviews arriving together
   * in one batch; a job Redis refused (or a review out of time) goes to the spool, the jobs Redis
   * acknowledged do not.
   */
  record(jobs: readonly SideEffectJob[], waitMs: number): Promise<RecordOutcome> {
    return this.recordPrepared(jobs.map(prepareJob), waitMs);
  }

  /**
   * record, for jobs serialised where they were built (a worker): their JSON is stored and spooled
   * as it is. `fallback`: the worker tried Redis already, so they go to the spool at once (and, when
   * Redis failed them, the recorder spools until Redis answers and the spool is drained).
   */
  async recordPrepared(
    jobs: readonly PreparedJob[],
    waitMs: number,
    fallback?: WorkerFallback,
  ): Promise<RecordOutcome> {
    if (this.#closed) return { ok: false, code: 'closed', reason: 'the gateway is shutting down' };
    if (fallback !== undefined) {
      if (fallback.redisDown) this.#redisDown(fallback.reason);
      return this.#spoolJobs(jobs, fallback.reason);
    }
    let redisProblem = this.#redisFirst ? this.#notReady() : this.#downReason;
    if (redisProblem !== undefined) {
      this.#redisDown(redisProblem);
      return this.#spoolJobs(jobs, redisProblem);
    }
    const budgetMs = redisWaitMs(this.#options.redis.addTimeoutMs, waitMs);
    let settled: PromiseSettledResult<AddResult>[];
    try {
      settled = await withDeadline(Promise.allSettled(jobs.map((job) => this.#producer.addPrepared(job))), budgetMs);
    } catch (error) {
      // Out of time: whichever of them Redis still stores is a duplicate when the spool drains.
      redisProblem = describeError(error);
      if (redisHadItsTime(budgetMs, this.#options.redis.addTimeoutMs)) this.#redisDown(redisProblem);
      return this.#spoolJobs(jobs, redisProblem);
    }
    const acknowledged: PreparedJob[] = [];
    const outcomes: AddOutcome[] = [];
    const refused: PreparedJob[] = [];
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        acknowledged.push(jobs[i]!);
        outcomes.push(result.value.outcome);
      } else {
        refused.push(jobs[i]!);
        redisProblem ??= describeError(result.reason);
      }
    });
    this.acknowledgedElsewhere({ jobs: acknowledged, outcomes });
    if (redisProblem === undefined) return { ok: true, via: 'redis' };
    this.#redisDown(redisProblem);
    return this.#spoolJobs(refused, redisProblem);
  }

  /** Jobs Redis acknowledged (in a worker, or here): counted, and kept in the spool for a replay. */
  acknowledgedElsewhere({ jobs, outcomes }: AcknowledgedJobs): void {
    if (this.#closed) return;
    jobs.forEach((job, i) => this.#metrics.jobs.inc({ plugin: job.plugin, outcome: outcomes[i] ?? 'added' }));
    this.#keepForReplay(jobs);
    // Soon after a replay, a worker's batch may hold jobs the Redis that was replaced acknowledged
    // (a worker that stalled, or still wrote to a demoted master): add them again too.
    if (this.#replayedAt !== undefined && Date.now() - this.#replayedAt < LATE_ACKNOWLEDGEMENTS_MS) {
      this.#addAgain(jobs);
    }
  }

  #addAgain(jobs: readonly PreparedJob[]): void {
    Promise.all(jobs.map((job) => this.#producer.addPrepared(job))).then(
      (results) => this.#countHandedOn(jobs, results, 'replay'),
      () => (this.#replayOwed = true), // Redis failed: the whole window is replayed again when it answers
    );
  }

  /** Stops the background work, writes what waits for the replay spool, closes Redis and the spool. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#maintaining;
    this.#background.flush();
    await this.#backgroundWrites;
    await this.#producer.close();
    await this.#spool.close();
  }

  async #spoolJobs(jobs: readonly PreparedJob[], redisProblem: string): Promise<RecordOutcome> {
    const started = performance.now();
    try {
      await this.#spool.append(encodeJobBatch(jobs));
    } catch (error) {
      for (const job of jobs) this.#metrics.jobs.inc({ plugin: job.plugin, outcome: 'error' });
      const code = isHookgateError(error) ? error.code : HG_ERR_SPOOL_WRITE_FAILED.code;
      const reason = `Redis did not take them (${redisProblem}), and the spool could not keep them: ${describeError(error)}`;
      this.#log.error(
        { spoolDir: this.#spool.dir, code, jobs: jobs.length, plugins: pluginsOf(jobs), redis: redisProblem },
        'side-effect jobs not recorded: Redis did not take them and the spool refused them; the hooks fail by their failurePolicy',
      );
      return { ok: false, code, reason };
    }
    this.#metrics.fsyncSeconds.observe((performance.now() - started) / 1000);
    for (const job of jobs) this.#metrics.jobs.inc({ plugin: job.plugin, outcome: 'spooled' });
    this.#kick();
    return { ok: true, via: 'spool' };
  }

  #notReady(): string | undefined {
    const status = this.#producer.connectionStatus;
    return status === 'ready'
      ? undefined
      : `Redis at ${redactRedisUrl(this.#options.redis.url)} is not connected (${status})`;
  }

  #redisDown(reason: string): void {
    this.#downReason = reason;
    if (!this.#redisFirst) return;
    this.#log.warn(
      { redis: redactRedisUrl(this.#options.redis.url), reason, spoolDir: this.#spool.dir },
      'side-effect queue: Redis did not acknowledge; jobs go to the spool until Redis answers and the spool is drained',
    );
    this.#setRedisFirst(false);
  }

  #setRedisFirst(redisFirst: boolean): void {
    this.#redisFirst = redisFirst;
    for (const listener of this.#routeListeners) listener(redisFirst);
  }

  #countHandedOn(
    jobs: readonly { readonly plugin: string }[],
    results: readonly AddResult[],
    via: 'drain' | 'replay',
  ): void {
    results.forEach((result, i) =>
      this.#metrics.handedOn.inc({ plugin: jobs[i]!.plugin, via, outcome: result.outcome }),
    );
  }

  /** Acknowledged by Redis: also kept in the spool (acknowledged at once) for a replay, in batches. */
  #keepForReplay(jobs: readonly PreparedJob[]): void {
    if (this.#replayWindowMs > 0) this.#background.add(...jobs);
  }

  #writeForReplay(jobs: readonly PreparedJob[]): void {
    this.#backgroundWrites = this.#backgroundWrites.then(async () => {
      try {
        const { seq } = await this.#spool.append(encodeJobBatch(jobs));
        // Already in Redis: a crash before the acknowledgement is persisted only re-adds them (duplicates).
        this.#spool.acknowledgeSoon(seq);
      } catch (error) {
        // Replay is a second line of defence; a full spool keeps its room for pending jobs.
        this.#log.warn(
          { spoolDir: this.#spool.dir, jobs: jobs.length, error: describeError(error) },
          'side-effect spool: jobs Redis acknowledged could not be kept for a replay; they are not replayed if Redis loses them',
        );
      }
    });
  }

  /** Runs the background work once more (single-flight): identity check, replay, drain. */
  #kick(): void {
    if (this.#closed) return;
    if (this.#maintaining !== undefined) {
      this.#maintainAgain = true;
      return;
    }
    this.#maintaining = (async () => {
      do {
        this.#maintainAgain = false;
        try {
          await this.#maintainOnce();
        } catch (error) {
          this.#log.error({ error: describeError(error) }, 'side-effect queue: background work failed; retrying');
        }
      } while (this.#maintainAgain && !this.#closed);
    })().finally(() => (this.#maintaining = undefined));
  }

  async #maintainOnce(): Promise<void> {
    const status = this.#producer.connectionStatus;
    const reconnected = status === 'ready' && this.#lastStatus !== 'ready';
    this.#lastStatus = status;
    if (status !== 'ready') return;
    const identityDue = Date.now() - this.#lastIdentityCheck >= this.#options.redis.identityCheckSeconds * 1000;
    if (reconnected || identityDue || this.#runId === undefined) {
      if (!(await this.#checkIdentity())) return;
    }
    if (this.#replayOwed && !(await this.#replay())) return;
    if (this.#spool.stats().pendingRecords > 0 && !(await this.#drain())) return;
    if (!this.#redisFirst) {
      this.#setRedisFirst(true);
      this.#log.info(
        { redis: redactRedisUrl(this.#options.redis.url) },
        'side-effect queue: Redis acknowledges again and the spool is drained; jobs go to Redis first',
      );
    }
  }

  /** False when Redis did not answer (try again later). */
  async #checkIdentity(): Promise<boolean> {
    let runId: string;
    try {
      runId = await this.#producer.redisRunId();
    } catch {
      return false;
    }
    this.#lastIdentityCheck = Date.now();
    const known = this.#runId ?? (await readLastRunId(this.#options.identityFile));
    if (known !== runId) {
      await writeLastRunId(this.#options.identityFile, runId).catch((error: unknown) =>
        this.#log.warn(
          { file: this.#options.identityFile, error: describeError(error) },
          'cannot keep the Redis run_id',
        ),
      );
    }
    this.#runId = runId;
    if (known !== undefined && known !== runId && this.#replayWindowMs > 0) {
      this.#log.warn(
        { previousRunId: known, runId, replayWindowMinutes: this.#options.spool.replayWindowMinutes },
        'side-effect queue: Redis restarted, failed over (Sentinel promoted a replica; on Cluster, another master owns the queue slot) or was replaced: another run_id; replaying the jobs acknowledged in the replay window (duplicates are skipped by job id)',
      );
      this.#replayOwed = true;
    }
    return true;
  }

  /** Adds again every job kept from the replay window; false when Redis failed (replayed again later). */
  async #replay(): Promise<boolean> {
    // Jobs acknowledged just before the restart may still wait for their batch: in a worker (sent
    // within ACKNOWLEDGED_BATCH_MS), then here.
    await new Promise((resolve) => setTimeout(resolve, 2 * ACKNOWLEDGED_BATCH_MS));
    this.#background.flush();
    await this.#backgroundWrites;
    let replayed = 0;
    try {
      for await (const record of this.#spool.replaySince(Date.now() - this.#replayWindowMs)) {
        const jobs = this.#decode(record);
        if (jobs.length === 0) continue;
        this.#countHandedOn(jobs, await Promise.all(jobs.map((job) => this.#producer.add(job))), 'replay');
        replayed += jobs.length;
      }
    } catch (error) {
      this.#metrics.replays.inc({ result: 'failed' });
      this.#redisDown(describeError(error));
      return false;
    }
    this.#replayOwed = false;
    this.#replayedAt = Date.now();
    this.#metrics.replays.inc({ result: 'done' });
    this.#log.info({ jobs: replayed }, 'side-effect queue: replay done');
    return true;
  }

  /** Hands pending spool records to Redis, oldest first; false when Redis failed. */
  async #drain(): Promise<boolean> {
    let drained = 0;
    for (;;) {
      const records = await this.#spool.readPending(DRAIN_WINDOW);
      if (records.length === 0) break;
      try {
        await Promise.all(
          records.map(async (record) => {
            const jobs = this.#decode(record);
            this.#countHandedOn(jobs, await Promise.all(jobs.map((job) => this.#producer.add(job))), 'drain');
            drained += jobs.length;
          }),
        );
      } catch (error) {
        // Records whose jobs did land are added again next time: duplicates, by their ids.
        this.#redisDown(describeError(error));
        return false;
      }
      await Promise.all(records.map((record) => this.#spool.acknowledge(record.seq)));
      if (this.#closed) break;
    }
    if (drained > 0) this.#log.info({ jobs: drained }, 'side-effect spool drained to Redis');
    return true;
  }

  /** The jobs of a record; what does not decode is logged and counted, never thrown. */
  #decode(record: SpoolRecord): SideEffectJob[] {
    const { jobs, problems } = decodeJobBatch(record.payload);
    if (problems.length > 0) {
      this.#metrics.undecodableRecords.inc(problems.length);
      this.#log.error(
        { spoolDir: this.#spool.dir, seq: record.seq, problems: problems.slice(0, 5) },
        'side-effect spool: a record holds what is not a job; it is skipped (its jobs are lost)',
      );
    }
    return jobs;
  }
}

function pluginsOf(jobs: readonly { readonly plugin: string }[]): string[] {
  return [...new Set(jobs.map((job) => job.plugin))];
}
