/**
 * §12g: the apiserver decodes a patched object back into the object's type, and a failure is an
 * internal error (500, whatever the failurePolicy). Without the scheme Hookgate checks what it can
 * know: the result must be a JSON object, and must not name another kind or API group. An absent
 * kind or apiVersion is filled in from the type, and another version of the same group and kind
 * may be served, so both pass. (A kind the apiserver has registered decodes and fails only at the
 * end of its chain, in the conversion back; Hookgate fails it at once.)
 */
import type { JsonValue } from '../types/json.js';
import { notAnObjectError } from './go-decode-errors.js';

const typeMeta = (v: JsonValue, key: 'apiVersion' | 'kind'): unknown =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v[key] : undefined;

/** The group of an apiVersion (`apps/v1` → `apps`, `v1` → ``); undefined when there is none to compare. */
function groupOf(apiVersion: unknown): string | undefined {
  if (typeof apiVersion !== 'string' || apiVersion === '') return undefined;
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Why the patched object would not decode into the original's type, or undefined when it would. */
export function patchedObjectProblem(original: JsonValue, patched: JsonValue): string | undefined {
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
    return notAnObjectError(patched);
  }
  const before = { apiVersion: typeMeta(original, 'apiVersion'), kind: typeMeta(original, 'kind') };
  const after = { apiVersion: patched['apiVersion'], kind: patched['kind'] };
  // Only what both sides declare is compared: the decoder defaults what the patched object omits.
  const declared = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const kindKept = !declared(before.kind) || !declared(after.kind) || after.kind === before.kind;
  const groupKept =
    groupOf(before.apiVersion) === undefined ||
    groupOf(after.apiVersion) === undefined ||
    groupOf(after.apiVersion) === groupOf(before.apiVersion);
  if (kindKept && groupKept) return undefined;
  const show = (gvk: { apiVersion: unknown; kind: unknown }): string =>
    `${JSON.stringify(gvk.apiVersion ?? '')}, Kind=${JSON.stringify(gvk.kind ?? '')}`;
  return `the patched object is a ${show(after)}, not the ${show(before)} the request is for`;
}
