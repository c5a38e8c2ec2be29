/**
 * The immutable-fields decision, pure: on UPDATE, compare the configured field paths between
 * oldObject and object with "cannot be changed once set" semantics:
 *   unset → unset or set   allowed (a field may be set once)
 *   set → same value       allowed
 *   set → other value      denied
 *   set → unset            denied (removing a value is a change)
 * Unset means absent or null. Values compare as JSON (map key order does not matter, list order does).
 */
import type { JsonValue } from '@hookgate/admission';
import { appendSegment, type FieldPath, type PathSegment } from './field-path.js';

/** Which objects an entry covers: by kind (`group/Kind`) or, in the Crossplane format, by resource. */
export type TargetMatcher =
  { by: 'kind'; group: string; kind: string } | { by: 'resource'; group: string; resource: string; version?: string };

export interface ImmutableEntry {
  target: TargetMatcher;
  paths: FieldPath[];
}

export interface ImmutablePolicy {
  entries: ImmutableEntry[];
}

export interface FieldChange {
  /** The concrete path, wildcards resolved (`spec.ports[1].port`). */
  path: string;
  before: JsonValue;
  /** undefined when the field was removed. */
  after: JsonValue | undefined;
}

export interface ImmutableRequest {
  operation: string;
  kind: { group: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  name?: string;
  namespace?: string;
  object?: JsonValue;
  oldObject?: JsonValue;
}

export type ImmutableDecision =
  { allowed: true } | { allowed: false; code: 422; reason: 'Invalid'; message: string; changes: FieldChange[] };

/** Values in messages are compact JSON cut to this many characters: a message never carries a whole object. */
export const MAX_RENDERED_VALUE = 64;

export function decideImmutableFields(request: ImmutableRequest, policy: ImmutablePolicy): ImmutableDecision {
  // Only UPDATE can change a set field; subresources (status, scale) cannot change these fields through this request.
  if (request.operation !== 'UPDATE' || request.subResource) return { allowed: true };
  const paths = pathsFor(request, policy);
  if (paths.length === 0) return { allowed: true };
  const changes = paths.flatMap((path) => findChanges(request.oldObject, request.object, path));
  if (changes.length === 0) return { allowed: true };
  return { allowed: false, code: 422, reason: 'Invalid', message: describeChanges(request, changes), changes };
}

export function pathsFor(request: ImmutableRequest, policy: ImmutablePolicy): FieldPath[] {
  const seen = new Set<string>();
  const paths: FieldPath[] = [];
  for (const entry of policy.entries) {
    if (!matchesTarget(entry.target, request)) continue;
    for (const path of entry.paths) {
      if (seen.has(path.text)) continue;
      seen.add(path.text);
      paths.push(path);
    }
  }
  return paths;
}

function matchesTarget(target: TargetMatcher, request: ImmutableRequest): boolean {
  if (target.by === 'kind') return target.group === request.kind.group && target.kind === request.kind.kind;
  return (
    target.group === request.resource.group &&
    target.resource === request.resource.resource &&
    (target.version === undefined || target.version === request.resource.version)
  );
}

/** Every concrete field under `path` whose value was set in `before` and differs in `after`. */
export function findChanges(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  path: FieldPath,
): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, path.segments, '', out);
  return out;
}

function walk(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  segments: readonly PathSegment[],
  at: string,
  out: FieldChange[],
): void {
  if (isUnset(before)) return; // unset before: may be set now, whatever lies below
  const [segment, ...rest] = segments;
  if (segment === undefined) {
    if (isUnset(after)) out.push({ path: at, before, after: undefined });
    else if (!jsonEqual(before, after)) out.push({ path: at, before, after });
    return;
  }
  switch (segment.kind) {
    case 'field':
      walk(child(before, segment.name), child(after, segment.name), rest, appendSegment(at, segment), out);
      return;
    case 'index':
      walk(element(before, segment.index), element(after, segment.index), rest, appendSegment(at, segment), out);
      return;
    case 'any':
      // By position for lists and by key for maps; only entries present before can have changed.
      if (Array.isArray(before)) {
        before.forEach((_, index) =>
          walk(element(before, index), element(after, index), rest, appendSegment(at, { kind: 'index', index }), out),
        );
      } else if (isMap(before)) {
        for (const name of Object.keys(before))
          walk(child(before, name), child(after, name), rest, appendSegment(at, { kind: 'field', name }), out);
      } else if (rest.length === 0 && !jsonEqual(before, after)) {
        out.push({ path: at, before, after: isUnset(after) ? undefined : after });
      }
      return;
  }
}

function isUnset(value: JsonValue | undefined): value is null | undefined {
  return value === undefined || value === null;
}

function isMap(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(value: JsonValue | undefined, name: string): JsonValue | undefined {
  return isMap(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

function element(value: JsonValue | undefined, index: number): JsonValue | undefined {
  return Array.isArray(value) ? value[index] : undefined;
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isMap(a) && isMap(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
    );
  }
  return false;
}

/** Compact JSON, cut to MAX_RENDERED_VALUE characters; `<unset>` for a removed field. */
export function renderValue(value: JsonValue | undefined): string {
  if (value === undefined) return '<unset>';
  const text = JSON.stringify(value);
  return text.length > MAX_RENDERED_VALUE ? `${text.slice(0, MAX_RENDERED_VALUE - 3)}...` : text;
}

/** Worded like the apiserver's 422: `VPC.ec2.aws.crossplane.io "prod" is invalid: spec.x: cannot be changed once set (...)`. */
function describeChanges(request: ImmutableRequest, changes: FieldChange[]): string {
  const kind = request.kind.group === '' ? request.kind.kind : `${request.kind.kind}.${request.kind.group}`;
  const name = request.name || objectName(request.object) || objectName(request.oldObject) || '<unnamed>';
  const details = changes.map(
    (c) => `${c.path}: cannot be changed once set (was ${renderValue(c.before)}, now ${renderValue(c.after)})`,
  );
  return `${kind} ${JSON.stringify(name)} is invalid: ${details.join('; ')}`;
}

function objectName(object: JsonValue | undefined): string | undefined {
  const metadata = isMap(object) ? object['metadata'] : undefined;
  const name = isMap(metadata) ? metadata['name'] : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
