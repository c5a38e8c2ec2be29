/**
 * BullMQ's add of a standard job (no delay, priority, parent or repeat) through BullMQ's own
 * script and Scripts API, with what is the same for every job of a queue computed once: the
 * packed options, the keys. Per job only the id, the data and the time vary.
 *
 * Why (docs/performance.md, "Side-effect jobs"): Queue.add builds a Job object, its JSON (four
 * JSON.stringify calls) and msgpacks the options for every job, all per-job CPU in the gateway
 * primary for arguments that barely change.
 *
 * It leans on BullMQ internals (the argument layout RedisQueueBackend.addJobToTransaction gives
 * addStandardJob): bullmq is pinned to an exact version, and standard-job-add.test.ts compares
 * these arguments with the ones BullMQ itself sends, so an upgrade that changes them fails there.
 * The stored job is the one Queue.add stores: the controller's BullMQ Worker reads it unchanged.
 */
import { Job, type JobsOptions, type Queue } from 'bullmq';
import { JOB_ID_PREFIX } from './job-id.js';

/** Every job id has this length (prefix + 64 hex digits): the packed options have a fixed slot for it. */
const TEMPLATE_JOB_ID = `${JOB_ID_PREFIX}${'0'.repeat(64)}`;

/** The part of a BullMQ client this uses: how BullMQ runs one of its scripts. */
export interface ScriptClient {
  runCommand(name: string, args: unknown[]): Promise<unknown>;
}

export class StandardJobAdd {
  readonly #queue: Queue;
  readonly #name: string;
  /** msgpack of the job options with TEMPLATE_JOB_ID, and where its bytes are. */
  readonly #packedOptions: Buffer;
  readonly #idOffset: number;

  private constructor(queue: Queue, name: string, packedOptions: Buffer, idOffset: number) {
    this.#queue = queue;
    this.#name = name;
    this.#packedOptions = packedOptions;
    this.#idOffset = idOffset;
  }

  /**
   * Packs `options` (plus a jobId) as BullMQ does, by running BullMQ's own add of a template job
   * against a client that only records the script call.
   */
  static async create(queue: Queue, name: string, options: Omit<JobsOptions, 'jobId'>): Promise<StandardJobAdd> {
    const call = await bullmqAddCall(queue, name, '{}', { ...options, jobId: TEMPLATE_JOB_ID }, 0);
    const packedOptions = call.args.at(-1);
    if (!Buffer.isBuffer(packedOptions) || !call.name.startsWith('addStandardJob:'))
      throw new Error(`BullMQ's add is not the one this was written for (${call.name}): pin the bullmq version`);
    const idOffset = packedOptions.indexOf(TEMPLATE_JOB_ID, 0, 'latin1');
    if (idOffset < 0 || packedOptions.indexOf(TEMPLATE_JOB_ID, idOffset + 1, 'latin1') >= 0)
      throw new Error("BullMQ's packed job options do not hold the job id once: pin the bullmq version");
    return new StandardJobAdd(queue, name, packedOptions, idOffset);
  }

  /** Sends the add on `client` (BullMQ's client of the queue); resolves with the job id, added or already there. */
  async add(client: ScriptClient, jobId: string, data: string, timestamp: number): Promise<string> {
    const backend = this.#queue.backend as unknown as BackendInternals;
    const result = await backend.addStandardJob(
      client,
      { data },
      this.#optionsFor(jobId),
      this.#scriptArgs(jobId, timestamp),
    );
    if (typeof result === 'number' && result < 0) throw new Error(`BullMQ's add script answered ${result}`);
    return String(result);
  }

  #optionsFor(jobId: string): Buffer {
    if (jobId.length !== TEMPLATE_JOB_ID.length) throw new Error(`job id ${jobId} is not a side-effect job id`);
    const packed = Buffer.allocUnsafe(this.#packedOptions.length);
    this.#packedOptions.copy(packed);
    packed.write(jobId, this.#idOffset, 'latin1');
    return packed;
  }

  /** addJobToTransaction's arguments for a job without parent, repeat or deduplication. */
  #scriptArgs(jobId: string, timestamp: number): unknown[] {
    return [this.#queue.keys[''], jobId, this.#name, timestamp, null, null, undefined, undefined, null, null];
  }
}

/** The script call BullMQ's own add makes for this job (recorded, not sent): for create and the contract test. */
export async function bullmqAddCall(
  queue: Queue,
  name: string,
  data: string,
  options: JobsOptions & { readonly jobId: string },
  timestamp: number,
): Promise<{ readonly name: string; readonly args: unknown[] }> {
  let call: { name: string; args: unknown[] } | undefined;
  const recorder: ScriptClient = {
    runCommand(command, args) {
      call = { name: command, args };
      return Promise.resolve(options.jobId);
    },
  };
  const job = new Job(queue, name, {}, options, options.jobId);
  // Set on the job, not in the options: Queue.add stores options without it.
  job.timestamp = timestamp;
  const json = { ...job.asJSON(), data };
  (job as unknown as { validateOptions(json: unknown): void }).validateOptions(json);
  await (queue.backend as unknown as BackendInternals).addJobToTransaction(recorder, json, options.jobId);
  if (call === undefined) throw new Error("BullMQ's add sent no script: pin the bullmq version");
  return call;
}

/** The RedisQueueBackend methods used here (public in BullMQ's JavaScript, not in its types). */
interface BackendInternals {
  addStandardJob(client: ScriptClient, job: { data: string }, packedOptions: Buffer, args: unknown[]): Promise<unknown>;
  addJobToTransaction(client: ScriptClient, job: unknown, jobId: string): Promise<unknown>;
}
