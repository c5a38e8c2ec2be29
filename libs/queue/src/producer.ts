/**
 * SideEffectProducer: hands side-effect jobs to BullMQ, one queue per plugin, over one ioredis
 * connection of its own. It never buffers while Redis is away: with the connection not ready it
 * rejects at once, and an add that Redis does not acknowledge within addTimeoutMs rejects too
 * (HG_ERR_QUEUE_UNAVAILABLE), so the caller can spool the job and answer the apiserver in time.
 *
 * Group commit (docs/performance.md: BullMQ's add costs more CPU than a side effect's budget, much
 * of it per message): with nothing in flight, the adds of the current tick are sent at its end;
 * adds arriving while a batch is in flight wait for it and go out together next, so batching adds
 * no latency at low load. A batch is one corked socket write, no MULTI (ioredis builds a pipeline
 * object per MULTI, copying every BullMQ script onto it: more CPU than the write it saves).
 *
 * Added or duplicate: BullMQ's add returns the job id either way. So each add stamps a random
 * `addToken` into the job data and reads the stored data back with an HGET sent right behind it
 * (same connection, so answered after the add; one round trip for both): our token means this add
 * stored it; another token means the job was already there. No Lua of our own.
 */
import { randomUUID } from 'node:crypto';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { HG_ERR_QUEUE_ADD_FAILED, HG_ERR_QUEUE_UNAVAILABLE } from '@hookgate/errors';
import { BACKOFF_TYPE } from './backoff.js';
import { jobIdOf } from './job-id.js';
import type { SideEffectJob } from './job-schema.js';
import { prepareJob, withStringField, type PreparedJob } from './prepared-job.js';
import {
  redactRedisUrl,
  resolveProducerOptions,
  type ResolvedProducerOptions,
  type SideEffectProducerOptions,
} from './producer-options.js';
import { JOB_NAMES, jobKey, reconcileQueueName } from './queue-names.js';
import { createRedisClient, describeRedisError, type RedisClient } from './redis-client.js';
import { readRedisRunId } from './redis-identity.js';
import { StandardJobAdd, type ScriptClient } from './standard-job-add.js';

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
  readonly #redis: RedisClient;
  readonly #queues = new Map<string, Queue<StoredSideEffectJob>>();
  /** Per queue: BullMQ's add with the options packed once (standard-job-add.ts). */
  readonly #adds = new Map<string, Promise<StandardJobAdd>>();
  readonly #readyAdds = new Map<string, StandardJobAdd>();
  /** Queue names by plugin (validating a name each time is per-job work). */
  readonly #queueNames = new Map<string, string>();
  readonly #onConnectionError: ((error: Error) => void) | undefined;
  #lastConnectionError: Error | undefined;
  #closed = false;
  /** Adds waiting for the next batch, in order. */
  #pending: PendingAdd[] = [];
  #flushing = false;
  #flushQueued = false;

  constructor(options: SideEffectProducerOptions) {
    this.options = resolveProducerOptions(options);
    this.#onConnectionError = options.onConnectionError;
    this.#redis = createRedisClient(this.options.redisUrl, {
      // Fail fast: a command while disconnected rejects at once instead of waiting in memory.
      offlineQueue: false,
      // A command cut off by a lost connection is not re-sent later: the caller has spooled it.
      maxRetriesPerRequest: 0,
      connectTimeoutMs: this.options.connectTimeoutMs,
      // Reconnect quickly (up to every 2 s) so the spool drains soon after Redis returns.
      retryDelayMs: (times) => Math.min(times * 100, 2_000),
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
   * Adds one job under its deterministic id (sent with the adds around it in one write). Rejects
   * with HG_ERR_QUEUE_UNAVAILABLE (not connected, or no answer within addTimeoutMs) or
   * HG_ERR_QUEUE_ADD_FAILED (Redis answered an error); the job may have been stored all the same
   * after a timeout, which a later add reports as duplicate.
   */
  add(job: SideEffectJob): Promise<AddResult> {
    let prepared: PreparedJob;
    try {
      prepared = prepareJob(job);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return this.addPrepared(prepared);
  }

  /** add, for a job serialised where it was built (its JSON is stored as it is, not parsed again). */
  addPrepared(job: PreparedJob): Promise<AddResult> {
    let queueName: string;
    const { jobId } = job;
    let unavailable: (why: string, cause?: unknown) => Error;
    try {
      queueName = this.#queueNameOf(job.plugin);
      unavailable = this.#unavailable(`side-effect job ${jobId} for plugin ${job.plugin} not added`);
      this.#requireReady(unavailable);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
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
      const pending: PendingAdd = { job, jobId, queueName, token: randomUUID(), unavailable, settle, settled: false };
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

  /**
   * One write: per job BullMQ's add script, then an HGET of the stored data (whose token tells who
   * stored it), all queued on the connection in this tick with the socket corked. Replies come in
   * order on the one connection, so the HGET sees the result of its add. Settles every add.
   */
  async #send(batch: readonly PendingAdd[]): Promise<void> {
    const sent: { add: PendingAdd; stored: Promise<string>; data: Promise<string | null> }[] = [];
    try {
      const adds: StandardJobAdd[] = [];
      for (const add of batch) {
        // Loads BullMQ's scripts on the connection on a queue's first use (resolved promises after).
        adds.push(this.#readyAdds.get(add.queueName) ?? (await this.#standardAddFor(add.queueName)));
      }
      if (this.#closed || this.#redis.status !== 'ready') {
        const last = this.#lastConnectionError;
        throw new Error(
          `not connected (${this.#closed ? 'closed' : this.#redis.status}${last ? `: ${describeRedisError(last)}` : ''})`,
        );
      }
      const client = (await this.#queueFor(batch[0]!.queueName).backend.client) as unknown as ScriptClient;
      // Corked: the batch's commands leave in one writev instead of a write each. (A Cluster client
      // has a socket per node and no `stream`: its commands go uncorked.)
      const socket = this.#redis.isCluster ? undefined : (this.#redis as Redis).stream;
      const timestamp = Date.now();
      socket?.cork();
      try {
        batch.forEach((add, i) => {
          const data = withStringField(add.job, 'addToken', add.token);
          sent.push({
            add,
            stored: adds[i]!.add(client, add.jobId, data, timestamp),
            data: this.#redis.hget(jobKey(this.options.prefix, add.queueName, add.jobId), 'data'),
          });
        });
      } finally {
        socket?.uncork();
      }
    } catch (error) {
      for (const { stored, data } of sent) void Promise.allSettled([stored, data]);
      for (const add of batch) add.settle(this.#failure(add, error));
      return;
    }
    // Bounded like each add, so that a Redis that stopped answering does not hold later batches.
    await withTimeout(
      Promise.all(
        sent.map(async ({ add, stored, data }) => {
          try {
            await stored;
            const outcome = storedBy(await data, add.token) ? 'added' : 'duplicate';
            add.settle({ jobId: add.jobId, queue: add.queueName, outcome });
          } catch (error) {
            void data.catch(() => undefined);
            add.settle(this.#failure(add, error));
          }
        }),
      ),
      this.options.addTimeoutMs,
    ).catch(() => undefined);
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
      return await withTimeout(readRedisRunId(this.#redis, this.options.prefix), this.options.addTimeoutMs);
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
    // ioredis's quit() ends only the data connection: behind Sentinel the failover detector's
    // subscriptions to the Sentinels stay open (disconnect() ends them), and the process would not exit.
    this.#redis.disconnect();
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
      throw unavailable(`not connected (${this.#redis.status}${last ? `: ${describeRedisError(last)}` : ''})`, last);
    }
  }

  #queueNameOf(plugin: string): string {
    let name = this.#queueNames.get(plugin);
    if (name === undefined) {
      name = reconcileQueueName(plugin);
      this.#queueNames.set(plugin, name);
    }
    return name;
  }

  /** BullMQ's add for this queue, once its scripts are loaded on the connection. */
  #standardAddFor(name: string): Promise<StandardJobAdd> {
    let add = this.#adds.get(name);
    if (add === undefined) {
      const queue = this.#queueFor(name);
      add = queue.backend.client
        .then(() => StandardJobAdd.create(queue, JOB_NAMES.sideEffect, this.#jobOptions()))
        .then((ready) => {
          this.#readyAdds.set(name, ready);
          return ready;
        });
      // A failed load (not connected) is tried again with the next batch.
      add.catch(() => this.#adds.delete(name));
      this.#adds.set(name, add);
    }
    return add;
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

  #jobOptions(): Omit<JobsOptions, 'jobId'> {
    return {
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
  // The token is a random UUID: found in the data, it is ours (cheaper than parsing the job).
  return stored === null || stored.includes(token);
}

/** At most this many adds in one write (about 1 KB each on the wire). */
const MAX_BATCH_JOBS = 256;

interface PendingAdd {
  readonly job: PreparedJob;
  readonly jobId: string;
  readonly queueName: string;
  /** Stored in the job data: reading back our token means this add stored the job. */
  readonly token: string;
  readonly unavailable: (why: string, cause?: unknown) => Error;
  readonly settle: (answer: AddResult | Error) => void;
  settled: boolean;
}

/** ioredis' ReplyError: Redis answered with an error (OOM, READONLY, NOAUTH, NOPERM, WRONGTYPE, ...). */
function replyErrorOf(error: unknown): Error | undefined {
  return error instanceof Error && error.name === 'ReplyError' ? error : undefined;
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
