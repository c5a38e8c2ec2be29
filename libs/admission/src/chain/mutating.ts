/**
 * The mutating dispatcher (k8s-semantics.md §12, §13): hooks strictly in list order, each one's
 * JSON patch applied before the next hook is matched, at most one round of re-invocation, and one
 * combined patch (received object → final object) for the apiserver.
 */
import type { Hook } from '../types/hook.js';
import type { HookFailure } from '../types/hook-failure.js';
import type { AdmissionRequest, Status } from '../types/review.js';
import type { JsonValue } from '../types/json.js';
import type { PatchOperation } from '../types/patch-operation.js';
import type { ChainEnv } from './env.js';
import type { ChainOutcome, TraceEvent } from './outcome.js';
import type { HookAnswer } from '../types/invoker.js';
import type { HookSet } from '../match/index.js';
import { isExemptRequest, shouldCallHook } from '../match/index.js';
import { undecodablePatchFailure, unsupportedPatchTypeFailure } from '../review/index.js';
import {
  buildDenialStatus,
  internalErrorStatus,
  modificationNotSupportedStatus,
  timeoutStatus,
} from '../errors/status.js';
import { applyPatch, decodePatch, isJsonEqual } from '../patch/json-patch.js';
import { diffPatch } from '../patch/diff.js';
import { patchedObjectProblem } from '../patch/patched-object.js';
import {
  failedOpenMutationKey,
  mutationAnnotationKey,
  mutationAnnotationValue,
  patchAnnotationKey,
  patchAnnotationValue,
} from '../annotations.js';
import { errorText } from '../errors/failures.js';
import { callHook } from './call.js';
import { decideOnFailure } from './failure-policy.js';
import { ReinvocationTracker } from './reinvocation.js';
import { ChainRecorder } from './recorder.js';

type CallOutcome = Extract<TraceEvent, { type: 'call' }>['outcome'];

/** How one call ended, before failurePolicy: fine, a calling failure, or a status that ends the chain. */
type Attempt =
  | { readonly kind: 'ok'; readonly changed: boolean }
  | { readonly kind: 'failure'; readonly changed: false; readonly failure: HookFailure }
  | {
      readonly kind: 'status';
      readonly changed: false;
      readonly status: Status;
      readonly outcome: CallOutcome;
      readonly code: number;
    };

const UNCHANGED: Attempt = Object.freeze({ kind: 'ok', changed: false });

export async function runMutating(set: HookSet, request: AdmissionRequest, env: ChainEnv): Promise<ChainOutcome> {
  const recorder = new ChainRecorder();
  try {
    if (isExemptRequest(request)) return recorder.allowed();
    const run = new MutatingRun(request, env, recorder);
    const hooks = set.candidates('mutating', request);
    const round0 = await run.runRound(hooks, 0);
    if (round0 !== undefined) return recorder.denied(round0);
    if (run.tracker.shouldRunRound1) {
      const round1 = await run.runRound(hooks, 1);
      if (round1 !== undefined) return recorder.denied(round1);
    }
    return recorder.allowed(run.finalPatch());
  } catch (error) {
    // A defect must still produce an answer, never a crashed request.
    return recorder.denied(
      internalErrorStatus(`hookgate: unexpected error in the mutating chain: ${errorText(error)}`),
    );
  }
}

class MutatingRun {
  readonly tracker = new ReinvocationTracker();
  private readonly original: JsonValue | undefined;
  private current: JsonValue | undefined;
  private patchFromOriginal: readonly PatchOperation[] = [];

  constructor(
    private readonly request: AdmissionRequest,
    private readonly env: ChainEnv,
    private readonly recorder: ChainRecorder,
  ) {
    this.original = request.object;
    this.current = request.object;
  }

  /** Runs one round; returns the Status that ends the request, or undefined to go on. */
  async runRound(hooks: readonly Hook[], round: 0 | 1): Promise<Status | undefined> {
    for (const hook of hooks) {
      const request = this.currentRequest();
      const pending = shouldCallHook(hook, request, this.env.namespaces, this.env.now);
      const decision = pending instanceof Promise ? await pending : pending;
      if (decision.conditions !== undefined)
        this.recorder.event({ type: 'conditions', hook: hook.name, round, ...decision.conditions });
      if (decision.kind === 'reject') {
        this.recorder.event({
          type: 'reject',
          hook: hook.name,
          round,
          reason: decision.reason,
          code: decision.status.code ?? 500,
        });
        return decision.status;
      }
      if (decision.kind === 'skip') {
        this.recorder.event({ type: 'skip', hook: hook.name, round, reason: decision.reason });
        continue;
      }
      // A hook not called in round 0, or not pulled in by a later change, is never called in round 1.
      if (round === 1 && !this.tracker.shouldReinvoke(hook)) {
        this.recorder.event({ type: 'skip', hook: hook.name, round, reason: 'not-reinvoked' });
        continue;
      }
      const started = this.env.now();
      const attempt = await this.attempt(hook, request, round);
      this.recorder.annotations.add(
        mutationAnnotationKey(round, hook.index),
        mutationAnnotationValue(hook.configurationName, hook.name, attempt.changed),
      );
      this.tracker.recordCall(hook, round, attempt.changed);
      const trace = { type: 'call', hook: hook.name, round, mutated: attempt.changed } as const;
      const durationMs = Math.max(0, this.env.now() - started);

      if (attempt.kind === 'ok') {
        // The common case, as a literal (no spread).
        this.recorder.event({
          type: 'call',
          hook: hook.name,
          round,
          mutated: attempt.changed,
          outcome: 'allowed',
          durationMs,
          code: 200,
        });
        continue;
      }
      if (attempt.kind === 'status') {
        this.recorder.event({ ...trace, outcome: attempt.outcome, durationMs, code: attempt.code });
        return attempt.status;
      }
      const decided = decideOnFailure(hook.failurePolicy, attempt.failure, hook.name);
      if (decided.action === 'fail-closed') {
        this.recorder.event({
          ...trace,
          outcome: 'failed-closed',
          durationMs,
          code: attempt.failure.code,
          failure: attempt.failure,
        });
        return decided.status;
      }
      // No fail-open annotation when the apiserver itself went away (context canceled).
      if (!this.env.signal.aborted) {
        this.recorder.annotations.add(failedOpenMutationKey(round, hook.index), hook.name);
      }
      this.recorder.event({
        ...trace,
        outcome: 'failed-open',
        durationMs,
        code: attempt.failure.code,
        failure: attempt.failure,
      });
      if (this.env.signal.aborted || this.env.now() >= this.env.deadline) {
        this.recorder.event({ type: 'reject', hook: hook.name, round, reason: 'request deadline exceeded', code: 504 });
        return timeoutStatus();
      }
    }
    return undefined;
  }

  /** The diff made when the object last changed is already original → final: no second diff. */
  finalPatch(): readonly PatchOperation[] | undefined {
    if (this.current === this.original || this.patchFromOriginal.length === 0) return undefined;
    return this.patchFromOriginal;
  }

  private currentRequest(): AdmissionRequest {
    if (this.current === this.original) return this.request;
    return { ...this.request, object: this.current as JsonValue };
  }

  private async attempt(hook: Hook, request: AdmissionRequest, round: 0 | 1): Promise<Attempt> {
    const result = await callHook(
      { hook, request, object: this.current, round, patchFromOriginal: this.patchFromOriginal },
      this.env,
    );
    switch (result.kind) {
      case 'refused':
        return { kind: 'status', changed: false, status: result.status, outcome: 'refused', code: 0 };
      case 'failure':
        return { kind: 'failure', changed: false, failure: result.failure };
      case 'answer':
        this.recorder.recordAnswer(hook, request, result.answer);
        if (!result.answer.allowed) {
          const status = buildDenialStatus(hook.name, result.answer.status);
          return { kind: 'status', changed: false, status, outcome: 'denied', code: status.code ?? 400 };
        }
        return this.applyAnswerPatch(hook, result.answer, round);
    }
  }

  /** §12 e–h: decode, check, apply; record the patch annotation for every applied non-empty patch. */
  private applyAnswerPatch(hook: Hook, answer: HookAnswer, round: 0 | 1): Attempt {
    const text: unknown = answer.patch;
    if (text === undefined || text === '') return UNCHANGED;
    if (typeof text !== 'string') {
      return { kind: 'failure', changed: false, failure: undecodablePatchFailure('the patch is not JSON text') };
    }
    const decoded = decodePatch(text);
    if (!decoded.ok) return { kind: 'failure', changed: false, failure: undecodablePatchFailure(decoded.error) };
    if (decoded.value.operations.length === 0) return UNCHANGED;
    if (this.current === undefined || this.current === null) {
      return {
        kind: 'status',
        changed: false,
        status: modificationNotSupportedStatus(hook.name),
        outcome: 'patch-error',
        code: 0,
      };
    }
    const patchType = answer.patchType ?? 'JSONPatch';
    if (patchType !== 'JSONPatch') {
      return { kind: 'failure', changed: false, failure: unsupportedPatchTypeFailure(patchType) };
    }
    const applied = applyPatch(this.current, decoded.value);
    if (!applied.ok) {
      return {
        kind: 'status',
        changed: false,
        status: internalErrorStatus(applied.error),
        outcome: 'patch-error',
        code: 0,
      };
    }
    const problem = patchedObjectProblem(this.current, applied.value);
    if (problem !== undefined) {
      return { kind: 'status', changed: false, status: internalErrorStatus(problem), outcome: 'patch-error', code: 0 };
    }
    const changed = !isJsonEqual(this.current, applied.value);
    this.recorder.annotations.add(
      patchAnnotationKey(round, hook.index),
      patchAnnotationValue(hook.configurationName, hook.name, decoded.value),
    );
    if (changed) {
      this.current = applied.value;
      this.patchFromOriginal = diffPatch(this.original, this.current);
    }
    return changed ? { kind: 'ok', changed: true } : UNCHANGED;
  }
}
