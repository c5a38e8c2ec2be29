/**
 * The controller's job processor as a plain async function: decode the job, wait out the grace
 * period, read the object, decide (decidePersistence), confirm NOT_PERSISTED by a second read,
 * call the plugin's Reconcile, and say what the queue should do next. No Redis and no BullMQ here:
 * the worker maps the result to its actions and stores `state` between runs (job progress).
 *
 *   const result = await processJob({ data: job.data, state: job.progress }, deps, job.attemptsMade + 1);
 *   // done: complete · delay: moveToDelayed (+ an attempt when consumesAttempt) · retry: throw (backoff) · fail: UnrecoverableError
 */
import type { ReconcileCallOutcome } from '@hookgate/plugin-client';
import type { ReconcileRequest } from '@hookgate/proto';
import {
  PERSISTENCE_RULES,
  decidePersistence,
  describePersistenceRule,
  type Persistence,
  type ReadStage,
  type SettledRule,
} from './decide-persistence.js';
import { decodeJob, describeJobFieldError } from './decode-job.js';
import type { SideEffectJob } from './job-schema.js';
import { describeObjectRef, objectRefOf, type ReadObject } from './object-reader.js';
import { buildReconcileRequest } from './reconcile-message.js';

/** What a Reconcile call came to: PluginClient.reconcile's outcome. */
export type ReconcileAnswer = ReconcileCallOutcome;

export interface ProcessTiming {
  /** From admission (the job's time) to the first read: the apiserver is still storing the request. */
  readonly gracePeriodMs: number;
  /** From a first read that says NOT_PERSISTED to the confirming read: longer than a late write can take. */
  readonly confirmDelayMs: number;
  /** When the apiserver or the plugin cannot answer now (no attempt used). */
  readonly unavailableDelayMs: number;
}

/**
 * Grace: a stored request is visible within seconds. Confirm: the apiserver's default request
 * timeout is 60 s and a timed-out write still finishes on its own, so wait longer than that.
 */
export const DEFAULT_PROCESS_TIMING: ProcessTiming = Object.freeze({
  gracePeriodMs: 10_000,
  confirmDelayMs: 90_000,
  unavailableDelayMs: 5_000,
});

export interface ProcessJobDeps extends ProcessTiming {
  readonly readObject: ReadObject;
  readonly reconcile: (plugin: string, message: ReconcileRequest) => Promise<ReconcileAnswer>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/** What the processor keeps between runs of one job (the worker stores it as the job's progress). */
export type ReconcileJobState =
  /** A first read said NOT_PERSISTED by `rule`: read again at `confirmAt`. */
  | { readonly stage: 'confirming'; readonly confirmAt: number; readonly rule: SettledRule }
  /** Decided; only the plugin's answer is missing. */
  | { readonly stage: 'settled'; readonly outcome: Persistence; readonly rule: SettledRule };

export interface ReconcileJobInput {
  /** The job's data as Redis holds it: untrusted. */
  readonly data: unknown;
  /** What an earlier run left (untrusted too; anything unreadable means start over). */
  readonly state?: unknown;
}

export type ProcessJobResult =
  /** The plugin said done. */
  | { readonly kind: 'done'; readonly outcome: Persistence; readonly rule: SettledRule; readonly message: string }
  /** Run again at untilMs; `state` (when present) must be stored for that run. */
  | {
      readonly kind: 'delay';
      readonly untilMs: number;
      readonly reason: string;
      readonly consumesAttempt: boolean;
      readonly state?: ReconcileJobState;
    }
  /** The plugin said not done (or failed): retry with the capped backoff, using an attempt. */
  | { readonly kind: 'retry'; readonly reason: string; readonly state?: ReconcileJobState }
  /** The job can never succeed (undecodable): straight to the failed set. */
  | { readonly kind: 'fail'; readonly reason: string };

/** `attempt`: 1 on the first run that may use an attempt (BullMQ's attemptsMade + 1). */
export async function processJob(
  input: ReconcileJobInput,
  deps: ProcessJobDeps,
  attempt: number,
): Promise<ProcessJobResult> {
  const decoded = decodeJob(input.data);
  if (!decoded.ok) {
    return {
      kind: 'fail',
      reason: `undecodable side-effect job (${describeJobFieldError(decoded.error)}): it can never be reconciled; inspect it in the failed set, then remove it`,
    };
  }
  const job = decoded.value;
  const state = readState(input.state);
  const settled = state?.stage === 'settled' ? state : await settle(job, state, deps);
  if (settled.stage !== 'settled') return settled.result;
  return callPlugin(job, settled, deps, attempt);
}

type Settlement = ReconcileJobState & { readonly stage: 'settled' };

/** The outcome to tell the plugin, or the delay until it can be known. */
async function settle(
  job: SideEffectJob,
  state: ReconcileJobState | undefined,
  deps: ProcessJobDeps,
): Promise<Settlement | { readonly stage: 'waiting'; readonly result: ProcessJobResult }> {
  const now = deps.now();
  const waiting = (result: ProcessJobResult) => ({ stage: 'waiting', result }) as const;
  const delay = (untilMs: number, reason: string, nextState?: ReconcileJobState) =>
    waiting({ kind: 'delay', untilMs, reason, consumesAttempt: false, ...(nextState ? { state: nextState } : {}) });

  const confirming = state?.stage === 'confirming' ? state : undefined;
  if (confirming === undefined) {
    const verdict = decidePersistence(job, { stage: 'none' });
    if (verdict.kind === 'final') return { stage: 'settled', outcome: verdict.outcome, rule: verdict.rule };
    const graceEnds = job.time + deps.gracePeriodMs;
    if (now < graceEnds) return delay(graceEnds, `grace period: ${target(job)} may still be being stored`);
  } else if (now < confirming.confirmAt) {
    return delay(confirming.confirmAt, `waiting to confirm ${confirming.rule} for ${target(job)}`, confirming);
  }

  const ref = objectRefOf(job.admission);
  let observed: Awaited<ReturnType<ReadObject>>;
  try {
    observed = await deps.readObject(ref);
  } catch (error) {
    return waiting({
      kind: 'retry',
      reason: `reading ${describeObjectRef(ref)} for ${target(job)} failed: ${messageOf(error)}; check the controller's RBAC (get on this resource) and the apiserver`,
      ...(confirming ? { state: confirming } : {}),
    });
  }
  if (typeof observed === 'object' && 'kind' in observed) {
    const until = now + (observed.retryAfterMs ?? deps.unavailableDelayMs);
    return delay(until, `apiserver unavailable (${observed.reason}) for ${target(job)}`, confirming);
  }

  const read: ReadStage = { stage: confirming ? 'confirming' : 'first', observed };
  const verdict = decidePersistence(job, read);
  switch (verdict.kind) {
    case 'final':
      return { stage: 'settled', outcome: verdict.outcome, rule: verdict.rule };
    case 'confirm': {
      const confirmAt = now + deps.confirmDelayMs;
      return delay(confirmAt, `NOT_PERSISTED so far (${verdict.rule}) for ${target(job)}: reading again to confirm`, {
        stage: 'confirming',
        confirmAt,
        rule: verdict.rule,
      });
    }
    case 'read':
      // Only answered without a read; after one every verdict is final or confirm.
      throw new Error(`decidePersistence asked for another read of ${target(job)} after reading it`);
    default:
      return assertNever(verdict);
  }
}

async function callPlugin(
  job: SideEffectJob,
  settled: Settlement,
  deps: ProcessJobDeps,
  attempt: number,
): Promise<ProcessJobResult> {
  const told = `${target(job)} (${settled.outcome}, ${describePersistenceRule(settled.rule)})`;
  let answer: ReconcileAnswer;
  try {
    answer = await deps.reconcile(job.plugin, buildReconcileRequest(job, settled.outcome, attempt));
  } catch (error) {
    // PluginClient answers with values; a throw is a bug of ours, retried and left in the failed set.
    return {
      kind: 'retry',
      reason: `calling ${job.plugin}'s Reconcile for ${told} threw: ${messageOf(error)}`,
      state: settled,
    };
  }
  const unavailable = (why: string): ProcessJobResult => ({
    kind: 'delay',
    untilMs: deps.now() + deps.unavailableDelayMs,
    reason: `plugin ${job.plugin} ${why}: reconcile of ${told} waits`,
    consumesAttempt: false,
    state: settled,
  });
  if (!answer.ok) {
    switch (answer.kind) {
      case 'timeout':
        return unavailable('did not answer Reconcile in time');
      case 'canceled':
        return unavailable('call was canceled (the controller is stopping)');
      case 'circuit-open':
        return unavailable(`is failing (circuit open after ${answer.failures} failures)`);
      case 'rpc':
        if (answer.transport) return unavailable(`is unreachable (${answer.detail})`);
        return {
          kind: 'retry',
          reason: `plugin ${job.plugin} answered Reconcile with gRPC status ${answer.code} (${answer.detail}) for ${told}${answer.code === GRPC_UNIMPLEMENTED ? '; it serves no Reconcile: give it a reconcile handler' : ''}`,
          state: settled,
        };
      default:
        return assertNever(answer);
    }
  }
  const { done, message, retryAfterMs } = answer.response;
  if (done) return { kind: 'done', outcome: settled.outcome, rule: settled.rule, message };
  const said = message === '' ? 'not done' : `not done: ${message}`;
  if (retryAfterMs > 0) {
    return {
      kind: 'delay',
      untilMs: deps.now() + retryAfterMs,
      reason: `plugin ${job.plugin} said ${said}, retry after ${retryAfterMs} ms, for ${told}`,
      consumesAttempt: true,
      state: settled,
    };
  }
  return { kind: 'retry', reason: `plugin ${job.plugin} said ${said}, for ${told}`, state: settled };
}

/** grpc.status.UNIMPLEMENTED, without loading grpc-js for one number. */
const GRPC_UNIMPLEMENTED = 12;

/** `ledger hook claims.ledger.hookgate.dev effect ledger-claim on deployments.apps shop/web (call <uid>)` */
function target(job: SideEffectJob): string {
  return `${job.plugin} hook ${job.hook} effect ${job.effect.kind} on ${describeObjectRef(objectRefOf(job.admission))} (call ${job.admission.uid})`;
}

/** The stored state, if it is one this build wrote; anything else starts over (a read is always safe). */
function readState(state: unknown): ReconcileJobState | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const { stage, confirmAt, rule, outcome } = state as Record<string, unknown>;
  if (typeof rule !== 'string' || rule === 'read-needed' || !Object.hasOwn(PERSISTENCE_RULES, rule)) return undefined;
  const settledRule = rule as SettledRule;
  if (stage === 'confirming' && typeof confirmAt === 'number' && Number.isFinite(confirmAt)) {
    return { stage, confirmAt, rule: settledRule };
  }
  // The outcome must be the rule's: a state that disagrees with this build's table is not trusted.
  if (stage === 'settled' && outcome === PERSISTENCE_RULES[settledRule].outcome) {
    return { stage, outcome: PERSISTENCE_RULES[settledRule].outcome, rule: settledRule };
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function assertNever(value: never): never {
  throw new Error(`unhandled case ${JSON.stringify(value)}`);
}
