/**
 * The calling failures the chain itself raises (the transports raise the others):
 * each is a HookFailure, so failurePolicy decides it like any other calling error (§15).
 */
import type { Hook, HookTarget } from '../types/hook.js';
import type { HookFailure, HookFailureKind } from '../types/hook-failure.js';
import { goQuote } from './go-quote.js';

// A Record over the union, so a new failure kind does not compile until it is listed here.
const FAILURE_KINDS: Readonly<Record<HookFailureKind, true>> = {
  transport: true,
  timeout: true,
  'http-status': true,
  malformed: true,
  'invalid-response': true,
  'undecodable-patch': true,
  'unsupported-patch-type': true,
  'no-known-version': true,
  'sideeffects-nil': true,
  client: true,
};

export function isHookFailureKind(value: unknown): value is HookFailureKind {
  return typeof value === 'string' && Object.hasOwn(FAILURE_KINDS, value);
}

/** §10: none of admissionReviewVersions is v1 or v1beta1. */
export function noKnownVersionFailure(): HookFailure {
  return {
    kind: 'no-known-version',
    message: 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    code: 400,
  };
}

/** §19: a dry-run request and a hook whose sideEffects is null. */
export function sideEffectsNilFailure(): HookFailure {
  return { kind: 'sideeffects-nil', message: 'Webhook SideEffects is nil', code: 400 };
}

/**
 * The request budget was spent before the hook could be called. client-go's retry guard returns the
 * bare context error before any request is built (rest/with_retry.go, Before), so no `Post "<url>"`.
 */
export function deadlineExceededFailure(_hook: Pick<Hook, 'target'>): HookFailure {
  return { kind: 'timeout', message: 'failed to call webhook: context deadline exceeded', code: 503 };
}

/** The apiserver hung up before the call started: the call is not made (the bare `context canceled`). */
export function cancelledFailure(_hook: Pick<Hook, 'target'>): HookFailure {
  return { kind: 'transport', message: 'failed to call webhook: context canceled', code: 503 };
}

/** A HookInvoker that threw or rejected instead of returning a HookReply: a transport failure. */
export function invokerErrorFailure(hook: Pick<Hook, 'target'>, error: unknown): HookFailure {
  // JSON encoding recurses: an object nested thousands of levels deep overflows the stack, which is
  // the gateway's limit, not the hook's fault. Say so rather than leave a bare V8 message.
  const overflow = error instanceof RangeError && /call stack/i.test(error.message);
  const text = overflow
    ? `the object is nested too deeply for the gateway to encode (${error.message})`
    : errorText(error);
  return { kind: 'transport', message: `failed to call webhook: ${describeCall(hook.target)}: ${text}`, code: 503 };
}

/** `Post "<url>"` as Go's url.Error prints it; plugins have no URL, so they are named instead. */
export function describeCall(target: HookTarget): string {
  switch (target.kind) {
    case 'url':
      return `Post ${goQuote(target.url)}`;
    case 'service':
      return `Post ${goQuote(`https://${target.name}.${target.namespace}.svc:${target.port}${target.path}`)}`;
    case 'plugin':
      return `plugin ${goQuote(target.plugin)}`;
  }
}

/** An error's message for a status or log line; never throws, whatever was thrown. */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return error.message === '' ? error.name : error.message;
    return String(error);
  } catch {
    return 'unprintable error';
  }
}
