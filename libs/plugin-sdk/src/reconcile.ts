/** ReconcileRequest → the plugin's reconcile handler → ReconcileResponse. */
import { status } from '@grpc/grpc-js';
import type { ReconcileRequest__Output, ReconcileResponse } from '@hookgate/proto';
import { HookCallError, describeError } from './hook-call-error.js';
import { asObject } from './hook-context.js';
import type { Plugin, ReconcileOutcome, ReconcileRequest, ReconcileResult } from './types.js';

const OUTCOMES: ReadonlySet<string> = new Set<ReconcileOutcome>(['PERSISTED', 'NOT_PERSISTED', 'UNKNOWN']);

export async function reconcile(plugin: Plugin, message: ReconcileRequest__Output): Promise<ReconcileResponse> {
  if (plugin.reconcile === undefined) {
    throw new HookCallError(status.UNIMPLEMENTED, `plugin ${JSON.stringify(plugin.name)} has no reconcile handler`);
  }
  const request = decodeReconcile(message);
  let result;
  try {
    result = await plugin.reconcile(request);
  } catch (error) {
    throw new HookCallError(
      status.INTERNAL,
      `reconcile of side effect ${JSON.stringify(request.sideEffect.kind)} ${JSON.stringify(request.sideEffect.key)} (hook ${JSON.stringify(request.hook)}) failed: ${describeError(error)}`,
      { cause: error },
    );
  }
  return readReconcileResult(plugin, result);
}

/** A handler's answer (nothing means done) → ReconcileResponse; anything else is the handler's bug. */
export function readReconcileResult(plugin: Plugin, result: unknown): ReconcileResponse {
  if (result === undefined || result === null) return { done: true };
  const answer = result as Partial<ReconcileResult>;
  if (typeof result !== 'object' || typeof answer.done !== 'boolean') {
    throw new HookCallError(
      status.INTERNAL,
      `reconcile handler of plugin ${JSON.stringify(plugin.name)} must return { done, message?, retryAfterMs? } or nothing`,
    );
  }
  return {
    done: answer.done,
    message: answer.message ?? '',
    retryAfterMs: Math.max(0, Math.round(answer.retryAfterMs ?? 0)),
  };
}

function decodeReconcile(message: ReconcileRequest__Output): ReconcileRequest {
  if (message.sideEffect === null)
    throw new HookCallError(status.INVALID_ARGUMENT, 'reconcile request carries no side effect');
  if (!OUTCOMES.has(message.outcome)) {
    throw new HookCallError(
      status.INVALID_ARGUMENT,
      `reconcile request has outcome ${message.outcome}; expected PERSISTED, NOT_PERSISTED or UNKNOWN`,
    );
  }
  let object;
  if (message.object.length > 0) {
    try {
      object = asObject(JSON.parse(message.object.toString('utf8')));
    } catch (error) {
      throw new HookCallError(
        status.INVALID_ARGUMENT,
        `reconcile request object is not valid JSON: ${describeError(error)}`,
      );
    }
  }
  const a = message.admission;
  return {
    hook: message.hook,
    sideEffect: { kind: message.sideEffect.kind, key: message.sideEffect.key, payload: message.sideEffect.payload },
    outcome: message.outcome as ReconcileOutcome,
    object,
    admission:
      a === null
        ? undefined
        : {
            uid: a.uid,
            operation: a.operation,
            group: a.group,
            version: a.version,
            resource: a.resource,
            subResource: a.subResource,
            namespace: a.namespace,
            name: a.name,
            allowed: a.allowed,
            dryRun: a.dryRun,
          },
    attempt: message.attempt,
  };
}
