/**
 * How the controller reads an object's real state: the port processJob uses, and the reference a
 * job names. The real reader is `kubernetesObjectReader` (`@hookgate/queue/kubernetes`); tests
 * use an in-memory one.
 */
import type { ObservedObject } from './decide-persistence.js';
import type { AdmissionSummary } from './job-schema.js';

/** The object a job is about: the parent object for a subresource request. */
export interface ObjectRef {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** '' for cluster-scoped resources. */
  readonly namespace: string;
  readonly name: string;
}

/**
 * The apiserver could not answer now (429, 5xx, unreachable): read again later. Not the job's
 * fault, so the delay does not use up an attempt.
 */
export interface ReadUnavailable {
  readonly kind: 'unavailable';
  /** One line for logs: `GET /apis/apps/v1/namespaces/shop/deployments/web: HTTP 503`. */
  readonly reason: string;
  /** The apiserver's own hint (Retry-After, Status details.retryAfterSeconds), when it gave one. */
  readonly retryAfterMs?: number;
}

/**
 * A consistent (quorum) read of the object's metadata: the object, 'absent' (404), or
 * unavailable. Any other failure (403, a malformed answer) rejects and costs an attempt.
 */
export type ReadObject = (ref: ObjectRef) => Promise<ObservedObject | 'absent' | ReadUnavailable>;

export function objectRefOf(admission: AdmissionSummary): ObjectRef {
  return {
    group: admission.resource.group,
    version: admission.resource.version,
    resource: admission.resource.resource,
    namespace: admission.namespace,
    name: admission.name,
  };
}

/** `deployments.apps shop/web`, `namespaces shop`: for messages. */
export function describeObjectRef(ref: ObjectRef): string {
  const resource = ref.group === '' ? ref.resource : `${ref.resource}.${ref.group}`;
  return `${resource} ${ref.namespace === '' ? ref.name : `${ref.namespace}/${ref.name}`}`;
}
