/**
 * Field paths and field errors, worded like apimachinery `pkg/util/validation/field` so the CLI
 * and the gateway print configuration problems exactly as `kubectl apply` would show them.
 */
import { goQuote } from '../errors/go-quote.js';

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooMany'
  | 'FieldValueTooLong'
  /** A key the reader of a hand-written document does not know (a typo must not pass silently). */
  | 'FieldValueUnknown';

export interface FieldError {
  readonly type: FieldErrorType;
  /** Path like `webhooks[0].rules[1].operations`. */
  readonly field: string;
  readonly badValue?: unknown;
  /** Go's type of a string-list value, as `%#v` prints it (default `[]string`). */
  readonly badValueType?: string;
  readonly detail?: string;
}

/** An immutable path; each step returns a new one (field.NewPath / Child / Index / Key). */
export class FieldPath {
  private constructor(private readonly text: string) {}

  static root(name: string, ...more: string[]): FieldPath {
    return more.reduce((p, m) => p.child(m), new FieldPath(name));
  }

  child(name: string, ...more: string[]): FieldPath {
    const first = new FieldPath(this.text === '' ? name : `${this.text}.${name}`);
    return more.reduce((p, m) => p.child(m), first);
  }

  index(i: number): FieldPath {
    return new FieldPath(`${this.text}[${i}]`);
  }

  key(k: string): FieldPath {
    return new FieldPath(`${this.text}[${k}]`);
  }

  toString(): string {
    return this.text;
  }
}

export const root = (name: string, ...more: string[]): FieldPath => FieldPath.root(name, ...more);

const at = (path: FieldPath | string): string => (typeof path === 'string' ? path : path.toString());

export const required = (path: FieldPath | string, detail?: string): FieldError => ({
  type: 'FieldValueRequired',
  field: at(path),
  ...(detail ? { detail } : {}),
});

export const invalid = (path: FieldPath | string, badValue: unknown, detail?: string): FieldError => ({
  type: 'FieldValueInvalid',
  field: at(path),
  badValue,
  ...(detail ? { detail } : {}),
});

export const notSupported = (
  path: FieldPath | string,
  badValue: unknown,
  validValues: readonly string[],
): FieldError => ({
  type: 'FieldValueNotSupported',
  field: at(path),
  badValue,
  ...(validValues.length > 0 ? { detail: `supported values: ${validValues.map(goQuote).join(', ')}` } : {}),
});

export const duplicate = (path: FieldPath | string, badValue: unknown): FieldError => ({
  type: 'FieldValueDuplicate',
  field: at(path),
  badValue,
});

export const forbidden = (path: FieldPath | string, detail: string): FieldError => ({
  type: 'FieldValueForbidden',
  field: at(path),
  detail,
});

export const tooMany = (path: FieldPath | string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany',
  field: at(path),
  badValue: actual,
  detail: `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
});

export const tooLong = (path: FieldPath | string, max: number): FieldError => ({
  type: 'FieldValueTooLong',
  field: at(path),
  detail: `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`,
});

/** `x: Unknown field: did you mean "y"?`, the suggestion when the key looks like a typo of a known one. */
export const unknownField = (path: FieldPath | string, suggestion?: string): FieldError => ({
  type: 'FieldValueUnknown',
  field: at(path),
  ...(suggestion !== undefined ? { detail: `did you mean ${goQuote(suggestion)}?` } : {}),
});

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooMany: 'Too many',
  FieldValueTooLong: 'Too long',
  FieldValueUnknown: 'Unknown field',
};

/** The value part as Go's `%q` / `%v` / `%#v` would print it in field.Error.ErrorBody. */
function formatBadValue(value: unknown, listType = '[]string'): string {
  if (value === null || value === undefined) return goQuote('null');
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return `${listType}{${value.map(goQuote).join(', ')}}`;
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** field.Error.Error(): `<field>: <Type>[: <value>][: <detail>]`. */
export function formatFieldError(e: FieldError): string {
  return formatWithValueLimit(e, Infinity);
}

/**
 * formatFieldError with the value cut to `maxValueChars` (ending in `...`): for problems in
 * hand-written configuration, whose line must stay readable when someone pasted a whole manifest.
 */
export function formatFieldErrorShort(e: FieldError, maxValueChars = 80): string {
  return formatWithValueLimit(e, maxValueChars);
}

function formatWithValueLimit(e: FieldError, maxValueChars: number): string {
  const typeText = TYPE_TEXT[e.type];
  const omitValue =
    e.type === 'FieldValueRequired' ||
    e.type === 'FieldValueForbidden' ||
    e.type === 'FieldValueTooLong' ||
    e.type === 'FieldValueUnknown' ||
    !('badValue' in e);
  let body = omitValue
    ? typeText
    : `${typeText}: ${shorten(formatBadValue(e.badValue, e.badValueType), maxValueChars)}`;
  if (e.detail) body += `: ${e.detail}`;
  return e.field === '' ? body : `${e.field}: ${body}`;
}

const shorten = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

/**
 * apierrors.NewInvalid's message: `<Kind>.<group> "<name>" is invalid: <errors>` where several
 * errors read `[e1, e2]` (utilerrors aggregate, duplicates dropped).
 */
export function formatInvalid(qualifiedKind: string, name: string, errors: readonly FieldError[]): string {
  const head = `${qualifiedKind} ${goQuote(name)} is invalid`;
  const texts = [...new Set(errors.map(formatFieldError))];
  if (texts.length === 0) return head;
  if (texts.length === 1) return `${head}: ${texts[0]}`;
  return `${head}: [${texts.join(', ')}]`;
}
