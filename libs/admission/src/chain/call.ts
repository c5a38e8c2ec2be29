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
import type { HookAnswer, HookCall, HookReply } from '../types/invoker.js';
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
  let reply: HookReply;
  try {
    reply = await env.invoke(call, env.signal);
  } catch (error) {
    return { kind: 'failure', failure: invokerErrorFailure(hook, error) };
  }
  return interpretReply(hook, reply);
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
