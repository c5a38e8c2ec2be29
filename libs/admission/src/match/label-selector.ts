/**
 * Label selectors (k8s-semantics §5), parsed once per hook.
 * `{}` matches everything (and lets the matchers skip any lookup); null matches nothing.
 * An invalid selector matches nothing and carries its parse error, which the dispatcher reports
 * (as a 500) only for hooks whose rules match (§3).
 */
import type { LabelSelector } from '../types/webhook-configuration.js';
import type { CompiledSelector } from '../types/hook.js';
import { root, formatFieldError } from '../validation/field-path.js';
import { formatAggregate } from '../errors/status.js';
import { isQualifiedName, isValidLabelValue, validateLabelSelector } from '../validation/names.js';
import { goQuote } from '../errors/go-quote.js';

export type Labels = Readonly<Record<string, string>>;

/** One requirement as apimachinery's labels.Requirement evaluates it. */
type Requirement = (labels: Labels) => boolean;

const has = (labels: Labels, key: string): boolean => Object.prototype.hasOwnProperty.call(labels, key);

function compileRequirement(key: string, operator: string, values: readonly string[]): Requirement {
  const set: ReadonlySet<string> = new Set(values);
  switch (operator) {
    case 'In':
      return (l) => has(l, key) && set.has(l[key]!);
    // An absent key satisfies NotIn.
    case 'NotIn':
      return (l) => !has(l, key) || !set.has(l[key]!);
    case 'Exists':
      return (l) => has(l, key);
    case 'DoesNotExist':
      return (l) => !has(l, key);
    default:
      // Unreachable after validation; kept total so a bad operator can never match.
      return () => false;
  }
}

const EVERYTHING: CompiledSelector = Object.freeze({ isEmpty: true, matches: () => true });
const NOTHING: CompiledSelector = Object.freeze({ isEmpty: false, matches: () => false });

/** encoding/json's text of a []string (Go escapes <, > and & in strings); nil is `null`. */
const goJsonStrings = (values: readonly string[]): string =>
  values.length === 0
    ? 'null'
    : JSON.stringify(values).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);

/**
 * labels.NewRequirement's error for one requirement: field errors at `key`, `values` and
 * `values[i][<key>]`, Invalid values as apimachinery prints them, several joined `[e1, e2]`.
 */
function requirementError(
  key: string,
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | '=',
  values: readonly string[],
): string | undefined {
  const errs: string[] = [];
  const keyErrors = isQualifiedName(key);
  if (keyErrors.length > 0) errs.push(`key: Invalid value: ${goQuote(key)}: ${keyErrors.join('; ')}`);
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
    errs.push(`values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`);
  } else if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
    errs.push(
      `values: Invalid value: ${goJsonStrings(values)}: values set must be empty for exists and does not exist`,
    );
  }
  values.forEach((value, i) => {
    const valueErrors = isValidLabelValue(value);
    if (valueErrors.length > 0)
      errs.push(`values[${i}][${key}]: Invalid value: ${goQuote(value)}: ${valueErrors.join('; ')}`);
  });
  return errs.length === 0 ? undefined : formatAggregate(errs);
}

const OPERATORS: ReadonlySet<string> = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/**
 * metav1.LabelSelectorAsSelector's error, the text the apiserver wraps in its 500 (§5): the first
 * failing requirement, matchLabels first (Go's map order is random; here the written order), then
 * matchExpressions; an unknown operator reads `"<op>" is not a valid label selector operator`.
 * Undefined when every requirement is well-formed strings (shape errors are handled by the caller).
 */
function asSelectorError(sel: LabelSelector): string | undefined {
  for (const [key, value] of Object.entries(sel.matchLabels ?? {})) {
    if (typeof value !== 'string') return undefined;
    const error = requirementError(key, '=', [value]);
    if (error !== undefined) return error;
  }
  for (const expr of sel.matchExpressions ?? []) {
    const values: unknown = expr.values ?? [];
    if (typeof expr.key !== 'string' || !Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
      return undefined;
    }
    if (typeof expr.operator !== 'string' || !OPERATORS.has(expr.operator)) {
      return `${goQuote(String(expr.operator ?? ''))} is not a valid label selector operator`;
    }
    const error = requirementError(expr.key, expr.operator as 'In', values as string[]);
    if (error !== undefined) return error;
  }
  return undefined;
}

/** The parse error text: LabelSelectorAsSelector's wording; else (ill-typed JSON) the field errors. */
function selectorError(sel: unknown): string | undefined {
  const errs = validateLabelSelector(sel, root(''));
  if (errs.length === 0) return undefined;
  const worded = asSelectorError(sel as LabelSelector);
  if (worded !== undefined) return worded;
  return formatAggregate(errs.map(formatFieldError));
}

export function compileSelector(sel: LabelSelector | null | undefined): CompiledSelector {
  if (sel === null || sel === undefined) return NOTHING;
  const error = selectorError(sel);
  if (error !== undefined) return Object.freeze({ isEmpty: false, error, matches: () => false });

  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(sel.matchLabels ?? {})) {
    requirements.push(compileRequirement(key, 'In', [value]));
  }
  for (const expr of sel.matchExpressions ?? []) {
    requirements.push(compileRequirement(expr.key, expr.operator, expr.values ?? []));
  }
  if (requirements.length === 0) return EVERYTHING;
  return Object.freeze({
    isEmpty: false,
    // `undefined` stands for an object without metadata: only the empty selector matches it (§7).
    matches: (labels: Labels | undefined) => {
      if (labels === undefined) return false;
      for (const r of requirements) if (!r(labels)) return false;
      return true;
    },
  });
}

/** Labels of a JSON object for selector matching, or undefined when it has no usable metadata (§7). */
export function labelsOf(object: unknown): Labels | undefined {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return undefined;
  const metadata = (object as Record<string, unknown>)['metadata'];
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return undefined;
  return labelMap((metadata as Record<string, unknown>)['labels']);
}

const NO_LABELS: Labels = Object.freeze({});

/** metadata.labels as unstructured accessors read it: a map with any non-string value yields no labels. */
export function labelMap(raw: unknown): Labels {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return NO_LABELS;
  for (const v of Object.values(raw)) if (typeof v !== 'string') return NO_LABELS;
  return raw as Labels;
}
