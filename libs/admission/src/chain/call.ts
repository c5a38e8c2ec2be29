/**
 * One attempt to call one hook, shared by both dispatchers: the dry-run check, the review
 * version, the deadline, a fresh uid, the invocation itself. Whatever the invoker does (answers,
 * fails, throws, rejects, returns garbage) comes back as a value; this never throws.
 */
import type { Hook } from '../types/hook.js';
import type { HookFailure } from '../types/hook-failure.js';
import type { AdmissionRequest, Status } from '../types/review.js';
import type { JsonValue } from '../types/json.js';
import type { PatchOperation } from '../types/patch-operation.js';
import type { ChainEnv } from './env.js';
import type { HookAnswer, HookCall, HookInvoker, HookReply } from '../types/invoker.js';
import {
  cancelledFailure,
  deadlineExceededFailure,
  invokerErrorFailure,
  isHookFailureKind,
  noKnownVersionFailure,
} from '../errors/failures.js';
import { computeHookDeadline } from './deadline.js';
import { checkDryRun } from './dry-run.js';

export type CallResult =
  | { readonly kind: 'answer'; readonly answer: HookAnswer }
  | { readonly kind: 'failure'; readonly failure: HookFailure }
  /** Dry-run refusal: not a calling error, not a denial. */
  | { readonly kind: 'refused'; readonly status: Status };

export interface CallInput {
  readonly hook: Hook;
  /** The request as received, with the object as patched so far. */
  readonly request: AdmissionRequest;
  readonly object: JsonValue | undefined;
  readonly round: 0 | 1;
  readonly patchFromOriginal: readonly PatchOperation[];
}

export async function callHook(input: CallInput, env: ChainEnv): Promise<CallResult> {
  const prepared = prepareCall(input, env);
  if (prepared.kind !== 'call') return prepared;
  return invokeCall(prepared.call, startInvocation(env.invoke, prepared.call, env.signal));
}

/** The invoker's promise; an invoker that throws instead of rejecting becomes a rejection. */
function startInvocation(invoke: HookInvoker, call: HookCall, signal: AbortSignal): Promise<HookReply> {
  try {
    return invoke(call, signal);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Starts the prepared calls together: through `invokeTogether` when the env has one (one promise per
 * call, in order), else one `invoke` each. An invoker that throws, or answers with fewer promises,
 * fails the calls it left without a reply, each on its own.
 */
export function startCalls(calls: readonly HookCall[], env: ChainEnv): Promise<HookReply>[] {
  const together = env.invokeTogether;
  if (together === undefined || calls.length < 2)
    return calls.map((call) => startInvocation(env.invoke, call, env.signal));
  let replies: readonly Promise<HookReply>[];
  try {
    replies = together(calls, env.signal);
  } catch (error) {
    return calls.map(() => Promise.reject(error));
  }
  return calls.map((_, k) => replies[k] ?? Promise.reject(new Error('the invoker returned no reply for this call')));
}

/** The call to make, or why there is none (a dry-run refusal or a failure decided before calling). */
export type PreparedCall = CallResult | { readonly kind: 'call'; readonly call: HookCall };

/**
 * Everything before the invocation, synchronously: the dispatchers that start several calls
 * together (validating) prepare them all, then hand the ones to make to the transport at once.
 */
export function prepareCall(input: CallInput, env: ChainEnv): PreparedCall {
  const { hook, request, round } = input;
  const dryRun = checkDryRun(hook, request);
  if (dryRun.kind === 'refuse') return { kind: 'refused', status: dryRun.status };
  if (dryRun.kind === 'failure') return { kind: 'failure', failure: dryRun.failure };
  if (hook.reviewVersion === null) return { kind: 'failure', failure: noKnownVersionFailure() };
  if (env.signal.aborted) return { kind: 'failure', failure: cancelledFailure(hook) };
  const timing = computeHookDeadline(env.now(), hook.timeoutSeconds, env.deadline, env.apiserverDeadline);
  if (timing.remainingMs <= 0) return { kind: 'failure', failure: deadlineExceededFailure(hook) };

  const hookRequest: AdmissionRequest = { ...request, uid: env.newUid() };
  if (input.object === undefined) delete hookRequest.object;
  else hookRequest.object = input.object;
  const call: HookCall = {
    hook,
    request: hookRequest,
    version: hook.reviewVersion,
    round,
    deadline: timing.deadline,
    timeoutSeconds: timing.timeoutSeconds,
    patchFromOriginal: input.patchFromOriginal,
  };
  return { kind: 'call', call };
}

/** The invoker's reply (or rejection) for a prepared call, as a value; never throws. */
export async function invokeCall(call: HookCall, reply: Promise<HookReply>): Promise<CallResult> {
  let settled: HookReply;
  try {
    settled = await reply;
  } catch (error) {
    return { kind: 'failure', failure: invokerErrorFailure(call.hook, error) };
  }
  return interpretReply(call.hook, settled);
}

// Invokers are typed, but a plugin bridge written in a hurry can still hand back nonsense.
function interpretReply(hook: Hook, reply: unknown): CallResult {
  if (typeof reply !== 'object' || reply === null) {
    return { kind: 'failure', failure: invokerErrorFailure(hook, new Error('the invoker returned no reply')) };
  }
  const r = reply as Partial<{ ok: unknown; answer: unknown; failure: unknown }>;
  if (r.ok === true && isAnswer(r.answer)) return { kind: 'answer', answer: r.answer };
  if (r.ok === false && isFailure(r.failure)) return { kind: 'failure', failure: r.failure };
  return { kind: 'failure', failure: invokerErrorFailure(hook, new Error('the invoker returned a malformed reply')) };
}

function isAnswer(value: unknown): value is HookAnswer {
  return typeof value === 'object' && value !== null && typeof (value as { allowed?: unknown }).allowed === 'boolean';
}

function isFailure(value: unknown): value is HookFailure {
  if (typeof value !== 'object' || value === null) return false;
  const f = value as Partial<HookFailure>;
  return isHookFailureKind(f.kind) && typeof f.message === 'string' && typeof f.code === 'number';
}
