/**
 * One Admit message → one AdmitResponse or one HookCallError, whatever the handler does:
 * it may return, resolve, throw or reject, synchronously or not. Callback style, so that a
 * synchronous handler costs no promise.
 */
import { status } from '@grpc/grpc-js';
import type { AdmissionRequest } from '@hookgate/admission';
import type { AdmitRequest__Output, AdmitResponse } from '@hookgate/proto';
import { answerMutation, answerValidation } from './answer.js';
import { decodeAdmissionRequest, type RequestSource } from './decode-request.js';
import { HookCallError, handlerFailed } from './hook-call-error.js';
import { HookContext } from './hook-context.js';
import type { HookSpec, Plugin } from './types.js';

/** `request`: with an error, the request's metadata when it could be decoded, for logs (kind, namespace/name, uid; never contents). */
export type AdmitDone = (
  error: HookCallError | null,
  response: AdmitResponse | null,
  request: AdmissionRequest | undefined,
) => void;

export function admit(plugin: Plugin, message: AdmitRequest__Output, done: AdmitDone): void {
  let spec: HookSpec;
  let source: RequestSource | undefined;
  let ctx: HookContext;
  try {
    spec = findHook(plugin, message);
    source = decodeAdmissionRequest(message);
    // A mutating handler gets its own copy (made on first read): the patch is computed against the untouched original.
    ctx = new HookContext(message.hook, spec.phase, message.round === 1 ? 1 : 0, source, spec.phase === 'mutating');
  } catch (error) {
    done(error instanceof HookCallError ? error : new HookCallError(status.INTERNAL, String(error)), null, undefined);
    return;
  }

  let result: unknown;
  try {
    result = spec.phase === 'mutating' ? spec.mutate(ctx) : spec.validate(ctx);
  } catch (error) {
    done(failedCall(message.hook, error), null, headForLogs(source));
    return;
  }
  if (isThenable(result)) {
    // Closures only for asynchronous handlers: a synchronous one is answered without any.
    result.then(
      (value) => finish(spec, ctx, value, message, source, done),
      (error: unknown) => done(failedCall(message.hook, error), null, headForLogs(source)),
    );
  } else {
    finish(spec, ctx, result, message, source, done);
  }
}

function finish(
  spec: HookSpec,
  ctx: HookContext,
  result: unknown,
  message: AdmitRequest__Output,
  source: RequestSource,
  done: AdmitDone,
): void {
  let response: AdmitResponse;
  try {
    response = spec.phase === 'mutating' ? answerMutation(ctx, result) : answerValidation(ctx, result);
  } catch (error) {
    done(error instanceof HookCallError ? error : handlerFailed(message.hook, error), null, headForLogs(source));
    return;
  }
  done(null, response, undefined);
}

/** The request's metadata for a failure's log line, parsed only then; none when unusable. */
function headForLogs(source: RequestSource): AdmissionRequest | undefined {
  try {
    return source.head;
  } catch {
    return undefined;
  }
}

/** A request that could not be decoded when the handler first read an object stays INVALID_ARGUMENT. */
function failedCall(hook: string, error: unknown): HookCallError {
  return error instanceof HookCallError ? error : handlerFailed(hook, error);
}

function findHook(plugin: Plugin, message: AdmitRequest__Output): HookSpec {
  const spec = plugin.hooks.get(message.hook);
  if (spec === undefined) {
    const served = [...plugin.hooks.keys()].map((h) => JSON.stringify(h)).join(', ');
    throw new HookCallError(
      status.NOT_FOUND,
      `plugin ${JSON.stringify(plugin.name)} has no hook ${JSON.stringify(message.hook)} (it serves ${served}); check the webhook name in the configuration`,
    );
  }
  const called = message.phase === 'MUTATING' ? 'mutating' : message.phase === 'VALIDATING' ? 'validating' : spec.phase;
  if (called !== spec.phase) {
    throw new HookCallError(
      status.FAILED_PRECONDITION,
      `hook ${JSON.stringify(message.hook)} is ${spec.phase} but was called as ${called}; declare it in a ${spec.phase === 'mutating' ? 'Mutating' : 'Validating'}WebhookConfiguration`,
    );
  }
  return spec;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
