/**
 * required-labels configuration: YAML → validated RequiredLabelsPolicy, every problem named by its field path.
 *
 *   namespaceLabels: { payments: { tier: prod } }
 *   rules:
 *     - name: team-ownership
 *       kinds: [apps/Deployment, Service]
 *       namespaceSelector: { matchLabels: { tier: prod } }
 *       labels:
 *         - { key: team, values: [payments, platform] }
 *         - { key: cost-center, pattern: '[0-9]{4}' }
 */
import {
  loadPluginConfig,
  parsePluginConfig,
  validLabelValue,
  validQualifiedName,
  type FieldPath,
  type FieldReader,
} from '@hookgate/plugin-sdk';
import { isSelectorOperator, type LabelSelector } from '@hookgate/admission';
import type { KindPattern, LabelRequirement, LabelRule, RequiredLabelsPolicy } from './decide.js';

const PLUGIN = 'required-labels';
const KIND_NAME = /^[A-Z][A-Za-z0-9]*$/;

export async function loadRequiredLabelsConfig(path: string): Promise<RequiredLabelsPolicy> {
  return loadPluginConfig(PLUGIN, path, readPolicy);
}

export function parseRequiredLabelsConfig(text: string, source: string): RequiredLabelsPolicy {
  return parsePluginConfig(PLUGIN, text, source, readPolicy);
}

function readPolicy(r: FieldReader): RequiredLabelsPolicy {
  const byNamespace = r.map('namespaceLabels');
  const namespaceEntries: [string, Record<string, string>][] = [];
  for (const namespace of byNamespace.keys()) {
    const labels = byNamespace.stringMap(namespace);
    if (labels !== undefined) namespaceEntries.push([namespace, labels]);
  }

  const rules: LabelRule[] = [];
  const rawRules = r.raw('rules');
  if (rawRules === undefined) r.required('rules');
  else if (!Array.isArray(rawRules)) r.invalid('rules', rawRules, 'must be a list of rules');
  else
    r.items('rules', (item) => {
      const rule = readRule(item);
      if (rule === undefined) return;
      if (rules.some((other) => other.name === rule.name)) item.invalid('name', rule.name, 'must be unique');
      rules.push(rule);
    });

  // fromEntries: a namespace key is data, even one named __proto__.
  return { rules, namespaceLabels: Object.fromEntries(namespaceEntries) };
}

function readRule(rule: FieldReader): LabelRule | undefined {
  const name = rule.requiredString('name');

  const kindTexts = rule.stringList('kinds') ?? [];
  if (kindTexts.length === 0) rule.required('kinds');
  const kinds = kindTexts
    .map((text, i) => readKind(rule, text, rule.at('kinds').index(i)))
    .filter((k) => k !== undefined);

  const namespaceSelector = rule.has('namespaceSelector') ? readSelector(rule.object('namespaceSelector')) : undefined;
  const namespaces = rule.stringList('namespaces');

  const rawLabels = rule.raw('labels');
  const labels: LabelRequirement[] = [];
  if (!Array.isArray(rawLabels) || rawLabels.length === 0)
    rule.invalid('labels', rawLabels ?? null, 'must be a non-empty list of { key, values?, pattern? }');
  else
    rule.items('labels', (item) => {
      const requirement = readRequirement(item);
      if (requirement !== undefined) labels.push(requirement);
    });
  rule.finish();

  if (name === undefined) return undefined;
  return {
    name,
    kinds,
    labels,
    ...(namespaceSelector !== undefined ? { namespaceSelector } : {}),
    ...(namespaces !== undefined ? { namespaces } : {}),
  };
}

/** `Kind` (core group), `group/Kind`, with `*` for either part; `*` alone means every kind. */
function readKind(r: FieldReader, text: string, path: FieldPath): KindPattern | undefined {
  if (text === '*') return { group: '*', kind: '*' };
  const slash = text.indexOf('/');
  const group = slash < 0 ? '' : text.slice(0, slash);
  const kind = slash < 0 ? text : text.slice(slash + 1);
  if (kind !== '*' && !KIND_NAME.test(kind)) {
    return r.invalid(
      path,
      text,
      'must be Kind (core group), group/Kind or *, with the Kind capitalised as in the object (Deployment, not deployments)',
    );
  }
  return { group, kind };
}

function readRequirement(item: FieldReader): LabelRequirement | undefined {
  const key = item.requiredString('key');
  if (key !== undefined && !validQualifiedName(key)) item.invalid('key', key, 'must be a label key ([prefix/]name)');
  const values = item.stringList('values');
  if (values !== undefined && values.length === 0)
    item.invalid('values', values, 'must list at least one value (omit it to allow any value)');
  values?.forEach((value, i) => {
    if (!validLabelValue(value)) item.invalid(item.at('values').index(i), value, 'must be a valid label value');
  });
  const patternText = item.string('pattern', undefined, { allowEmpty: true });
  let pattern: LabelRequirement['pattern'];
  if (patternText !== undefined) {
    try {
      new RegExp(patternText, 'u'); // compiled alone first, so an error names the user's pattern
      // Anchored: the whole value must match, so `prod` does not accept `preprod-x`.
      pattern = { source: patternText, regex: new RegExp(`^(?:${patternText})$`, 'u') };
    } catch (error) {
      item.invalid('pattern', patternText, `is not a valid regular expression (${(error as Error).message})`);
    }
  }
  item.finish();
  if (key === undefined) return undefined;
  return { key, ...(values !== undefined ? { values } : {}), ...(pattern !== undefined ? { pattern } : {}) };
}

/** The operators of a label selector expression, listed when another is written. */
const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/**
 * A metav1.LabelSelector, checked as the apiserver checks one (keys, values, operators), so that
 * compileSelector never meets an invalid selector: it would silently match nothing.
 */
function readSelector(selector: FieldReader): LabelSelector {
  const matchLabels = selector.stringMap('matchLabels') ?? {};
  for (const [key, value] of Object.entries(matchLabels)) {
    const at = selector.at('matchLabels').key(key);
    if (!validQualifiedName(key)) selector.invalid(at, key, 'must be a label key ([prefix/]name)');
    if (!validLabelValue(value)) selector.invalid(at, value, 'must be a valid label value');
  }
  const matchExpressions: NonNullable<LabelSelector['matchExpressions']> = [];
  selector.items('matchExpressions', (expression) => {
    const key = expression.requiredString('key');
    if (key !== undefined && !validQualifiedName(key))
      expression.invalid('key', key, 'must be a label key ([prefix/]name)');
    // allowEmpty: "" is answered with the supported operators below, not a bare "must be non-empty".
    const operator = expression.requiredString('operator', { allowEmpty: true });
    const values = expression.stringList('values') ?? [];
    values.forEach((value, v) => {
      if (!validLabelValue(value))
        expression.invalid(expression.at('values').index(v), value, 'must be a valid label value');
    });
    expression.finish();
    if (operator !== undefined && !isSelectorOperator(operator))
      return expression.notSupported('operator', operator, SELECTOR_OPERATORS);
    const needsValues = operator === 'In' || operator === 'NotIn';
    if (needsValues && values.length === 0) expression.required('values');
    if (!needsValues && values.length > 0)
      expression.invalid('values', values, `must be empty when operator is ${operator}`);
    if (key !== undefined && operator !== undefined) matchExpressions.push({ key, operator, values });
    return undefined;
  });
  selector.finish();
  return { matchLabels, matchExpressions };
}
