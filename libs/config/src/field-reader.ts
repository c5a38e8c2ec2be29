/**
 * Reading a hand-written YAML object field by field, with defaults, type checks and
 * apiserver-worded errors. The fields a section reads are its schema: `finish()` reports every
 * other key as unknown, with a suggestion when it looks like a typo.
 */
import { FieldPath, invalid, notSupported, required } from '@hookgate/admission';
import { issueFromFieldError, unknownFieldIssue } from './config-error.js';
import type { DocumentIssue } from './config-error.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export class FieldReader {
  readonly #value: Obj;
  readonly #read = new Set<string>();

  constructor(
    value: unknown,
    readonly path: FieldPath,
    readonly issues: DocumentIssue[],
  ) {
    if (value !== undefined && value !== null && !isObject(value))
      this.report(invalid(path, value, 'must be an object'));
    this.#value = isObject(value) ? value : {};
  }

  report(error: Parameters<typeof issueFromFieldError>[0]): void {
    this.issues.push(issueFromFieldError(error));
  }

  /** The raw value; marks the field as known. null counts as absent, as in Kubernetes objects. */
  raw(name: string): unknown {
    this.#read.add(name);
    const v = this.#value[name];
    return v === null ? undefined : v;
  }

  has(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  string(name: string): string | undefined;
  string(name: string, fallback: string): string;
  string(name: string, fallback?: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'string') return this.#wrongType(name, v, 'must be a string', fallback);
    if (v === '') return this.#wrongType(name, v, 'must be non-empty', fallback);
    return v;
  }

  requiredString(name: string): string | undefined {
    const v = this.string(name);
    if (v === undefined && this.raw(name) === undefined) this.report(required(this.path.child(name)));
    return v;
  }

  int(name: string, fallback: number, range: { min: number; max: number }): number {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v)) return this.#wrongType(name, v, 'must be an integer', fallback);
    if (v < range.min || v > range.max)
      return this.#wrongType(name, v, `must be between ${range.min} and ${range.max}, inclusive`, fallback);
    return v;
  }

  bool(name: string, fallback: boolean): boolean;
  bool(name: string): boolean | undefined;
  bool(name: string, fallback?: boolean): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') return this.#wrongType(name, v, 'must be true or false', fallback);
    return v;
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      this.report(notSupported(this.path.child(name), v, values));
      return fallback;
    }
    return v as T;
  }

  /** A nested object section; absent reads as empty so its defaults apply. */
  object(name: string): FieldReader {
    return new FieldReader(this.raw(name), this.path.child(name), this.issues);
  }

  list(name: string): unknown[] {
    const v = this.raw(name);
    if (v === undefined) return [];
    if (!Array.isArray(v)) return this.#wrongType(name, v, 'must be a list', []);
    return v;
  }

  /** Reports the keys nobody read. Call once, after reading every field of the section. */
  finish(): void {
    for (const key of Object.keys(this.#value)) {
      if (!this.#read.has(key))
        this.issues.push(unknownFieldIssue(this.path.child(key).toString(), closest(key, [...this.#read])));
    }
  }

  #wrongType<T>(name: string, value: unknown, detail: string, fallback: T): T {
    this.report(invalid(this.path.child(name), value, detail));
    return fallback;
  }
}

/** The known name within edit distance 2 (case-insensitive), if any: `admision` → `admission`. */
function closest(key: string, known: string[]): string | undefined {
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
