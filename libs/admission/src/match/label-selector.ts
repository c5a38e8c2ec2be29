/**
 * Label selectors (k8s-semantics §5), parsed once per hook.
 * `{}` matches everything (and lets the matchers skip any lookup); null matches nothing.
 * An invalid selector matches nothing and carries its parse error, which the dispatcher reports
 * (as a 500) only for hooks whose rules match (§3).
 */
import type { LabelSelector } from '../types/webhook-configuration.js';
import type { CompiledSelector } from '../types/hook.js';
import { root, formatFieldError } from '../validation/field-path.js';
import { validateLabelSelector } from '../validation/names.js';

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

/** The parse error text: apimachinery-style field errors, several joined `[e1, e2]`. */
function selectorError(sel: unknown): string | undefined {
  const errs = validateLabelSelector(sel, root(''));
  if (errs.length === 0) return undefined;
  const texts = [...new Set(errs.map(formatFieldError))];
  return texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
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
