/**
 * Every Status the dispatcher can answer with, worded exactly as kube-apiserver words it
 * (apimachinery pkg/api/errors/errors.go, apiserver webhook/errors/statuserror.go,
 * util/webhook/error.go). The apiserver's wordings live here and nowhere else.
 */
import type { HookFailure } from '../types/hook-failure.js';
import type { JsonValue } from '../types/json.js';
import type { Status } from '../types/review.js';
import { goQuote } from './go-quote.js';

/** schema.GroupResource: `String()` is `resource` or `resource.group`. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export function formatGroupResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** §16 (statuserror.go ToStatusErr): a hook's `allowed: false` answer as the Status to return. */
export function buildDenialStatus(hookName: string, result: Status | undefined): Status {
  const deniedBy = `admission webhook ${goQuote(hookName)} denied the request`;
  const status: Status = { ...(result ?? { status: 'Failure' }) };
  // Never a code below 400 or a "Success" status along with a rejection.
  if (status.code === undefined || !(status.code >= 400)) status.code = 400;
  if (status.status === undefined || status.status === '' || status.status === 'Success') status.status = 'Failure';
  if (status.message !== undefined && status.message.length > 0) {
    status.message = `${deniedBy}: ${status.message}`;
  } else if (status.reason !== undefined && status.reason.length > 0) {
    status.message = `${deniedBy}: ${status.reason}`;
  } else {
    status.message = `${deniedBy} without explanation`;
  }
  return status;
}

/** apierrors.NewInternalError(err): 500, reason InternalError, the error text as the one cause. */
export function internalErrorStatus(errorText: string): Status {
  return {
    status: 'Failure',
    message: `Internal error occurred: ${errorText}`,
    reason: 'InternalError',
    details: { causes: [{ message: errorText }] },
    code: 500,
  };
}

/** ErrCallingWebhook.Error(): `failed calling webhook "<n>": <reason>`. */
export function formatCallingError(hookName: string, reason: string): string {
  if (reason === '') return `failed calling webhook ${goQuote(hookName)}; no further details available`;
  return `failed calling webhook ${goQuote(hookName)}: ${reason}`;
}

/** A calling failure under failurePolicy Fail (§15): 500 `Internal error occurred: failed calling webhook ...`. */
export function callingFailureStatus(hookName: string, failure: Pick<HookFailure, 'message'>): Status {
  return internalErrorStatus(formatCallingError(hookName, failure.message));
}

/** apierrors.NewBadRequest(message). */
export function badRequestStatus(message: string): Status {
  return { status: 'Failure', message, reason: 'BadRequest', code: 400 };
}

/** §19: a dry-run request reached a hook whose sideEffects is Unknown or Some. Not a calling error. */
export function dryRunUnsupportedStatus(hookName: string): Status {
  return badRequestStatus(`admission webhook ${goQuote(hookName)} does not support dry run`);
}

/** §11: the request deadline passed (mutating fail-open after the deadline; validating before start). */
export function timeoutStatus(): Status {
  return {
    status: 'Failure',
    message: 'Timeout: request did not complete within requested timeout',
    reason: 'Timeout',
    // StatusDetails{RetryAfterSeconds: 0}: every field is omitempty, so it encodes as {}.
    details: {},
    code: 504,
  };
}

/** apierrors.NewNotFound(groupResource, name). */
export function notFoundStatus(gr: GroupResource, name: string): Status {
  return {
    status: 'Failure',
    message: `${formatGroupResource(gr)} ${goQuote(name)} not found`,
    reason: 'NotFound',
    details: statusDetails(gr, name),
    code: 404,
  };
}

/** §6: namespaceSelector lookup of a namespace that does not exist: `namespaces "<n>" not found`. */
export function namespaceNotFoundStatus(namespace: string): Status {
  return notFoundStatus({ group: '', resource: 'namespaces' }, namespace);
}

/**
 * apierrors.NewForbidden(groupResource, name, err), used for matchConditions errors under Fail (§9):
 * `<resource>[.<group>] "<name>" is forbidden: <errors>` (no name: `<resource> is forbidden: ...`).
 */
export function forbiddenStatus(gr: GroupResource, name: string, errorText: string): Status {
  let message: string;
  if (gr.group === '' && gr.resource === '') message = `forbidden: ${errorText}`;
  else if (name === '') message = `${formatGroupResource(gr)} is forbidden: ${errorText}`;
  else message = `${formatGroupResource(gr)} ${goQuote(name)} is forbidden: ${errorText}`;
  return { status: 'Failure', message, reason: 'Forbidden', details: statusDetails(gr, name), code: 403 };
}

/** §12f: a non-empty patch for a request without an object (DELETE, CONNECT without options...). */
export function modificationNotSupportedStatus(hookName: string): Status {
  return internalErrorStatus(
    `admission webhook ${goQuote(hookName)} attempted to modify the object, which is not supported for this operation`,
  );
}

/** utilerrors.NewAggregate(errs).Error(): one error as-is, several as `[e1, e2]`, duplicates collapsed. */
export function formatAggregate(errors: readonly string[]): string {
  const unique: string[] = [];
  for (const e of errors) if (!unique.includes(e)) unique.push(e);
  if (unique.length === 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

// StatusDetails{Group, Kind: resource, Name}: empty strings are omitted on the wire.
function statusDetails(gr: GroupResource, name: string): JsonValue {
  const details: Record<string, JsonValue> = {};
  if (name !== '') details['name'] = name;
  if (gr.group !== '') details['group'] = gr.group;
  if (gr.resource !== '') details['kind'] = gr.resource;
  return details;
}
