/**
 * objectSelector (k8s-semantics §7): matches when the labels of request.object OR request.oldObject
 * match. A null object, or one without `metadata` (CONNECT options such as PodExecOptions), never
 * matches a non-empty selector, even one like `NotIn` that an empty label set would satisfy.
 */
import type { CompiledSelector } from '../types/hook.js';
import type { AdmissionRequest } from '../types/review.js';
import { internalErrorStatus } from '../errors/status.js';
import { labelsOf } from './label-selector.js';
import { SELECTOR_MATCHES, SELECTOR_NO_MATCH, selectorError } from './selector-result.js';
import type { SelectorResult } from './selector-result.js';

function matchesObject(selector: CompiledSelector, object: unknown): boolean {
  const labels = labelsOf(object);
  return labels !== undefined && selector.matches(labels);
}

export function matchObjectSelector(
  selector: CompiledSelector,
  request: Pick<AdmissionRequest, 'object' | 'oldObject'>,
): SelectorResult {
  if (selector.error !== undefined) return selectorError(internalErrorStatus(selector.error));
  if (selector.isEmpty) return SELECTOR_MATCHES;
  return matchesObject(selector, request.object) || matchesObject(selector, request.oldObject)
    ? SELECTOR_MATCHES
    : SELECTOR_NO_MATCH;
}
