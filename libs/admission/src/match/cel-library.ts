/**
 * The Kubernetes CEL library functions that @marcbachmann/cel-js lacks and that match conditions
 * commonly use (k8s-semantics §9). Built-ins the library already has (lowerAscii, upperAscii, trim,
 * split, join, indexOf on strings, substring, matches, optional types, cel.bind) are not repeated.
 *
 * Added here:
 *   strings (cel-go ext.Strings): charAt, replace (2 and 3 args), reverse, strings.quote, format
 *     (verbs %s %d %f %e %b %o %x %X %%, with a precision for %f and %e)
 *   lists (k8s library.Lists + cel-go ext.Lists): isSorted, sum, min, max, indexOf, lastIndexOf,
 *     slice, flatten, distinct, reverse
 *   regex (k8s library.Regex): find, findAll (RE2 flag groups like `(?i)` are translated)
 *   sets (cel-go ext.Sets): sets.contains, sets.equivalent, sets.intersects
 * url, ip/cidr, semver, quantity and format, which bring their own types, are in cel-library-types.ts.
 * Two-variable comprehensions are in cel-comprehensions.ts.
 * Missing (documented gaps): math ext, uint arguments to the list functions, the `%s` rendering
 * of doubles in exponent form; `matches` keeps ECMAScript regex semantics (cel-js owns that
 * overload), so RE2-only syntax there is an evaluation error.
 */
import type { Environment } from '@marcbachmann/cel-js';

/** Thrown by library functions; the evaluator reports `error.message` as the CEL error text. */
class CelLibraryError extends Error {}

const noSuchOverload = (fn: string): CelLibraryError => new CelLibraryError(`no such overload: ${fn}`);

type CelScalar = bigint | number | string | boolean;

const isMap = (v: unknown): v is Record<string, unknown> | Map<unknown, unknown> =>
  v instanceof Map || (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array));

/** CEL equality for the values JSON and literals produce (ints and doubles compare numerically). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'bigint' || typeof a === 'number') {
    return (typeof b === 'bigint' || typeof b === 'number') && a == b;
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  }
  if (a instanceof Uint8Array) {
    return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ea = entriesOf(a);
    const eb = new Map(entriesOf(b));
    return ea.length === eb.size && ea.every(([k, v]) => eb.has(k) && celEquals(v, eb.get(k)));
  }
  return a === b;
}

const entriesOf = (m: Record<string, unknown> | Map<unknown, unknown>): [unknown, unknown][] =>
  m instanceof Map ? [...m.entries()] : Object.entries(m);

const scalarKind = (v: unknown): 'number' | 'string' | 'bool' | undefined =>
  typeof v === 'bigint' || typeof v === 'number'
    ? 'number'
    : typeof v === 'string'
      ? 'string'
      : typeof v === 'boolean'
        ? 'bool'
        : undefined;

/** Ordering of comparable CEL values; mixed kinds are a runtime "no such overload" like cel-go. */
function compare(a: unknown, b: unknown, fn: string): number {
  const ka = scalarKind(a);
  if (ka === undefined || ka !== scalarKind(b)) throw noSuchOverload(fn);
  const x = a as CelScalar;
  const y = b as CelScalar;
  return x < y ? -1 : x > y ? 1 : 0;
}

function requireList(v: unknown, fn: string): unknown[] {
  if (!Array.isArray(v)) throw noSuchOverload(fn);
  return v;
}

const indexOf = (list: unknown[], x: unknown): bigint => BigInt(list.findIndex((e) => celEquals(e, x)));

const lastIndexOf = (list: unknown[], x: unknown): bigint => {
  for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i], x)) return BigInt(i);
  return -1n;
};

function sum(list: unknown[]): bigint | number {
  if (list.length === 0) return 0n;
  const allInts = list.every((v) => typeof v === 'bigint');
  const allDoubles = list.every((v) => typeof v === 'number');
  if (allInts) return (list as bigint[]).reduce((a, b) => a + b, 0n);
  if (allDoubles) return (list as number[]).reduce((a, b) => a + b, 0);
  throw noSuchOverload('sum');
}

function extreme(list: unknown[], fn: 'min' | 'max'): unknown {
  if (list.length === 0) throw new CelLibraryError(`${fn} called on empty list`);
  let best = list[0];
  for (const v of list.slice(1)) {
    const c = compare(v, best, fn);
    if ((fn === 'min' && c < 0) || (fn === 'max' && c > 0)) best = v;
  }
  return best;
}

function isSorted(list: unknown[]): boolean {
  for (let i = 1; i < list.length; i++) if (compare(list[i - 1], list[i], 'isSorted') > 0) return false;
  return true;
}

function slice(list: unknown[], start: bigint, end: bigint): unknown[] {
  if (start < 0n || end < 0n)
    throw new CelLibraryError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end)
    throw new CelLibraryError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (end > BigInt(list.length))
    throw new CelLibraryError(`cannot slice(${start}, ${end}), list is length ${list.length}`);
  return list.slice(Number(start), Number(end));
}

function flatten(list: unknown[], depth: bigint): unknown[] {
  if (depth < 0n) throw new CelLibraryError('level must be non-negative');
  const out: unknown[] = [];
  for (const v of list) {
    if (Array.isArray(v) && depth > 0n) out.push(...flatten(v, depth - 1n));
    else out.push(v);
  }
  return out;
}

function distinct(list: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of list) if (!out.some((o) => celEquals(o, v))) out.push(v);
  return out;
}

/** Code points, not UTF-16 units: CEL strings are sequences of code points. */
function charAt(s: string, index: bigint): string {
  const chars = [...s];
  if (index < 0n || index > BigInt(chars.length)) throw new CelLibraryError(`index out of range: ${index}`);
  return chars[Number(index)] ?? '';
}

/** Go's strings.Replace: limit < 0 replaces all; an empty `from` matches around every code point. */
function replace(s: string, from: string, to: string, limit: bigint): string {
  if (from === '') {
    const chars = [...s];
    const slots = BigInt(chars.length + 1);
    const count = limit < 0n || limit > slots ? slots : limit;
    let out = '';
    for (let i = 0; i <= chars.length; i++) out += (BigInt(i) < count ? to : '') + (chars[i] ?? '');
    return out;
  }
  if (limit < 0n) return s.split(from).join(to);
  let out = '';
  let rest = s;
  for (let n = 0n; n < limit; n++) {
    const at = rest.indexOf(from);
    if (at < 0) break;
    out += rest.slice(0, at) + to;
    rest = rest.slice(at + from.length);
  }
  return out + rest;
}

/**
 * RE2 → ECMAScript for the common differences: leading flag groups `(?i)`, `(?s)`, `(?m)`,
 * named groups `(?P<name>...)`, and `\A` / `\z`.
 */
export function translateRe2(pattern: string): RegExp {
  let flags = '';
  let body = pattern;
  const lead = /^\(\?([imsU]+)\)/.exec(body);
  if (lead) {
    for (const f of lead[1] ?? '') if (f !== 'U' && !flags.includes(f)) flags += f;
    body = body.slice(lead[0].length);
  }
  body = body
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])');
  try {
    return new RegExp(body, flags);
  } catch {
    throw new CelLibraryError(`given regex is invalid: ${pattern}`);
  }
}

function find(s: string, pattern: string): string {
  return translateRe2(pattern).exec(s)?.[0] ?? '';
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const re = translateRe2(pattern);
  const global = new RegExp(re.source, re.flags + 'g');
  const out: string[] = [];
  for (const m of s.matchAll(global)) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

/** cel-go's strings.quote: a double-quoted CEL string literal (not strconv.Quote: other characters stay as they are). */
function quote(s: string): string {
  const escapes: Record<string, string> = {
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
    '\\': '\\\\',
    '"': '\\"',
  };
  let out = '"';
  for (const c of s) out += escapes[c] ?? c;
  return `${out}"`;
}

/** `%s` of a value, as cel-go's format prints it. */
function formatString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (Array.isArray(v)) return `[${v.map(formatString).join(', ')}]`;
  if (isMap(v)) {
    const entries = entriesOf(v).map(([k, x]) => [formatString(k), formatString(x)] as const);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${k}: ${x}`).join(', ')}}`;
  }
  return String(v);
}

function integerArg(v: unknown, verb: string): bigint {
  if (typeof v === 'bigint') return v;
  throw new CelLibraryError(
    `error during formatting: ${verb} clause can only be used on integers, was given ${typeof v === 'number' ? 'double' : typeof v}`,
  );
}

function radix(v: unknown, base: number, verb: string, upper = false): string {
  if (verb === 'x' || verb === 'X') {
    const hex = (bytes: Uint8Array): string => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
    if (typeof v === 'string')
      return upper ? hex(new TextEncoder().encode(v)).toUpperCase() : hex(new TextEncoder().encode(v));
    if (v instanceof Uint8Array) return upper ? hex(v).toUpperCase() : hex(v);
  }
  if (typeof v === 'boolean' && verb === 'b') return v ? '1' : '0';
  const n = integerArg(v, verb);
  const text = (n < 0n ? '-' : '') + (n < 0n ? -n : n).toString(base);
  return upper ? text.toUpperCase() : text;
}

function fixedOrExponent(v: unknown, verb: 'f' | 'e', precision: number): string {
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number')
    throw new CelLibraryError(
      `error during formatting: fixed-point clause can only be used on doubles, was given ${typeof v}`,
    );
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  // JavaScript prints at most 100 digits; beyond, zeros (exact for all but the tiniest doubles).
  const digits = Math.min(precision, 100);
  const pad = '0'.repeat(precision - digits);
  if (verb === 'f') return n.toFixed(digits) + (digits > 0 || pad === '' ? pad : `.${pad}`);
  // Go prints the exponent with at least two digits: 1.5e+00.
  return n
    .toExponential(digits)
    .replace(/e/, `${pad}e`)
    .replace(/e([+-])(\d)$/, (_match, sign: string, digit: string) => `e${sign}0${digit}`);
}

/** Precision beyond this is refused: the template may be short while the output is not. */
const MAX_PRECISION = 1000;

/** cel-go's string.format(list): `%s`, `%d`, `%f`, `%e`, `%b`, `%o`, `%x`, `%X`, `%%`. */
function format(template: string, args: unknown[]): string {
  let out = '';
  let next = 0;
  for (let i = 0; i < template.length; i++) {
    const c = template[i] as string;
    if (c !== '%') {
      out += c;
      continue;
    }
    const spec = /^%(?:\.(\d+))?([a-zA-Z%])/.exec(template.slice(i));
    if (spec === null) throw new CelLibraryError('error during formatting: unterminated format clause');
    i += spec[0].length - 1;
    const verb = spec[2] as string;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (next >= args.length) throw new CelLibraryError(`index ${next} out of range`);
    const arg = args[next++];
    const precision = spec[1] === undefined ? 6 : Number(spec[1]);
    if (precision > MAX_PRECISION)
      throw new CelLibraryError(`error during formatting: precision ${precision} is larger than ${MAX_PRECISION}`);
    switch (verb) {
      case 's':
        out += formatString(arg);
        break;
      case 'd':
        out += String(integerArg(arg, 'decimal'));
        break;
      case 'f':
      case 'e':
        out += fixedOrExponent(arg, verb, precision);
        break;
      case 'b':
        out += radix(arg, 2, 'b');
        break;
      case 'o':
        out += radix(arg, 8, 'o');
        break;
      case 'x':
      case 'X':
        out += radix(arg, 16, verb, verb === 'X');
        break;
      default:
        throw new CelLibraryError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
    }
  }
  return out;
}

/** Receiver types of the `sets.` and `strings.` namespace functions (cel-js models namespaces as typed constants). */
class CelSetsNamespace {}
class CelStringsNamespace {}

const setContains = (a: unknown[], b: unknown[]): boolean => b.every((x) => a.some((y) => celEquals(x, y)));

export function registerKubernetesLibraries(env: Environment): Environment {
  env
    .registerFunction('string.charAt(int): string', charAt)
    .registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) =>
      replace(s, a, b, -1n),
    )
    .registerFunction('string.replace(string, string, int): string', replace)
    .registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''))
    .registerFunction('string.format(list<dyn>): string', format)
    .registerType('CelStringsNamespace', CelStringsNamespace)
    .registerConstant('strings', 'CelStringsNamespace', new CelStringsNamespace())
    .registerFunction('CelStringsNamespace.quote(string): string', (_: unknown, s: string) => quote(s))
    .registerFunction('string.find(string): string', find)
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n))
    .registerFunction('string.findAll(string, int): list<string>', findAll)
    .registerFunction('list<A>.isSorted(): bool', (l: unknown) => isSorted(requireList(l, 'isSorted')))
    .registerFunction('list<int>.sum(): int', (l: unknown) => sum(requireList(l, 'sum')))
    .registerFunction('list<double>.sum(): double', (l: unknown) => sum(requireList(l, 'sum')))
    .registerFunction('list<A>.min(): A', (l: unknown) => extreme(requireList(l, 'min'), 'min'))
    .registerFunction('list<A>.max(): A', (l: unknown) => extreme(requireList(l, 'max'), 'max'))
    .registerFunction('list<A>.indexOf(A): int', (l: unknown, x: unknown) => indexOf(requireList(l, 'indexOf'), x))
    .registerFunction('list<A>.lastIndexOf(A): int', (l: unknown, x: unknown) =>
      lastIndexOf(requireList(l, 'lastIndexOf'), x),
    )
    .registerFunction('list<A>.slice(int, int): list<A>', (l: unknown, s: bigint, e: bigint) =>
      slice(requireList(l, 'slice'), s, e),
    )
    .registerFunction('list<dyn>.flatten(): list<dyn>', (l: unknown) => flatten(requireList(l, 'flatten'), 1n))
    .registerFunction('list<dyn>.flatten(int): list<dyn>', (l: unknown, d: bigint) =>
      flatten(requireList(l, 'flatten'), d),
    )
    .registerFunction('list<A>.distinct(): list<A>', (l: unknown) => distinct(requireList(l, 'distinct')))
    .registerFunction('list<A>.reverse(): list<A>', (l: unknown) => [...requireList(l, 'reverse')].reverse())
    .registerType('CelSetsNamespace', CelSetsNamespace)
    .registerConstant('sets', 'CelSetsNamespace', new CelSetsNamespace())
    .registerFunction('CelSetsNamespace.contains(list<A>, list<A>): bool', (_: unknown, a: unknown[], b: unknown[]) =>
      setContains(a, b),
    )
    .registerFunction(
      'CelSetsNamespace.equivalent(list<A>, list<A>): bool',
      (_: unknown, a: unknown[], b: unknown[]) => setContains(a, b) && setContains(b, a),
    )
    .registerFunction('CelSetsNamespace.intersects(list<A>, list<A>): bool', (_: unknown, a: unknown[], b: unknown[]) =>
      a.some((x) => b.some((y) => celEquals(x, y))),
    );
  return env;
}
