/**
 * Reading a hand-written YAML/JSON document field by field, with defaults, type checks and
 * apiserver-worded FieldErrors, all collected instead of stopping at the first. The fields a
 * section reads are its schema: `finish()` reports every other key as unknown, with a suggestion
 * when it looks like a typo.
 *
 *   const doc = FieldReader.of(yamlObject);
 *   const admission = doc.object('admission');
 *   const port = admission.int('port', 8443, { min: 0, max: 65535 });
 *   admission.finish();
 *   doc.finish();
 *   if (doc.errors().length > 0) ...                         // admission.port: Invalid value: ...
 *
 * Only own keys count (a key named `__proto__` or `constructor` is data, never an inherited member).
 */
import { isPlainObject as isObject, ownMember, setOwnMember } from '../own-members.js';
import { FieldPath, invalid, notSupported, required, unknownField, type FieldError } from './field-path.js';

export interface IntRange {
  readonly min: number;
  readonly max: number;
}

export interface StringOptions {
  /** Accept `""` (refused by default: an empty name, path or host is a mistake). */
  readonly allowEmpty?: boolean;
}

type Obj = Record<string, unknown>;
const QUOTE_HINT = 'must be a string (quote numbers and booleans in YAML)';

export class FieldReader {
  readonly #value: Obj;
  readonly #read = new Set<string>();
  readonly #errors: FieldError[];
  /** Keys are data (a map such as labels): their paths read `labels[key]`, not `labels.key`. */
  readonly #keyed: boolean;
  #finished = false;

  private constructor(
    value: unknown,
    readonly path: FieldPath,
    errors: FieldError[],
    keyed: boolean,
  ) {
    this.#errors = errors;
    this.#keyed = keyed;
    if (value !== undefined && value !== null && !isObject(value))
      this.report(invalid(path, value, 'must be an object'));
    this.#value = isObject(value) ? value : {};
  }

  /** A reader of the whole document, whose fields' paths start at the top (`admission.port`). */
  static of(document: unknown): FieldReader {
    return new FieldReader(document, FieldPath.root(''), [], false);
  }

  /** Every error of the document so far, from every reader of it, in the order found. */
  errors(): readonly FieldError[] {
    return this.#errors;
  }

  report(error: FieldError): void {
    this.#errors.push(error);
  }

  /** `field`: a field of this section by name, or any path (`r.path` for the section itself). */
  invalid(field: string | FieldPath, value: unknown, detail: string): undefined {
    this.report(invalid(this.#pathOf(field), value, detail));
    return undefined;
  }

  required(field: string | FieldPath, detail?: string): undefined {
    this.report(required(this.#pathOf(field), detail));
    return undefined;
  }

  notSupported(field: string | FieldPath, value: unknown, supported: readonly string[]): undefined {
    this.report(notSupported(this.#pathOf(field), value, supported));
    return undefined;
  }

  /** The path of a field (or, in a map, of a key) of this section. */
  at(name: string): FieldPath {
    return this.#keyed ? this.path.key(name) : this.path.child(name);
  }

  /** The raw value; marks the field as known. null counts as absent, as in Kubernetes objects. */
  raw(name: string): unknown {
    this.#read.add(name);
    const v = ownMember(this.#value, name);
    return v === null ? undefined : v;
  }

  has(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  /** The section's own keys, in document order; all count as read (for maps, whose keys are data). */
  keys(): string[] {
    const keys = Object.keys(this.#value);
    for (const key of keys) this.#read.add(key);
    return keys;
  }

  string(name: string, fallback?: undefined, options?: StringOptions): string | undefined;
  string(name: string, fallback: string, options?: StringOptions): string;
  string(name: string, fallback?: string, options: StringOptions = {}): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'string') return this.#wrong(name, v, 'must be a string', fallback);
    if (v === '' && !options.allowEmpty) return this.#wrong(name, v, 'must be non-empty', fallback);
    return v;
  }

  /** A string that must be there: absent is `Required value`, a wrong type only `Invalid value`. */
  requiredString(name: string, options: StringOptions = {}): string | undefined {
    const v = this.string(name, undefined, options);
    if (v === undefined && this.raw(name) === undefined) this.required(name);
    return v;
  }

  int(name: string, fallback: number, range: IntRange): number {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v)) return this.#wrong(name, v, 'must be an integer', fallback);
    if (v < range.min || v > range.max)
      return this.#wrong(name, v, `must be between ${range.min} and ${range.max}, inclusive`, fallback);
    return v;
  }

  bool(name: string, fallback: boolean): boolean;
  bool(name: string): boolean | undefined;
  bool(name: string, fallback?: boolean): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') return this.#wrong(name, v, 'must be true or false', fallback);
    return v;
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      this.notSupported(name, v, values);
      return fallback;
    }
    return v as T;
  }

  /** A nested section of named fields; absent reads as empty so its defaults apply. */
  object(name: string): FieldReader {
    return new FieldReader(this.raw(name), this.at(name), this.#errors, false);
  }

  /** A nested mapping whose keys are data (namespace → labels): read it by `keys()`, at `name[key]`. */
  map(name: string): FieldReader {
    return new FieldReader(this.raw(name), this.at(name), this.#errors, true);
  }

  list(name: string): unknown[] {
    const v = this.raw(name);
    if (v === undefined) return [];
    if (!Array.isArray(v)) return this.#wrong(name, v, 'must be a list', []);
    return v;
  }

  /**
   * A list of sections of named fields: `read` gets a reader per item, at `name[i]`, made just
   * before it is called (so problems come in document order). A null item reads as empty.
   */
  items<T>(name: string, read: (item: FieldReader, index: number) => T): T[] {
    const path = this.at(name);
    return this.list(name).map((item, i) => read(new FieldReader(item, path.index(i), this.#errors, false), i));
  }

  /** As `items`, for a list of mappings whose keys are data. */
  mapItems<T>(name: string, read: (item: FieldReader, index: number) => T): T[] {
    const path = this.at(name);
    return this.list(name).map((item, i) => read(new FieldReader(item, path.index(i), this.#errors, true), i));
  }

  /** A list of strings; undefined when absent. A null item is `Required value`; wrong items are left out. */
  stringList(name: string): string[] | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return this.#wrong(name, v, 'must be a list of strings', undefined);
    const path = this.at(name);
    const out: string[] = [];
    v.forEach((item: unknown, i) => {
      if (typeof item === 'string') out.push(item);
      else if (item === undefined || item === null) this.report(required(path.index(i)));
      else this.report(invalid(path.index(i), item, 'must be a string'));
    });
    return out;
  }

  /** A mapping of strings to strings (labels); numbers and booleans are refused, to be quoted in YAML. */
  stringMap(name: string): Record<string, string> | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const map = this.map(name); // reports a value that is not a mapping
    if (!isObject(v)) return undefined;
    const out: Record<string, string> = {};
    for (const key of map.keys()) {
      const item = map.#value[key];
      // defineProperty: a key `__proto__` is a label like any other, not the object's prototype.
      if (typeof item === 'string') setOwnMember(out, key, item);
      else map.invalid(key, item ?? null, QUOTE_HINT);
    }
    return out;
  }

  /** Reports the keys nobody read. Call once, after reading every field of the section (again: no-op). */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    for (const key of Object.keys(this.#value)) {
      if (!this.#read.has(key)) this.report(unknownField(this.at(key), closest(key, [...this.#read])));
    }
  }

  #pathOf(field: string | FieldPath): FieldPath {
    return typeof field === 'string' ? this.at(field) : field;
  }

  #wrong<T>(name: string, value: unknown, detail: string, fallback: T): T {
    this.invalid(name, value, detail);
    return fallback;
  }
}

/** The known name within edit distance 2 (case-insensitive), if any: `admision` → `admission`. */
function closest(key: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const d = editDistance(key.toLowerCase(), name.toLowerCase());
    if (d <= 2 && (best === undefined || d < best.distance)) best = { name, distance: d };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
