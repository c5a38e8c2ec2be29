/**
 * `hookgate queue retry`: moves failed jobs (the dead-letter set) back to waiting, with their
 * attempts reset, for one plugin, several, or all; or one job by id. What the job already decided
 * (its progress: the outcome read from the cluster) is kept, so a retry calls Reconcile again.
 */
import type { Queue } from 'bullmq';
import { checkOutputFlag, openQueuesOrReport, type QueueConnectionFlags } from './queue-connection.js';

export interface QueueRetryFlags extends QueueConnectionFlags {
  readonly all?: boolean;
  readonly job?: string;
  readonly output: string;
}

/** Failed jobs read and retried per round; a bound, not a limit (rounds repeat until none is left). */
const PAGE = 500;

export async function queueRetryCommand(
  flags: QueueRetryFlags,
  env: Readonly<Record<string, string | undefined>>,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  if (!checkOutputFlag('retry', flags.output, err)) return 2;
  const chosen = (flags.plugin?.length ?? 0) > 0;
  if (chosen === (flags.all === true)) {
    err.write('hookgate queue retry: name the queues: --plugin NAME (repeatable) or --all\n');
    return 2;
  }
  if (flags.job !== undefined && flags.plugin?.length !== 1) {
    err.write('hookgate queue retry: --job needs exactly one --plugin\n');
    return 2;
  }
  const connection = await openQueuesOrReport('retry', flags, env, err);
  if (connection === undefined) return 1;
  try {
    const retried: { plugin: string; retried: number }[] = [];
    for (const [plugin, queue] of connection.queues) {
      if (flags.job !== undefined) {
        const job = await queue.getJob(flags.job);
        const state = job ? await job.getState() : 'absent';
        if (job === undefined || state !== 'failed') {
          err.write(`hookgate queue retry: job ${JSON.stringify(flags.job)} of ${plugin} is ${state}, not failed\n`);
          return 1;
        }
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        retried.push({ plugin, retried: 1 });
      } else {
        retried.push({ plugin, retried: await retryFailed(queue) });
      }
    }
    if (flags.output === 'json') out.write(`${JSON.stringify({ redis: connection.where, retried }, null, 2)}\n`);
    else {
      if (retried.length === 0)
        out.write(`no plugin queues found under prefix ${connection.prefix} on ${connection.where}\n`);
      for (const r of retried) out.write(`${r.plugin}: ${r.retried} failed job(s) moved back to waiting\n`);
    }
    return 0;
  } catch (error) {
    err.write(`hookgate queue retry: on ${connection.where}: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await connection.close();
  }
}

/** Each failed job back to waiting with attempts reset (BullMQ's retryJobs would keep them used up). */
async function retryFailed(queue: Queue): Promise<number> {
  let total = 0;
  for (;;) {
    const page = await queue.getFailed(0, PAGE - 1);
    if (page.length === 0) return total;
    let moved = 0;
    for (const job of page) {
      // A job another client moved meanwhile (retried, removed) is skipped.
      const ok = await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true }).then(
        () => true,
        () => false,
      );
      if (ok) moved++;
    }
    total += moved;
    if (moved === 0) return total;
  }
}
