/**
 * Name syntax checks of apimachinery `pkg/util/validation/validation.go`, with its exact messages.
 * Each checker returns the list of problems (empty = valid), like the Go functions, so callers
 * can turn every message into a FieldError. Exported for the selector compiler too.
 */
import type { LabelSelector } from '../types/webhook-configuration.js';
import type { FieldError, FieldPath } from './field-path.js';
import { forbidden, invalid, required } from './field-path.js';

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const QUALIFIED_NAME_MAX_LENGTH = 63;
export const LABEL_VALUE_MAX_LENGTH = 63;

const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** validation.EmptyError */
export const emptyError = (): string => 'must be non-empty';
/** validation.MaxLenError */
export const maxLenError = (length: number): string => `must be no more than ${length} characters`;
/** validation.RegexError: message, examples, and the regex used. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  // Go writes " or " between the examples, each already followed by ", ": hence the double space.
  const shown = examples.map((e) => `'${e}', `).join(' or ');
  return `${msg} (e.g. ${shown}regex used for validation is '${fmt}')`;
}

/** Go counts bytes, not UTF-16 units. */
export const byteLength = (s: string): number => new TextEncoder().encode(s).length;

export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_RE.test(value)) errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

/** A DNS-1035 label (what admissionReviewVersions entries must be): starts with a letter. */
export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

/** A fully qualified domain name with at least three labels (webhook names), as utilvalidation.IsFullyQualifiedName. */
export function validateFullyQualifiedName(name: unknown, path: FieldPath): FieldError[] {
  if (name === undefined || name === null || name === '') return [required(path)];
  if (typeof name !== 'string') return [invalid(path, name, 'must be a string')];
  const errs = isDns1123Subdomain(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3)
    return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_RE.test(value))
    errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** A label key / annotation key: `[prefix/]name`, prefix a DNS subdomain, name ≤63 of [-A-Za-z0-9_.]. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else for (const msg of isDns1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
  } else {
    errs.push(
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    return errs;
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH)
    errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** A label value: empty, or ≤63 of [-A-Za-z0-9_.] starting and ending alphanumeric. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value))
    errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** metav1validation.ValidateLabelName */
export function validateLabelName(key: string, path: FieldPath): FieldError[] {
  return isQualifiedName(key).map((msg) => invalid(path, key, msg));
}

/** metav1validation.ValidateLabels: every key a qualified name, every value a label value. */
export function validateLabels(labels: unknown, path: FieldPath): FieldError[] {
  if (labels === undefined || labels === null) return [];
  if (typeof labels !== 'object' || Array.isArray(labels)) return [invalid(path, labels, 'must be a map of strings')];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    errs.push(...validateLabelName(k, path));
    if (typeof v !== 'string') errs.push(invalid(path, v, 'label values must be strings'));
    else for (const msg of isValidLabelValue(v)) errs.push(invalid(path, v, msg));
  }
  return errs;
}

const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

/**
 * metav1validation.ValidateLabelSelector (AllowInvalidLabelValueInSelector=false, the create rule).
 * Accepts unknown input so a hand-written YAML selector of the wrong shape is reported, not thrown on.
 */
export function validateLabelSelector(sel: LabelSelector | null | undefined | unknown, path: FieldPath): FieldError[] {
  if (sel === undefined || sel === null) return [];
  if (typeof sel !== 'object' || Array.isArray(sel)) return [invalid(path, sel, 'must be a label selector object')];
  const s = sel as { matchLabels?: unknown; matchExpressions?: unknown };
  const errs: FieldError[] = validateLabels(s.matchLabels, path.child('matchLabels'));
  if (s.matchExpressions === undefined || s.matchExpressions === null) return errs;
  if (!Array.isArray(s.matchExpressions)) {
    errs.push(invalid(path.child('matchExpressions'), s.matchExpressions, 'must be a list'));
    return errs;
  }
  s.matchExpressions.forEach((expr: unknown, i: number) => {
    errs.push(...validateLabelSelectorRequirement(expr, path.child('matchExpressions').index(i)));
  });
  return errs;
}

/** metav1validation.ValidateLabelSelectorRequirement */
export function validateLabelSelectorRequirement(req: unknown, path: FieldPath): FieldError[] {
  if (req === null || typeof req !== 'object' || Array.isArray(req)) return [invalid(path, req, 'must be an object')];
  const r = req as { key?: unknown; operator?: unknown; values?: unknown };
  const errs: FieldError[] = [];
  const values = r.values === undefined || r.values === null ? [] : r.values;
  if (!Array.isArray(values)) {
    errs.push(invalid(path.child('values'), values, 'must be a list of strings'));
  }
  const list: unknown[] = Array.isArray(values) ? values : [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (list.length === 0)
        errs.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (list.length > 0)
        errs.push(
          forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      break;
    default:
      errs.push(invalid(path.child('operator'), r.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(typeof r.key === 'string' ? r.key : '', path.child('key')));
  list.forEach((v, i) => {
    if (typeof v !== 'string') errs.push(invalid(path.child('values').index(i), v, 'must be a string'));
    else for (const msg of isValidLabelValue(v)) errs.push(invalid(path.child('values').index(i), v, msg));
  });
  return errs;
}

/** True when `op` is one of the four label-selector operators. */
export const isSelectorOperator = (op: unknown): op is (typeof SELECTOR_OPERATORS)[number] =>
  typeof op === 'string' && (SELECTOR_OPERATORS as readonly string[]).includes(op);
