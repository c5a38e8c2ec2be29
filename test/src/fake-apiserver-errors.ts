/**
 * The apiserver's failure answers as the fake apiserver gives them: a Status body (kind Status,
 * code, reason, message, details) carried by an ApiError, so the store can refuse a write and the
 * HTTP layer can answer with exactly what the real apiserver would.
 */

/** What an error names of a resource (a ResourceInfo fits; declared here so the store can import this module). */
interface ResourceNames {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  /** The plural resource (`configmaps`), as the apiserver puts it in details.kind. */
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly { reason: string; message: string; field: string }[];
  readonly retryAfterSeconds?: number;
}

export function statusBody(code: number, reason: string, message: string, details?: StatusDetails) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

/** A refused request; `status` is the body the apiserver answers with. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(`fake apiserver: ${message}`);
    this.name = 'ApiError';
  }

  get status(): ReturnType<typeof statusBody> {
    return statusBody(this.code, this.reason, this.message.replace(/^fake apiserver: /, ''), this.details);
  }
}

/** The qualified resource the apiserver names in messages: `namespaces`, `deployments.apps`. */
export const qualifiedResource = (r: ResourceNames): string =>
  r.group === '' ? r.resource : `${r.resource}.${r.group}`;

const detailsFor = (r: ResourceNames, name: string, extra: Partial<StatusDetails> = {}): StatusDetails => ({
  name,
  ...(r.group ? { group: r.group } : {}),
  kind: r.resource,
  ...extra,
});

export const notFound = (r: ResourceNames, name: string) =>
  new ApiError(404, 'NotFound', `${qualifiedResource(r)} "${name}" not found`, detailsFor(r, name));

export const alreadyExists = (r: ResourceNames, name: string) =>
  new ApiError(409, 'AlreadyExists', `${qualifiedResource(r)} "${name}" already exists`, detailsFor(r, name));

/** Optimistic-concurrency and precondition failures: 409 Conflict. */
export const conflict = (r: ResourceNames, name: string, why: string) =>
  new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(r)} "${name}": ${why}`,
    detailsFor(r, name),
  );

export const STALE_RESOURCE_VERSION =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid with one cause, as validation failures come back. */
export function invalid(r: ResourceNames, name: string, field: string, reason: string, why: string): ApiError {
  const message = `${r.kind}${r.group ? `.${r.group}` : ''} "${name}" is invalid: ${field}: ${why}`;
  return new ApiError(422, 'Invalid', message, {
    ...detailsFor(r, name),
    kind: r.kind,
    causes: [{ reason, message: why, field }],
  });
}

export const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);
