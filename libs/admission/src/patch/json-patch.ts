/**
 * JSON Patch exactly as the apiserver applies a mutating hook's patch (gopkg.in/evanphx/json-patch.v4,
 * k8s-semantics.md §12). fast-json-patch does the patching; this file adapts v4's semantics and wording.
 * Per operation it resolves the path as v4's findObject does, refuses with Go's error text what v4
 * refuses, and hands fast-json-patch (validation on) an RFC 6901 pointer with absolute array indices:
 * v4 counts negative indices from the end, reads `+01` as 1 and ignores text before the first `/`.
 * Where v4 is laxer than RFC 6902 the operation is rewritten: `replace` of a missing object member is
 * an `add`, `copy` of a missing member adds null. Errors are values, never thrown; the input is never modified.
 */
import jsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import type { Result } from '../result.js';
import { ok, err } from '../result.js';
import type { JsonObject, JsonValue } from '../types/json.js';
import { goQuote } from '../errors/go-quote.js';
import { checkGoJsonSyntax, goJsonKind } from './go-json.js';
import { cloneJsonValue, shallowCopyContainer } from './clone-json.js';

/**
 * One operation as Go decodes it (`map[string]*json.RawMessage`): member name → the member's raw
 * JSON text, or null for a JSON null. A null array element decodes to a null operation.
 */
export type DecodedOperation = ReadonlyMap<string, string | null> | null;

export interface DecodedPatch {
  readonly operations: readonly DecodedOperation[];
}

const ERR_MISSING = 'missing value';
/** Go's maximum nesting depth (go-json.ts): a shorter text cannot nest deeper. */
const MAX_CHEAP_CHECK_LENGTH = 10_000;
const ERR_TEST_FAILED = 'test failed';
const ERR_INVALID_INDEX = 'invalid index referenced';

/**
 * jsonpatch.DecodePatch: the hook's patch text → operations, or Go's json error text
 * (`unexpected end of JSON input`, `invalid character '}' looking for beginning of value`,
 * `json: cannot unmarshal object into Go value of type jsonpatch.Patch`). `null` is an empty patch.
 */
export function decodePatch(text: string): Result<DecodedPatch, string> {
  if (!isShallowValidJson(text)) {
    const syntaxError = checkGoJsonSyntax(text);
    if (syntaxError !== undefined) return err(syntaxError);
  }
  const top = goJsonKind(text);
  if (top === 'null') return ok({ operations: [] });
  if (top !== 'array') return err(`json: cannot unmarshal ${top} into Go value of type jsonpatch.Patch`);
  const operations: DecodedOperation[] = [];
  let typeError: string | undefined;
  for (const element of splitArray(text)) {
    const kind = goJsonKind(element);
    if (kind === 'null') {
      operations.push(null);
    } else if (kind === 'object') {
      const members = new Map<string, string | null>();
      for (const [key, raw] of splitObject(element)) members.set(key, goJsonKind(raw) === 'null' ? null : raw);
      operations.push(members);
    } else {
      // Go keeps decoding after a type error and reports the first one.
      typeError ??= `json: cannot unmarshal ${kind} into Go value of type jsonpatch.Operation`;
      operations.push(new Map());
    }
  }
  return typeError === undefined ? ok({ operations }) : err(typeError);
}

/**
 * The common case cheaply: JSON.parse accepts exactly the JSON text Go's scanner accepts (RFC 8259),
 * except nesting deeper than Go's limit, which a text shorter than that limit cannot reach. Anything
 * else goes through checkGoJsonSyntax, for Go's verdict and wording.
 */
function isShallowValidJson(text: string): boolean {
  if (text.length > MAX_CHEAP_CHECK_LENGTH) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Patch.Apply: applies all operations to a copy of `doc`; the first failure stops and is returned.
 * The copy is made on write: only the containers along the patched paths are copied, the rest is
 * shared with `doc` (which is never modified). A patch whose paths name a member that ordinary
 * objects inherit (`__proto__`, `constructor`, ...) works on a whole copy without prototypes instead,
 * so that such a name is an ordinary member, as it is for Go.
 */
export function applyPatch(doc: JsonValue, patch: DecodedPatch): Result<JsonValue, string> {
  if (doc === null || typeof doc !== 'object') {
    const kind = doc === null ? 'null' : typeof doc === 'boolean' ? 'bool' : typeof doc;
    return err(`json: cannot unmarshal ${kind} into Go value of type jsonpatch.partialDoc`);
  }
  const copyOnWrite = !namesInheritedMember(patch);
  const state: PatchState = copyOnWrite
    ? { root: doc, owned: new Set() }
    : { root: cloneWithoutPrototypes(doc), owned: undefined };
  for (const op of patch.operations) {
    const failure = applyOperation(state, op);
    if (failure !== undefined) return err(failure);
  }
  return ok(copyOnWrite ? state.root : cloneJson(state.root));
}

/** Does any path or from of the patch have a token that an ordinary object inherits? */
function namesInheritedMember(patch: DecodedPatch): boolean {
  for (const op of patch.operations) {
    if (op === null) continue;
    if (pointerNamesInherited(op.get('path')) || pointerNamesInherited(op.get('from'))) return true;
  }
  return false;
}

/** Member names an ordinary object inherits (`__proto__`, `constructor`, `toString`, ...), and `prototype`. */
const INHERITED_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

function pointerNamesInherited(raw: string | null | undefined): boolean {
  if (raw === undefined || raw === null) return false;
  let pointer: unknown;
  try {
    pointer = parseRawString(raw);
  } catch {
    return true; // not ours to judge here: the careful path reports it
  }
  if (typeof pointer !== 'string') return false;
  for (const token of pointer.split('/')) {
    const key = token.includes('~') ? jsonPatch.unescapePathComponent(token) : token;
    if (INHERITED_NAMES.has(key)) return true;
  }
  return false;
}

/** The operations as plain objects (for traces and tests); values parsed from their raw text. */
export function toPatchOperations(patch: DecodedPatch): Array<Record<string, unknown>> {
  // Object.fromEntries defines own members, so a `__proto__` member stays a member.
  return patch.operations.map((op) =>
    Object.fromEntries([...(op ?? [])].map(([key, raw]) => [key, raw === null ? null : parseRaw(raw)])),
  );
}

type Container = JsonObject | JsonValue[];

/**
 * The working copy. With `owned`, copy on write: the containers this patch copied (free to modify
 * in place); any other container is shared with the input and is copied before it is modified.
 * Without it, a whole copy whose objects have no prototype (see cloneWithoutPrototypes).
 */
interface PatchState {
  root: Container;
  readonly owned: Set<Container> | undefined;
}

/** Where a path's last token lives: its container, the container's canonical pointer, the decoded token. */
interface Parent {
  readonly container: Container;
  readonly pointer: string;
  readonly key: string;
}

/** A member as v4's container get sees it. `node` is Go's nil node (undefined) for a missing member or a JSON null. */
interface Member {
  readonly pointer: string;
  readonly exists: boolean;
  readonly node: JsonValue | undefined;
}

/** Operation.Kind → v4's apply step for it. */
const APPLY_STEPS = new Map<string, (state: PatchState, op: DecodedOperation) => string | undefined>([
  ['add', applyAdd],
  ['remove', applyRemove],
  ['replace', applyReplace],
  ['move', applyMove],
  ['test', applyTest],
  ['copy', applyCopy],
]);

function applyOperation(state: PatchState, op: DecodedOperation): string | undefined {
  const kind = readKind(op);
  const step = APPLY_STEPS.get(kind);
  return step === undefined ? `Unexpected kind: ${kind}` : step(state, op);
}

function applyAdd(state: PatchState, op: DecodedOperation): string | undefined {
  const path = readPointer(op, 'path');
  if (!path.ok) return `add operation failed to decode path: ${ERR_MISSING}`;
  const parent = locate(state.root, path.value);
  if (parent === undefined) return `add operation does not apply: doc is missing path: "${path.value}": ${ERR_MISSING}`;
  const at = insertionPointer(parent);
  if (!at.ok) return `error in add for path: '${path.value}': ${at.error}`;
  return failureOf(patchWith(state, { op: 'add', path: at.value, value: readValue(state, op) }));
}

function applyRemove(state: PatchState, op: DecodedOperation): string | undefined {
  const path = readPointer(op, 'path');
  if (!path.ok) return `remove operation failed to decode path: ${ERR_MISSING}`;
  const parent = locate(state.root, path.value);
  if (parent === undefined)
    return `remove operation does not apply: doc is missing path: "${path.value}": ${ERR_MISSING}`;
  const at = removablePointer(parent);
  if (!at.ok) return `error in remove for path: '${path.value}': ${at.error}`;
  return failureOf(patchWith(state, { op: 'remove', path: at.value }));
}

function applyReplace(state: PatchState, op: DecodedOperation): string | undefined {
  const path = readPointer(op, 'path');
  if (!path.ok) return `replace operation failed to decode path: ${path.error}`;
  const value = readValue(state, op);
  if (path.value === '') {
    // Go wraps a nil error here, hence the literal %!w(<nil>).
    if (value === null || typeof value !== 'object')
      return 'replace operation value must be object or array: %!w(<nil>)';
    return failureOf(patchWith(state, { op: 'replace', path: '', value }));
  }
  const parent = locate(state.root, path.value);
  if (parent === undefined)
    return `replace operation does not apply: doc is missing path: ${path.value}: ${ERR_MISSING}`;
  const member = memberOf(parent);
  if (!member.ok) return `replace operation does not apply: doc is missing key: ${path.value}: ${ERR_MISSING}`;
  // v4 replaces a missing object member without complaint; RFC 6902 and the library call that an add.
  const kind = member.value.exists ? 'replace' : 'add';
  return failureOf(patchWith(state, { op: kind, path: member.value.pointer, value }));
}

/**
 * v4 moves by remove then add, resolving the destination in what is left. fast-json-patch's own move
 * resolves it before the removal and adds unvalidated, so a move into its own child or into a slot the
 * removal shifted would silently lose the value: hence two library calls.
 */
function applyMove(state: PatchState, op: DecodedOperation): string | undefined {
  const from = readPointer(op, 'from');
  if (!from.ok) return `move operation failed to decode from: ${from.error}`;
  const source = locate(state.root, from.value);
  if (source === undefined)
    return `move operation does not apply: doc is missing from path: ${from.value}: ${ERR_MISSING}`;
  const at = removablePointer(source);
  if (!at.ok) return `error in move for path: '${source.key}': ${at.error}`;
  const removed = patchWith(state, { op: 'remove', path: at.value });
  if (!removed.ok) return removed.error;
  const path = readPointer(op, 'path');
  if (!path.ok) return `move operation failed to decode path: ${path.error}`;
  const target = locate(state.root, path.value);
  if (target === undefined)
    return `move operation does not apply: doc is missing destination path: ${path.value}: ${ERR_MISSING}`;
  const to = insertionPointer(target);
  if (!to.ok) return `error in move for path: '${path.value}': ${to.error}`;
  return failureOf(patchWith(state, { op: 'add', path: to.value, value: removed.value ?? null }));
}

/**
 * test changes nothing, so no library call: v4's nil rules, then isJsonEqual (fast-json-patch's
 * comparison calls expected.hasOwnProperty(), which a member of that name in the value breaks).
 */
function applyTest(state: PatchState, op: DecodedOperation): string | undefined {
  const path = readPointer(op, 'path');
  if (!path.ok) return `test operation failed to decode path: ${path.error}`;
  const failed = `testing value ${path.value} failed: ${ERR_TEST_FAILED}`;
  const expected = readRawValue(op);
  if (path.value === '') {
    // Go compares the whole document; an absent or null value never equals an object or array.
    return typeof expected === 'string' && isJsonEqual(state.root, parseRaw(expected)) ? undefined : failed;
  }
  const parent = locate(state.root, path.value);
  if (parent === undefined) return `test operation does not apply: is missing path: ${path.value}: ${ERR_MISSING}`;
  const member = memberOf(parent);
  if (!member.ok) return `error in test for path: '${path.value}': ${member.error}`;
  const actual = member.value.node;
  // Go's nil node (a missing member or a null) and an absent or null value match only each other.
  const expectsNil = expected === undefined || expected === null;
  if (actual === undefined || expectsNil) return actual === undefined && expectsNil ? undefined : failed;
  return isJsonEqual(actual, parseRaw(expected)) ? undefined : failed;
}

/**
 * v4 copies Go's nil node as null, so copying a missing member adds null where the library would
 * refuse (and its copy adds unvalidated, past an array's end): an add of our own clone of the source.
 */
function applyCopy(state: PatchState, op: DecodedOperation): string | undefined {
  const from = readPointer(op, 'from');
  if (!from.ok) return `copy operation failed to decode from: ${from.error}`;
  const source = locate(state.root, from.value);
  if (source === undefined)
    return `copy operation does not apply: doc is missing from path: ${from.value}: ${ERR_MISSING}`;
  const member = memberOf(source);
  if (!member.ok) return `error in copy for from: '${from.value}': ${member.error}`;
  const path = readPointer(op, 'path');
  if (!path.ok) return `copy operation failed to decode path: ${ERR_MISSING}`;
  const target = locate(state.root, path.value);
  if (target === undefined)
    return `copy operation does not apply: doc is missing destination path: ${path.value}: ${ERR_MISSING}`;
  const to = insertionPointer(target);
  if (!to.ok) return `error while adding value during copy: ${to.error}`;
  const copied =
    state.owned === undefined
      ? cloneWithoutPrototypes(member.value.node ?? null)
      : cloneJsonValue(member.value.node ?? null);
  return failureOf(patchWith(state, { op: 'add', path: to.value, value: copied }));
}

// --- the library call ---

/**
 * fast-json-patch applies one operation in place, validating it; the result is what it removed.
 * Prototype modifications need no ban: the working copy's objects have no prototype, so `__proto__`
 * is an ordinary member there, as it is for Go.
 */
function patchWith(state: PatchState, operation: Operation): Result<JsonValue | undefined, string> {
  if (state.owned !== undefined) ownPath(state, state.owned, operation.path);
  try {
    const result = jsonPatch.applyOperation(state.root, operation, true, true, false);
    state.root = result.newDocument;
    return ok(result.removed as JsonValue | undefined);
  } catch (error) {
    return err(describeLibraryFailure(operation, error));
  }
}

/**
 * A library refusal in v4's words. The checks above refuse everything v4 refuses before the library
 * runs, so this is a safety net that keeps any refusal a value rather than a throw.
 */
function describeLibraryFailure(operation: Operation, error: unknown): string {
  const name = error instanceof jsonPatch.JsonPatchError ? error.name : 'unexpected';
  switch (name) {
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
    case 'OPERATION_VALUE_OUT_OF_BOUNDS': {
      const index = operation.path.slice(operation.path.lastIndexOf('/') + 1);
      return `error in ${operation.op} for path: '${operation.path}': Unable to access invalid index: ${index}: ${ERR_INVALID_INDEX}`;
    }
    case 'OPERATION_FROM_UNRESOLVABLE':
      return `${operation.op} operation does not apply: doc is missing from path: ${'from' in operation ? operation.from : ''}: ${ERR_MISSING}`;
    default: // OPERATION_PATH_UNRESOLVABLE, OPERATION_PATH_CANNOT_ADD, a TypeError
      return `${operation.op} operation does not apply: doc is missing path: ${operation.path}: ${ERR_MISSING}`;
  }
}

function failureOf(result: Result<unknown, string>): string | undefined {
  return result.ok ? undefined : result.error;
}

/**
 * Copy on write: makes every container from the root down to the parent of the pointer's last token
 * one of this patch's own copies, linked in place of the shared original. The pointer is canonical
 * (absolute indices); where it leads nowhere, the library call refuses it next.
 */
function ownPath(state: PatchState, owned: Set<Container>, pointer: string): void {
  if (pointer === '') return;
  if (!owned.has(state.root)) {
    state.root = shallowCopyContainer(state.root);
    owned.add(state.root);
  }
  const tokens = pointer.split('/');
  let container: Container = state.root;
  // tokens[0] is the empty text before the first '/'; the last token names the member operated on.
  for (let i = 1; i < tokens.length - 1; i++) {
    const token = tokens[i] as string;
    const key = token.includes('~') ? jsonPatch.unescapePathComponent(token) : token;
    const child = (container as JsonObject)[key];
    if (child === null || typeof child !== 'object') return;
    let mine: Container = child;
    if (!owned.has(mine)) {
      mine = shallowCopyContainer(child);
      owned.add(mine);
      (container as JsonObject)[key] = mine;
    }
    container = mine;
  }
}

// --- operation fields (Operation.Kind / Path / From / value) ---

function readKind(op: DecodedOperation): string {
  const raw = op?.get('op');
  if (raw === undefined || raw === null) return 'unknown';
  const value = parseRawString(raw);
  return typeof value === 'string' ? value : 'unknown';
}

function readPointer(op: DecodedOperation, field: 'path' | 'from'): Result<string, string> {
  const raw = op?.get(field);
  if (raw === undefined || raw === null) {
    return err(
      field === 'path'
        ? `operation missing path field: ${ERR_MISSING}`
        : `operation, missing from field: ${ERR_MISSING}`,
    );
  }
  const value = parseRawString(raw);
  if (typeof value !== 'string') return err(`json: cannot unmarshal ${goJsonKind(raw)} into Go value of type string`);
  return ok(value);
}

/** The raw text of `value`: undefined when absent, null when JSON null. */
function readRawValue(op: DecodedOperation): string | null | undefined {
  if (op === null || !op.has('value')) return undefined;
  return op.get('value') ?? null;
}

/** A fresh value to insert (absent and null both insert null, as Go's nil node marshals to null). */
function readValue(state: PatchState, op: DecodedOperation): JsonValue {
  const raw = readRawValue(op);
  if (raw === undefined || raw === null) return null;
  // Copy on write keeps ordinary objects (JSON.parse makes `__proto__` an own member, never a prototype).
  return (state.owned === undefined ? JSON.parse(raw, withoutPrototype) : JSON.parse(raw)) as JsonValue;
}

function parseRaw(raw: string): JsonValue {
  return JSON.parse(raw) as JsonValue;
}

/** A member's raw text as a value; a string without escapes (paths, op names) without JSON.parse. */
function parseRawString(raw: string): JsonValue {
  const last = raw.length - 1;
  if (last > 0 && raw.charCodeAt(0) === 0x22 && raw.charCodeAt(last) === 0x22 && !raw.includes('\\'))
    return raw.slice(1, last);
  return JSON.parse(raw) as JsonValue;
}

// --- v4's pointer resolution, yielding canonical pointers for the library ---

/** findObject: the parent of the path's last token, or undefined where v4 finds the path missing. */
function locate(root: Container, path: string): Parent | undefined {
  const tokens = path.split('/');
  // v4 ignores whatever precedes the first '/', so "a/b" addresses "/b"; "" and "a" address nothing.
  const [first, ...rest] = tokens.slice(1);
  if (first === undefined) return undefined;
  let parent: Parent = { container: root, pointer: '', key: jsonPatch.unescapePathComponent(first) };
  for (const token of rest) {
    const member = memberOf(parent);
    if (!member.ok) return undefined;
    const next = member.value.node;
    // Neither Go's nil node nor a scalar has members.
    if (next === undefined || next === null || typeof next !== 'object') return undefined;
    parent = { container: next, pointer: member.value.pointer, key: jsonPatch.unescapePathComponent(token) };
  }
  return parent;
}

/** A container's get: a missing object member is fine (nil); an array index must parse and be in range. */
function memberOf({ container, pointer, key }: Parent): Result<Member, string> {
  if (!Array.isArray(container)) {
    const exists = Object.hasOwn(container, key);
    // `?? undefined` turns a JSON null into Go's nil node.
    return ok({
      pointer: `${pointer}/${jsonPatch.escapePathComponent(key)}`,
      exists,
      node: exists ? (container[key] ?? undefined) : undefined,
    });
  }
  const index = resolveIndex(key, container.length);
  if (!index.ok) return index;
  return ok({ pointer: `${pointer}/${index.value}`, exists: true, node: container[index.value] ?? undefined });
}

/** A container's remove: like get, but a missing object member is an error. */
function removablePointer(parent: Parent): Result<string, string> {
  const member = memberOf(parent);
  if (!member.ok) return member;
  if (!member.value.exists) return err(`Unable to remove nonexistent key: ${parent.key}: ${ERR_MISSING}`);
  return ok(member.value.pointer);
}

/** A container's add: into n array elements, indices 0..n and -(n+1)..-1 are valid, `-` appends. */
function insertionPointer({ container, pointer, key }: Parent): Result<string, string> {
  if (!Array.isArray(container)) return ok(`${pointer}/${jsonPatch.escapePathComponent(key)}`);
  if (key === '-') return ok(`${pointer}/${container.length}`);
  const parsed = goAtoi(key);
  if (!parsed.ok) return err(`value was not a proper array index: '${key}': ${parsed.error}`);
  const index = rangeCheck(parsed.value, container.length + 1);
  return index.ok ? ok(`${pointer}/${index.value}`) : index;
}

function resolveIndex(key: string, size: number): Result<number, string> {
  const parsed = goAtoi(key);
  return parsed.ok ? rangeCheck(parsed.value, size) : parsed;
}

/** Go: reject idx >= size and idx < -size; a negative idx counts from the end (idx + size). */
function rangeCheck(idx: bigint, size: number): Result<number, string> {
  if (idx >= BigInt(size) || idx < -BigInt(size))
    return err(`Unable to access invalid index: ${idx}: ${ERR_INVALID_INDEX}`);
  return ok(idx < 0n ? Number(idx) + size : Number(idx));
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.Atoi on a 64-bit platform. */
function goAtoi(s: string): Result<bigint, string> {
  if (!/^[+-]?[0-9]+$/.test(s)) return err(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const value = BigInt(s);
  if (value < INT64_MIN || value > INT64_MAX) return err(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return ok(value);
}

// --- JSON value helpers ---

/** JSON.parse reviver: objects come out without a prototype, so no member name is inherited or a setter. */
function withoutPrototype(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.assign(Object.create(null) as object, value);
}

function cloneWithoutPrototypes<T extends JsonValue>(value: T): T {
  return JSON.parse(JSON.stringify(value), withoutPrototype) as T;
}

/** A copy with ordinary objects (JSON.parse makes `__proto__` an own member, never a prototype). */
function cloneJson<T extends JsonValue>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Semantic JSON equality: objects by members regardless of order, arrays by position, numbers by value. */
export function isJsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => isJsonEqual(item, b[i]));
  }
  const objA = a as JsonObject;
  const objB = b as JsonObject;
  const keys = Object.keys(objA);
  if (keys.length !== Object.keys(objB).length) return false;
  return keys.every((k) => Object.hasOwn(objB, k) && isJsonEqual(objA[k], objB[k]));
}

// --- splitting valid JSON text into raw element and member texts ---

function splitArray(text: string): string[] {
  const start = text.indexOf('[') + 1;
  return splitList(text, start, ']').map(([, raw]) => raw);
}

function splitObject(text: string): Array<[string, string]> {
  const start = text.indexOf('{') + 1;
  return splitList(text, start, '}').map(([key, raw]) => [JSON.parse(key ?? '""') as string, raw]);
}

/** Splits the members of a valid JSON array or object starting at `start` into [key text, value text]. */
function splitList(text: string, start: number, close: ']' | '}'): Array<[string | undefined, string]> {
  const items: Array<[string | undefined, string]> = [];
  let i = skipSpace(text, start);
  if (text[i] === close) return items;
  for (;;) {
    let key: string | undefined;
    if (close === '}') {
      const keyEnd = skipValue(text, i);
      key = text.slice(i, keyEnd);
      i = skipSpace(text, keyEnd) + 1; // past ':'
      i = skipSpace(text, i);
    }
    const end = skipValue(text, i);
    items.push([key, text.slice(i, end)]);
    i = skipSpace(text, end);
    if (text[i] === close) return items;
    i = skipSpace(text, i + 1); // past ','
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\r\n'.includes(text[i] as string)) i++;
  return i;
}

/** End index of the valid JSON value starting at `i`. */
function skipValue(text: string, i: number): number {
  const first = text[i];
  if (first === '"') {
    let j = i + 1;
    while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (first === '{' || first === '[') {
    let depth = 0;
    let j = i;
    do {
      const ch = text[j];
      if (ch === '"') {
        j = skipValue(text, j);
        continue;
      }
      if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') depth--;
      j++;
    } while (depth > 0);
    return j;
  }
  let j = i;
  while (j < text.length && !',]} \t\r\n'.includes(text[j] as string)) j++;
  return j;
}
