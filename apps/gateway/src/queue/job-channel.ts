/**
 * Side-effect jobs over the cluster's IPC channel: a worker sends its reviews' jobs to the primary
 * (which owns the producer and the spool) and awaits the answers. Measured in docs/performance.md:
 * a job-sized round trip costs 0.03–0.06 ms and 15–30 µs of CPU on each side, most of it per
 * message (a pipe write and a wake-up). So both directions send once per event-loop turn: the
 * reviews a worker finished in the same turn go in one message, and the answers the primary has in
 * the same turn (the reviews one Redis batch acknowledged) go to their worker in one message.
 * Jobs travel serialised (PreparedJob: built and hashed in the worker): the primary stores and
 * spools their JSON as it is.
 */
import cluster, { type Worker } from 'node:cluster';
import { prepareJob, type PreparedJob, type SideEffectJob } from '@hookgate/queue/jobs';
import { isPrimaryMessage, isWorkerMessage, type PrimaryMessage, type WorkerMessage } from '../runtime/messages.js';
import type { RecordOutcome } from './job-recorder.js';

export type RecordJobs = (jobs: readonly SideEffectJob[], waitMs: number) => Promise<RecordOutcome>;
export type RecordPreparedJobs = (jobs: readonly PreparedJob[], waitMs: number) => Promise<RecordOutcome>;

/** Primary: answers every worker's jobs with `record` (undefined: the configuration has no redis). */
export function answerJobMessages(record: RecordPreparedJobs | undefined): void {
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isWorkerMessage(message) || message.type !== 'hookgate:side-effect-jobs') return;
    for (const request of message.requests) answerRequest(worker, record, request);
  });
}

function answerRequest(
  worker: Worker,
  record: RecordPreparedJobs | undefined,
  { id, jobs, waitMs }: { readonly id: number; readonly jobs: readonly PreparedJob[]; readonly waitMs: number },
): void {
  const recorded =
    record === undefined
      ? Promise.resolve<RecordOutcome>({
          ok: false,
          code: 'not-configured',
          reason: 'the gateway has no redis configured',
        })
      : record(jobs, waitMs).catch((error: unknown): RecordOutcome => ({
          ok: false,
          code: 'internal',
          reason: `recording failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        }));
  void recorded.then((outcome) => answerAtTickEnd(worker, { id, outcome }));
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

/** Worker: `record` sends the jobs to the primary and resolves with its answer, or after `waitMs` without one. */
export function primaryJobChannel(send: (message: WorkerMessage) => void): { record: RecordJobs; close(): void } {
  const waiting = new Map<number, (outcome: RecordOutcome) => void>();
  let nextId = 0;
  /** Requests of this event-loop turn, sent together after its I/O. */
  let due: { id: number; jobs: PreparedJob[]; deadline: number }[] = [];
  const sendDue = () => {
    const now = performance.now();
    // The time left as of sending: a request that waited for this turn's end has less of it.
    const requests = due.map(({ id, jobs, deadline }) => ({ id, jobs, waitMs: Math.max(0, deadline - now) }));
    due = [];
    send({ type: 'hookgate:side-effect-jobs', requests });
  };
  const onMessage = (message: unknown) => {
    if (!isPrimaryMessage(message) || message.type !== 'hookgate:side-effect-jobs-recorded') return;
    for (const { id, outcome } of message.answers) waiting.get(id)?.(outcome);
  };
  const onDisconnect = () => {
    for (const answer of [...waiting.values()])
      answer({ ok: false, code: 'primary-gone', reason: 'the gateway primary, which records jobs, is gone' });
  };
  process.on('message', onMessage);
  process.on('disconnect', onDisconnect);
  return {
    record(jobs, waitMs) {
      const id = ++nextId;
      // Serialised and hashed here, once: the primary stores and spools this JSON as it is.
      const prepared = jobs.map(prepareJob);
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
        if (due.push({ id, jobs: prepared, deadline: performance.now() + waitMs }) === 1) setImmediate(sendDue);
      });
    },
    close() {
      process.off('message', onMessage);
      process.off('disconnect', onDisconnect);
    },
  };
}
