/**
 * SideEffectProducer: hands side-effect jobs to BullMQ, one queue per plugin, over one ioredis
 * connection of its own. It never buffers: with the connection not ready it rejects at once, and
 * an add that Redis does not acknowledge within addTimeoutMs rejects too (HG_ERR_QUEUE_UNAVAILABLE),
 * so the caller can spool the job and answer the apiserver in time.
 *
 * Added or duplicate: BullMQ's add returns the same Job object whether it stored the job or found
 * one with that id (its script only emits a `duplicated` event). So each add stamps a random
 * `addToken` into the job data and reads the stored job's data back: our token means this add
 * stored it; another token means the job was already there. One extra HGET, no Lua of our own.
 */
import { randomUUID } from 'node:crypto';
import { Queue, type JobsOptions } from 'bullmq';
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

/** The job data as stored: the job plus the token of the add that stored it (decoders ignore it). */
export type StoredSideEffectJob = SideEffectJob & { readonly addToken: string };

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
   * Adds one job under its deterministic id. Rejects with HG_ERR_QUEUE_UNAVAILABLE (not connected,
   * or no answer within addTimeoutMs) or HG_ERR_QUEUE_ADD_FAILED (Redis answered an error); the
   * job may have been stored all the same after a timeout, which a later add reports as duplicate.
   */
  async add(job: SideEffectJob): Promise<AddResult> {
    const { queue: queueName, jobId } = this.placeOf(job);
    const unavailable = this.#unavailable(`side-effect job ${jobId} for plugin ${job.plugin} not added`);
    this.#requireReady(unavailable);
    const queue = this.#queueFor(queueName);
    const data: StoredSideEffectJob = { ...job, addToken: randomUUID() };
    const deadline = this.options.addTimeoutMs;
    try {
      // One deadline for both round trips: the add, then reading back whose token was stored.
      const stored = await withTimeout(
        (async () => {
          await queue.add(JOB_NAMES.sideEffect, data, this.#jobOptions(jobId));
          return this.#redis.hget(jobKey(this.options.prefix, queueName, jobId), 'data');
        })(),
        deadline,
      );
      return { jobId, queue: queueName, outcome: storedBy(stored, data.addToken) ? 'added' : 'duplicate' };
    } catch (error) {
      if (error instanceof TimeoutError) throw unavailable(`not answering within ${deadline} ms`);
      if (isReplyError(error)) {
        throw new HG_ERR_QUEUE_ADD_FAILED(jobId, job.plugin, redactRedisUrl(this.options.redisUrl), error.message, {
          cause: error,
        });
      }
      throw unavailable(`not reachable (${error instanceof Error ? error.message : String(error)})`, error);
    }
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

/** Our token in the stored data: this add stored it. No job at all: it was stored, ran and was removed already. */
function storedBy(stored: string | null, token: string): boolean {
  if (stored === null) return true;
  try {
    return (JSON.parse(stored) as { addToken?: unknown }).addToken === token;
  } catch {
    return false;
  }
}

/** ioredis' ReplyError: Redis answered with an error (OOM, READONLY, NOAUTH, ...). */
function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
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
