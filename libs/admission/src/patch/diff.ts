/**
 * The one combined patch Hookgate returns to the apiserver: the difference between the object
 * it received and the object after all hooks (fast-json-patch `compare`, RFC 6902 paths escaped).
 */
import jsonPatch from 'fast-json-patch';
import type { JsonValue } from '../types/json.js';
import type { PatchOperation } from '../types/patch-operation.js';
import { isJsonEqual } from './json-patch.js';

/** Operations turning `original` into `final`; empty when they are JSON-equal. Never mutates either. */
export function diffPatch(original: JsonValue | undefined, final: JsonValue | undefined): PatchOperation[] {
  if (isJsonEqual(original, final)) return [];
  const bothContainers =
    isContainer(original) && isContainer(final) && Array.isArray(original) === Array.isArray(final);
  if (!bothContainers) return [{ op: 'replace', path: '', value: final ?? null }];
  return jsonPatch.compare(original as object, final as object) as PatchOperation[];
}

function isContainer(value: JsonValue | undefined): boolean {
  return value !== null && typeof value === 'object';
}
