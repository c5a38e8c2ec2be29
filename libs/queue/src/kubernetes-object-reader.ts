/**
 * The real ReadObject: a consistent, metadata-only GET (no resourceVersion, so a quorum read;
 * `Accept: ...;as=PartialObjectMetadata`, so the object's spec and data are never fetched)
 * through @hookgate/kubernetes. For a subresource job it reads the parent object (objectRefOf).
 * Its own entry point (`@hookgate/queue/kubernetes`) because client-node takes about a second to
 * load, which the gateway must not pay for the job schema.
 *
 *   const readObject = kubernetesObjectReader(loadKubeConfig({ mode: 'inCluster' }));
 *
 * 404 is 'absent' (the object, or its resource, does not exist); 429, 5xx and an unreachable
 * apiserver are 'unavailable' (read again later, no attempt used); other answers (401, 403, a
 * malformed object) reject: they need an operator, and cost attempts until the job is failed.
 */
import {
  isKubernetesApiError,
  isNotFound,
  resourceClient,
  type KubeConfig,
  type KubernetesApiError,
  type KubernetesObject,
} from '@hookgate/kubernetes';
import { isHookgateError } from '@hookgate/errors';
import type { ObservedObject } from './decide-persistence.js';
import type { ObjectRef, ReadObject, ReadUnavailable } from './object-reader.js';

export interface ObjectReaderOptions {
  /** One read's deadline; a read that takes longer is 'unavailable' (default 10 s). */
  readonly timeoutMs?: number;
}

export function kubernetesObjectReader(kubeConfig: KubeConfig, options: ObjectReaderOptions = {}): ReadObject {
  const api = resourceClient(kubeConfig);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (ref) => {
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      const object = await api.get(
        ref,
        ref.name,
        ref.namespace === ''
          ? { metadataOnly: true, signal }
          : { namespace: ref.namespace, metadataOnly: true, signal },
      );
      return observedFromObject(object, ref);
    } catch (error) {
      return classifyReadError(error);
    }
  };
}

/** The metadata decidePersistence needs; an answer without uid, name or resourceVersion is not an object. */
export function observedFromObject(object: KubernetesObject, ref: ObjectRef): ObservedObject {
  const metadata = object.metadata ?? {};
  const { uid, name, resourceVersion, generation, deletionTimestamp } = metadata;
  if (typeof uid !== 'string' || typeof name !== 'string' || typeof resourceVersion !== 'string') {
    throw new Error(
      `the apiserver's answer for ${ref.resource} ${ref.name} has no metadata.uid, name or resourceVersion`,
    );
  }
  return {
    uid,
    name,
    resourceVersion,
    ...(typeof generation === 'number' ? { generation } : {}),
    // client-node types it as a Date; over plain JSON it is the RFC 3339 string.
    ...(deletionTimestamp === undefined || deletionTimestamp === null
      ? {}
      : { deletionTimestamp: String(deletionTimestamp as unknown) }),
  };
}

/** 'absent', 'unavailable', or the error again (an answer that needs an operator). */
export function classifyReadError(error: unknown): 'absent' | ReadUnavailable {
  if (isNotFound(error)) return 'absent';
  if (isKubernetesApiError(error)) {
    if (error.status === 429 || error.status >= 500) return unavailable(error);
    throw error;
  }
  // A coded error is an answer we understood and refused (HG_ERR_KUBERNETES_UNEXPECTED_ANSWER).
  if (isHookgateError(error)) throw error;
  // The connection (refused, reset, TLS, DNS: system errors carry a code) or the read's own
  // timeout: read again later. Anything else is the client refusing its own configuration (an
  // http:// server without insecure-skip-tls-verify, a broken kubeconfig): waiting would never end.
  if (isConnectionFailure(error))
    return { kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
  throw error;
}

function isConnectionFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return true;
  }
  return false;
}

function unavailable(error: KubernetesApiError): ReadUnavailable {
  const seconds = (error.body as { details?: { retryAfterSeconds?: unknown } } | null | undefined)?.details
    ?.retryAfterSeconds;
  const reason = `${error.request}: ${error.answer}`;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? { kind: 'unavailable', reason, retryAfterMs: Math.round(seconds * 1000) }
    : { kind: 'unavailable', reason };
}
