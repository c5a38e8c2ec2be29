/**
 * SideEffectProducer: hands side-effect jobs to BullMQ, one queue per plugin, over one ioredis
 * connection of its own. It never buffers while Redis is away: with the connection not ready it
 * rejects at once, and an add that Redis does not acknowledge within addTimeoutMs rejects too
 * (HG_ERR_QUEUE_UNAVAILABLE), so the caller can spool the job and answer the apiserver in time.
 *
 * Group commit (docs/performance.md: BullMQ's add costs more CPU than a side effect's budget, most
 * of it per round trip): adds are sent together in one MULTI. With nothing in flight a batch goes
 * out at the end of the current tick; adds arriving while it is in flight wait for it and go out
 * together next, so batching adds no latency at low load.
 *
 * Added or duplicate: BullMQ's add returns the job id either way. Each add is preceded by an
 * EXISTS on the job's hash inside the same MULTI (atomic, so nothing comes between): 0 means this
 * add stored it, 1 that a job with that id was already there. No Lua of our own, no second trip.
 */
import { Job, Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { HG_ERR_QUEUE_ADD_FAILED, HG_ERR_QUEUE_UNAVAILABLE } from '@hookgate/errors';
import { BACKOFF_TYPE } from './backoff.js';
import { jobIdOf } from './job-id.js';
import type { SideEffectJob } from './job-schema.js';
import {
  redactRedisUrl,
  resolveProducerOptions,
  type ResolvedProducerOptions,
  type SideEffectProducerOptions,
} from './producer-options.js';
import { JOB_NAMES, jobKey, reconcileQueueName } from './queue-names.js';
import { readRedisRunId } from './redis-identity.js';

/** The job data as stored: the job itself (decoders ignore fields they do not know). */
export type StoredSideEffectJob = SideEffectJob;

export type AddOutcome = 'added' | 'duplicate';

export interface AddResult {
  readonly jobId: string;
  readonly queue: string;
  /** 'added': this call stored the job; 'duplicate': a job with this id was already there. */
  readonly outcome: AddOutcome;
}

export class SideEffectProducer {
  readonly options: ResolvedProducerOptions;
  readonly #redis: Redis;
  readonly #queues = new Map<string, Queue<StoredSideEffectJob>>();
  readonly #onConnectionError: ((error: Error) => void) | undefined;
  #lastConnectionError: Error | undefined;
  #closed = false;
  /** Adds waiting for the next MULTI, in order. */
  #pending: PendingAdd[] = [];
  #flushing = false;
  #flushQueued = false;

  constructor(options: SideEffectProducerOptions) {
    this.options = resolveProducerOptions(options);
    this.#onConnectionError = options.onConnectionError;
    this.#redis = new Redis(this.options.redisUrl, {
      // Fail fast: a command while disconnected rejects at once instead of waiting in memory.
      enableOfflineQueue: false,
      // A command cut off by a lost connection is not re-sent later: the caller has spooled it.
      maxRetriesPerRequest: 0,
      connectTimeout: this.options.connectTimeoutMs,
      // Reconnect quickly (up to every 2 s) so the spool drains soon after Redis returns.
      retryStrategy: (times) => Math.min(times * 100, 2_000),
    });
    this.#redis.on('error', (error: Error) => this.#connectionError(error));
    this.#redis.on('ready', () => (this.#lastConnectionError = undefined));
  }

  /** ioredis' status: 'ready' when adds can succeed, anything else rejects them at once; 'end' once closed. */
  get connectionStatus(): string {
    return this.#closed ? 'end' : this.#redis.status;
  }

  /** The queue name and the job id a job goes to (also what the spool records). */
  placeOf(job: SideEffectJob): { readonly queue: string; readonly jobId: string } {
    return { queue: reconcileQueueName(job.plugin), jobId: jobIdOf(job) };
  }

  /**
   * Adds one job under its deterministic id (sent with the adds around it in one MULTI). Rejects
   * with HG_ERR_QUEUE_UNAVAILABLE (not connected, or no answer within addTimeoutMs) or
   * HG_ERR_QUEUE_ADD_FAILED (Redis answered an error); the job may have been stored all the same
   * after a timeout, which a later add reports as duplicate.
   */
  add(job: SideEffectJob): Promise<AddResult> {
    let place: { readonly queue: string; readonly jobId: string };
    let unavailable: (why: string, cause?: unknown) => Error;
    try {
      place = this.placeOf(job);
      unavailable = this.#unavailable(`side-effect job ${place.jobId} for plugin ${job.plugin} not added`);
      this.#requireReady(unavailable);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const { queue: queueName, jobId } = place;
    const deadline = this.options.addTimeoutMs;
    return new Promise<AddResult>((resolve, reject) => {
      const timer = setTimeout(() => settle(unavailable(`not answering within ${deadline} ms`)), deadline);
      const settle = (answer: AddResult | Error) => {
        if (pending.settled) return;
        pending.settled = true;
        clearTimeout(timer);
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      };
      const pending: PendingAdd = { job, jobId, queueName, unavailable, settle, settled: false };
      this.#pending.push(pending);
      this.#scheduleFlush();
    });
  }

  /** Group commit: with nothing in flight, send at the end of this tick; else after the batch in flight. */
  #scheduleFlush(): void {
    if (this.#flushing || this.#flushQueued) return;
    this.#flushQueued = true;
    process.nextTick(() => {
      this.#flushQueued = false;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      while (this.#pending.length > 0) {
        // Adds whose caller stopped waiting (timed out) are not sent.
        const batch = this.#pending.splice(0, MAX_BATCH_JOBS).filter((add) => !add.settled);
        if (batch.length > 0) await this.#send(batch);
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** One MULTI: per job an EXISTS on its hash, then BullMQ's add script. Settles every add of the batch. */
  async #send(batch: readonly PendingAdd[]): Promise<void> {
    let replies: [Error | null, unknown][] | null;
    try {
      if (this.#closed || this.#redis.status !== 'ready') {
        const last = this.#lastConnectionError;
        throw new Error(
          `not connected (${this.#closed ? 'closed' : this.#redis.status}${last ? `: ${last.message}` : ''})`,
        );
      }
      const multi = (await this.#queueFor(batch[0]!.queueName).backend.client).multi();
      for (const add of batch) {
        const queue = this.#queueFor(add.queueName);
        // Loads BullMQ's scripts on the connection on a queue's first use (a resolved promise after).
        await queue.backend.client;
        multi.runCommand('exists', [jobKey(this.options.prefix, add.queueName, add.jobId)]);
        const json = new Job(queue, JOB_NAMES.sideEffect, add.job, this.#jobOptions(add.jobId), add.jobId).asJSON();
        // Queued synchronously; the add's own promise carries nothing of use in a MULTI.
        queue.backend.addJobToTransaction(multi, json, add.jobId).catch(() => undefined);
      }
      // Bounded like each add, so that a Redis that stopped answering does not hold later batches.
      replies = await withTimeout(multi.exec(), this.options.addTimeoutMs);
    } catch (error) {
      for (const add of batch) add.settle(this.#failure(add, error));
      return;
    }
    batch.forEach((add, i) => {
      const [existsError, existed] = replies?.[2 * i] ?? [new Error('no reply'), null];
      const [addError, added] = replies?.[2 * i + 1] ?? [new Error('no reply'), null];
      const error =
        existsError ??
        addError ??
        (typeof added === 'number' && added < 0 ? new Error(`add script answered ${added}`) : null);
      if (error !== null) return add.settle(this.#failure(add, error));
      add.settle({ jobId: add.jobId, queue: add.queueName, outcome: existed === 0 ? 'added' : 'duplicate' });
    });
  }

  #failure(add: PendingAdd, error: unknown): Error {
    if (error instanceof TimeoutError) return add.unavailable(`not answering within ${this.options.addTimeoutMs} ms`);
    const reply = replyErrorOf(error);
    if (reply !== undefined) {
      return new HG_ERR_QUEUE_ADD_FAILED(
        add.jobId,
        add.job.plugin,
        redactRedisUrl(this.options.redisUrl),
        reply.message,
        {
          cause: error,
        },
      );
    }
    return add.unavailable(`not reachable (${error instanceof Error ? error.message : String(error)})`, error);
  }

  /**
   * Redis's run_id (INFO server): it changes when Redis restarts, which without persistence means
   * it lost its jobs. Rejects like add when Redis is not reachable.
   */
  async redisRunId(): Promise<string> {
    const unavailable = this.#unavailable("cannot read Redis's run_id");
    this.#requireReady(unavailable);
    try {
      return await withTimeout(readRedisRunId(this.#redis), this.options.addTimeoutMs);
    } catch (error) {
      if (error instanceof TimeoutError) throw unavailable(`not answering within ${this.options.addTimeoutMs} ms`);
      throw unavailable(`not usable (${error instanceof Error ? error.message : String(error)})`, error);
    }
  }

  /** Closes the queues and the connection; adds after this reject. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // The queues share our connection (BullMQ does not quit a connection it was given).
    await Promise.allSettled([...this.#queues.values()].map((queue) => queue.close()));
    if (this.#redis.status !== 'ready') {
      // Not connected: stop connecting. (ioredis stays 'reconnecting' without an 'end' event then.)
      this.#redis.disconnect();
      return;
    }
    // quit() resolves on Redis's OK, before the socket is closed: wait for 'end' too (bounded).
    const ended = new Promise<void>((resolve) => this.#redis.once('end', () => resolve()));
    await withTimeout(this.#redis.quit(), this.options.addTimeoutMs).catch(() => this.#redis.disconnect());
    await withTimeout(ended, this.options.addTimeoutMs).catch(() => this.#redis.disconnect());
  }

  /** HG_ERR_QUEUE_UNAVAILABLE for one operation: `what` failed, because Redis is `why`. */
  #unavailable(what: string): (why: string, cause?: unknown) => Error {
    return (why, cause) => new HG_ERR_QUEUE_UNAVAILABLE(what, redactRedisUrl(this.options.redisUrl), why, { cause });
  }

  /** Fail fast: nothing is sent, or queued in memory, while the connection is not ready. */
  #requireReady(unavailable: (why: string, cause?: unknown) => Error): void {
    if (this.#closed) throw unavailable('closed (the producer was closed)');
    if (this.#redis.status !== 'ready') {
      const last = this.#lastConnectionError;
      throw unavailable(`not connected (${this.#redis.status}${last ? `: ${last.message}` : ''})`, last);
    }
  }

  #queueFor(name: string): Queue<StoredSideEffectJob> {
    let queue = this.#queues.get(name);
    if (queue === undefined) {
      queue = new Queue<StoredSideEffectJob>(name, { connection: this.#redis, prefix: this.options.prefix });
      // Errors also arrive on the connection's listener; without one here EventEmitter would throw.
      queue.on('error', () => {});
      this.#queues.set(name, queue);
    }
    return queue;
  }

  #jobOptions(jobId: string): JobsOptions {
    return {
      jobId,
      attempts: this.options.attempts,
      backoff: { type: BACKOFF_TYPE },
      removeOnComplete: { age: this.options.keepCompleted.ageSeconds, count: this.options.keepCompleted.count },
      // The failed set is the dead-letter set: an operator retries or removes its jobs.
      removeOnFail: false,
    };
  }

  #connectionError(error: Error): void {
    this.#lastConnectionError = error;
    this.#onConnectionError?.(error);
  }
}

/** At most this many adds in one MULTI (about 1 KB each on the wire). */
const MAX_BATCH_JOBS = 256;

interface PendingAdd {
  readonly job: SideEffectJob;
  readonly jobId: string;
  readonly queueName: string;
  readonly unavailable: (why: string, cause?: unknown) => Error;
  readonly settle: (answer: AddResult | Error) => void;
  settled: boolean;
}

/**
 * ioredis' ReplyError: Redis answered with an error (OOM, READONLY, NOAUTH, ...). A command Redis
 * refused while queueing it aborts the MULTI (EXECABORT): the refusal itself says why.
 */
function replyErrorOf(error: unknown): Error | undefined {
  if (!(error instanceof Error) || error.name !== 'ReplyError') return undefined;
  const previous = (error as { previousErrors?: unknown }).previousErrors;
  if (Array.isArray(previous) && previous[0] instanceof Error) return previous[0];
  return error;
}

class TimeoutError extends Error {}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
