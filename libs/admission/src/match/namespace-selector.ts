/**
 * namespaceSelector (k8s-semantics §6).
 * Cluster-scoped objects other than Namespaces always match. For a Namespace CREATE/UPDATE the
 * labels come from the object itself; otherwise from the NamespaceLookup (sync when cached,
 * a Promise for a live GET). A missing namespace is a 404 NotFound, any other lookup error a 500.
 */
import type { NamespaceLookup, NamespaceLookupResult } from '../types/namespace-lookup.js';
import type { CompiledSelector } from '../types/hook.js';
import type { AdmissionRequest } from '../types/review.js';
import { internalErrorStatus, namespaceNotFoundStatus } from '../errors/status.js';
import { labelsOf } from './label-selector.js';
import { SELECTOR_MATCHES, SELECTOR_NO_MATCH, selectorError } from './selector-result.js';
import type { SelectorResult } from './selector-result.js';

export type NamespaceAttributes = Pick<
  AdmissionRequest,
  'namespace' | 'resource' | 'subResource' | 'operation' | 'object'
>;

/** meta.Accessor's error for a value that is not an object. */
const NOT_AN_OBJECT = 'object does not implement the Object interfaces';

/** The request is about a Namespace itself and carries its new labels (§6 step 3). */
function usesOwnLabels(request: NamespaceAttributes): boolean {
  return (
    request.resource.resource === 'namespaces' &&
    (request.subResource ?? '') === '' &&
    (request.operation === 'CREATE' || request.operation === 'UPDATE')
  );
}

function fromLookup(selector: CompiledSelector, namespace: string, result: NamespaceLookupResult): SelectorResult {
  if ('error' in result) return selectorError(internalErrorStatus(result.error));
  if (!result.found) return selectorError(namespaceNotFoundStatus(namespace));
  return selector.matches(result.labels) ? SELECTOR_MATCHES : SELECTOR_NO_MATCH;
}

const lookupFailure = (error: unknown): SelectorResult =>
  selectorError(internalErrorStatus(error instanceof Error ? error.message : String(error)));

export function matchNamespaceSelector(
  selector: CompiledSelector,
  request: NamespaceAttributes,
  namespaces: NamespaceLookup,
): SelectorResult | Promise<SelectorResult> {
  const namespace = request.namespace ?? '';
  // Cluster-scoped resources other than namespaces are never exempted.
  if (namespace === '' && request.resource.resource !== 'namespaces') return SELECTOR_MATCHES;
  if (selector.error !== undefined) return selectorError(internalErrorStatus(selector.error));
  if (selector.isEmpty) return SELECTOR_MATCHES;

  if (usesOwnLabels(request)) {
    const object = request.object;
    if (object === null || object === undefined || typeof object !== 'object' || Array.isArray(object)) {
      return selectorError(internalErrorStatus(NOT_AN_OBJECT));
    }
    return selector.matches(labelsOf(object) ?? {}) ? SELECTOR_MATCHES : SELECTOR_NO_MATCH;
  }

  let result: NamespaceLookupResult | Promise<NamespaceLookupResult>;
  try {
    result = namespaces(namespace);
  } catch (error) {
    return lookupFailure(error);
  }
  if (result instanceof Promise) {
    return result.then((r) => fromLookup(selector, namespace, r), lookupFailure);
  }
  return fromLookup(selector, namespace, result);
}
