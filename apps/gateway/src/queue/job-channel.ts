/**
 * Side-effect jobs over the cluster's IPC channel. Workers hand their reviews' jobs to Redis
 * themselves (WorkerJobRecorder); the primary owns the spool, the replay copy and the watch on
 * Redis's identity (docs/architecture.md says why). Three conversations:
 *
 * - jobs a worker could not hand to Redis (its connection not ready, the primary spooling, or Redis
 *   failed it): the worker sends them here and awaits the primary's answer (Redis, the spool, or why
 *   not). The requests of one worker turn travel in one message, the answers of one primary turn
 *   in one message per worker (a pipe write and a wake-up per message is most of the cost);
 * - jobs Redis acknowledged in a worker: sent in batches, off the reviews' path, for the primary's
 *   counters and its replay copy; nothing is answered;
 * - the route: the primary tells the workers when to go through it (it is spooling, or draining the
 *   spool) and when to go to Redis themselves again. (Workers take that message from their primary
 *   inbox, which keeps what arrives while they start.)
 */
import cluster, { type Worker } from 'node:cluster';
import type { PreparedJob } from '@hookgate/queue/jobs';
import { isPrimaryMessage, isWorkerMessage, type PrimaryMessage, type WorkerMessage } from '../runtime/messages.js';
import type { AcknowledgedJobs, RecordOutcome, WorkerFallback } from './record-outcome.js';

export type RecordPreparedJobs = (
  jobs: readonly PreparedJob[],
  waitMs: number,
  fallback?: WorkerFallback,
) => Promise<RecordOutcome>;

/** What the primary's recorder does for its workers (JobRecorder). */
export interface PrimaryJobs {
  readonly recordPrepared: RecordPreparedJobs;
  /** Jobs Redis acknowledged in a worker: counted, and kept for a replay. */
  acknowledgedElsewhere(batch: AcknowledgedJobs): void;
  /** True while workers should hand their jobs to Redis themselves. */
  readonly workersAddDirectly: boolean;
  /** Called whenever workersAddDirectly changes. */
  onRouteChange(listener: (direct: boolean) => void): void;
}

/** Primary: serves every worker's job messages with `jobs` (undefined: the configuration has no redis). */
export function answerJobMessages(jobs: PrimaryJobs | undefined): void {
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isWorkerMessage(message)) return;
    if (message.type === 'hookgate:side-effect-jobs') {
      for (const request of message.requests) answerRequest(worker, jobs, request);
    } else if (message.type === 'hookgate:side-effect-jobs-acknowledged') {
      jobs?.acknowledgedElsewhere(message);
    } else if (message.type === 'hookgate:hello' && jobs !== undefined && !jobs.workersAddDirectly) {
      // A worker starts with the route "direct"; one (re)started while the primary spools learns otherwise.
      worker.send(routeMessage(false));
    }
  });
  jobs?.onRouteChange((direct) => {
    for (const worker of Object.values(cluster.workers ?? {}))
      if (worker?.isConnected()) worker.send(routeMessage(direct));
  });
}

function routeMessage(direct: boolean): PrimaryMessage {
  return { type: 'hookgate:side-effect-route', direct };
}

function answerRequest(
  worker: Worker,
  jobs: PrimaryJobs | undefined,
  request: {
    readonly id: number;
    readonly jobs: readonly PreparedJob[];
    readonly waitMs: number;
    readonly fallback?: WorkerFallback;
  },
): void {
  const recorded =
    jobs === undefined
      ? Promise.resolve<RecordOutcome>({
          ok: false,
          code: 'not-configured',
          reason: 'the gateway has no redis configured',
        })
      : jobs.recordPrepared(request.jobs, request.waitMs, request.fallback).catch((error: unknown): RecordOutcome => ({
          ok: false,
          code: 'internal',
          reason: `recording failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        }));
  void recorded.then((outcome) => answerAtTickEnd(worker, { id: request.id, outcome }));
}

type Answer = { readonly id: number; readonly outcome: RecordOutcome };
const answersDue = new Map<Worker, Answer[]>();

/**
 * Collects the answers of this event-loop turn per worker; the first one schedules the sending of
 * all after the turn's I/O (setImmediate: answers settled by several socket reads or fsyncs of the
 * same turn travel together).
 */
function answerAtTickEnd(worker: Worker, answer: Answer): void {
  const due = answersDue.get(worker);
  if (due !== undefined) return void due.push(answer);
  answersDue.set(worker, [answer]);
  if (answersDue.size === 1) setImmediate(sendAnswersDue);
}

function sendAnswersDue(): void {
  for (const [worker, answers] of answersDue) {
    if (worker.isConnected())
      worker.send({ type: 'hookgate:side-effect-jobs-recorded', answers } satisfies PrimaryMessage);
  }
  answersDue.clear();
}

export interface PrimaryJobChannel {
  /** Sends the jobs to the primary and resolves with its answer, or after `waitMs` without one. */
  readonly record: RecordPreparedJobs;
  /** Sends jobs Redis acknowledged here; resolves once the message is on its way. */
  acknowledged(batch: AcknowledgedJobs): Promise<void>;
  /** Answers every pending request as "primary gone" and stops listening. */
  close(): void;
}

/** Worker: the primary's side of the side-effect queue. */
export function primaryJobChannel(send: (message: WorkerMessage, sent?: () => void) => void): PrimaryJobChannel {
  const waiting = new Map<number, (outcome: RecordOutcome) => void>();
  let nextId = 0;
  /** Requests of this event-loop turn, sent together after its I/O. */
  let due: { id: number; jobs: readonly PreparedJob[]; deadline: number; fallback?: WorkerFallback }[] = [];
  const sendDue = () => {
    const now = performance.now();
    // The time left as of sending: a request that waited for this turn's end has less of it.
    const requests = due.map(({ id, jobs, deadline, fallback }) => ({
      id,
      jobs,
      waitMs: Math.max(0, deadline - now),
      ...(fallback === undefined ? {} : { fallback }),
    }));
    due = [];
    send({ type: 'hookgate:side-effect-jobs', requests });
  };
  const onMessage = (message: unknown) => {
    if (!isPrimaryMessage(message) || message.type !== 'hookgate:side-effect-jobs-recorded') return;
    for (const { id, outcome } of message.answers) waiting.get(id)?.(outcome);
  };
  const onDisconnect = () => {
    for (const answer of [...waiting.values()])
      answer({ ok: false, code: 'primary-gone', reason: 'the gateway primary, which spools jobs, is gone' });
  };
  process.on('message', onMessage);
  process.on('disconnect', onDisconnect);
  return {
    record(jobs, waitMs, fallback) {
      const id = ++nextId;
      return new Promise<RecordOutcome>((resolve) => {
        const timer = setTimeout(
          () =>
            answer({
              ok: false,
              code: 'timeout',
              reason: `the gateway primary did not confirm them within ${Math.round(waitMs)} ms (the request's time left)`,
            }),
          Math.max(1, waitMs),
        );
        const answer = (outcome: RecordOutcome) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(outcome);
        };
        waiting.set(id, answer);
        const request = {
          id,
          jobs,
          deadline: performance.now() + waitMs,
          ...(fallback === undefined ? {} : { fallback }),
        };
        if (due.push(request) === 1) setImmediate(sendDue);
      });
    },
    acknowledged(batch) {
      return new Promise((resolve) =>
        send({ type: 'hookgate:side-effect-jobs-acknowledged', jobs: batch.jobs, outcomes: batch.outcomes }, resolve),
      );
    },
    close() {
      onDisconnect();
      process.off('message', onMessage);
      process.off('disconnect', onDisconnect);
    },
  };
}
