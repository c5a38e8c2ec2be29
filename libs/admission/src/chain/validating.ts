/**
 * The validating dispatcher (k8s-semantics.md §14): every hook is matched first (any matching
 * error rejects before anything is called), then all matching hooks are called concurrently and
 * all are awaited; the first error to arrive is the answer. Warnings and annotations are recorded
 * in arrival order.
 */
import type { Hook } from '../types/hook.js';
import type { AdmissionRequest, Status } from '../types/review.js';
import type { ChainEnv } from './env.js';
import type { HookCall } from '../types/invoker.js';
import type { ChainOutcome } from './outcome.js';
import type { HookSet } from '../match/index.js';
import { isExemptRequest, shouldCallHook } from '../match/index.js';
import { buildDenialStatus, internalErrorStatus, timeoutStatus } from '../errors/status.js';
import { failedOpenValidatingKey } from '../annotations.js';
import { errorText } from '../errors/failures.js';
import { invokeCall, prepareCall, startCalls, type CallResult } from './call.js';
import { decideOnFailure } from './failure-policy.js';
import { ChainRecorder } from './recorder.js';

const NO_PATCH: readonly never[] = Object.freeze([]);
/** A placeholder replaced before anyone reads it (startAll fills in every call it starts). */
const NOT_STARTED: CallResult = Object.freeze({ kind: 'refused', status: Object.freeze({}) });

export async function runValidating(set: HookSet, request: AdmissionRequest, env: ChainEnv): Promise<ChainOutcome> {
  const recorder = new ChainRecorder();
  try {
    if (isExemptRequest(request)) return recorder.allowed();
    const relevant: Hook[] = [];
    for (const hook of set.candidates('validating', request)) {
      const pending = shouldCallHook(hook, request, env.namespaces, env.now);
      const decision = pending instanceof Promise ? await pending : pending;
      if (decision.conditions !== undefined)
        recorder.event({ type: 'conditions', hook: hook.name, round: 0, ...decision.conditions });
      if (decision.kind === 'reject') {
        recorder.event({
          type: 'reject',
          hook: hook.name,
          round: 0,
          reason: decision.reason,
          code: decision.status.code ?? 500,
        });
        return recorder.denied(decision.status);
      }
      if (decision.kind === 'skip') {
        recorder.event({ type: 'skip', hook: hook.name, round: 0, reason: decision.reason });
        continue;
      }
      relevant.push(hook);
    }
    if (relevant.length === 0) return recorder.allowed();
    if (env.signal.aborted || env.now() >= env.deadline) {
      recorder.event({
        type: 'reject',
        hook: relevant[0]?.name ?? '',
        round: 0,
        reason: 'request deadline exceeded',
        code: 504,
      });
      return recorder.denied(timeoutStatus());
    }
    // Errors are pushed as calls complete, so errors[0] is the first to arrive.
    const errors: Status[] = [];
    await Promise.all(
      startAll(relevant, request, env).map((call, k) => recordOne(call, k, request, env, recorder, errors)),
    );
    const first = errors[0];
    return first === undefined ? recorder.allowed() : recorder.denied(first);
  } catch (error) {
    return recorder.denied(
      internalErrorStatus(`hookgate: unexpected error in the validating chain: ${errorText(error)}`),
    );
  }
}

interface StartedCall {
  readonly hook: Hook;
  readonly started: number;
  result: Promise<CallResult> | CallResult;
}

/** Every call prepared first, then the ones to make started together (one message per plugin, transport allowing). */
function startAll(hooks: readonly Hook[], request: AdmissionRequest, env: ChainEnv): StartedCall[] {
  const started: StartedCall[] = [];
  const calls: HookCall[] = [];
  const callAt: number[] = [];
  for (const hook of hooks) {
    const at = env.now();
    const prepared = prepareCall({ hook, request, object: request.object, round: 0, patchFromOriginal: NO_PATCH }, env);
    if (prepared.kind === 'call') {
      callAt.push(started.length);
      calls.push(prepared.call);
    }
    started.push({ hook, started: at, result: prepared.kind === 'call' ? NOT_STARTED : prepared });
  }
  const replies = startCalls(calls, env);
  calls.forEach((call, k) => {
    started[callAt[k]!]!.result = invokeCall(call, replies[k]!);
  });
  return started;
}

async function recordOne(
  call: StartedCall,
  position: number,
  request: AdmissionRequest,
  env: ChainEnv,
  recorder: ChainRecorder,
  errors: Status[],
): Promise<void> {
  const { hook, started } = call;
  const result = call.result instanceof Promise ? await call.result : call.result;
  const trace = { type: 'call', hook: hook.name, round: 0, mutated: false } as const;
  const durationMs = Math.max(0, env.now() - started);
  switch (result.kind) {
    case 'refused':
      recorder.event({ ...trace, outcome: 'refused', durationMs, code: 0 });
      errors.push(result.status);
      return;
    case 'failure': {
      const decided = decideOnFailure(hook.failurePolicy, result.failure, hook.name);
      if (decided.action === 'fail-closed') {
        recorder.event({
          ...trace,
          outcome: 'failed-closed',
          durationMs,
          code: result.failure.code,
          failure: result.failure,
        });
        errors.push(decided.status);
        return;
      }
      // Unlike the mutating dispatcher, the validating one records fail-open even after the apiserver hung up.
      recorder.annotations.add(failedOpenValidatingKey(position), hook.name);
      recorder.event({
        ...trace,
        outcome: 'failed-open',
        durationMs,
        code: result.failure.code,
        failure: result.failure,
      });
      return;
    }
    case 'answer': {
      recorder.recordAnswer(hook, request, result.answer);
      if (result.answer.allowed) {
        // The common case, as a literal (no spread).
        recorder.event({
          type: 'call',
          hook: hook.name,
          round: 0,
          mutated: false,
          outcome: 'allowed',
          durationMs,
          code: 200,
        });
        return;
      }
      const status = buildDenialStatus(hook.name, result.answer.status);
      recorder.event({ ...trace, outcome: 'denied', durationMs, code: status.code ?? 400 });
      errors.push(status);
      return;
    }
  }
}
