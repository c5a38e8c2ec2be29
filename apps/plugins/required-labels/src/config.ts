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
  joinFieldPath,
  loadPluginConfig,
  parsePluginConfig,
  validLabelValue,
  validQualifiedName,
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

function readPolicy(document: unknown, r: FieldReader): RequiredLabelsPolicy {
  const root = r.object(document, '', ['namespaceLabels', 'rules']) ?? {};

  const namespaceLabels: Record<string, Record<string, string>> = {};
  for (const [namespace, labels] of Object.entries(r.object(root['namespaceLabels'], 'namespaceLabels') ?? {})) {
    const map = r.stringMap(labels, joinFieldPath('namespaceLabels', namespace));
    if (map !== undefined) namespaceLabels[namespace] = map;
  }

  const rules: LabelRule[] = [];
  const rawRules = root['rules'];
  if (rawRules === undefined || rawRules === null) r.required('rules');
  else if (!Array.isArray(rawRules)) r.invalid('rules', rawRules, 'must be a list of rules');
  else
    rawRules.forEach((raw, i) => {
      const rule = readRule(r, raw, `rules[${i}]`);
      if (rule === undefined) return;
      if (rules.some((other) => other.name === rule.name)) r.invalid(`rules[${i}].name`, rule.name, 'must be unique');
      rules.push(rule);
    });

  return { rules, namespaceLabels };
}

function readRule(r: FieldReader, raw: unknown, path: string): LabelRule | undefined {
  const rule = r.object(raw, path, ['name', 'kinds', 'namespaceSelector', 'namespaces', 'labels']);
  if (rule === undefined) return r.required(path);
  const name = r.string(rule['name'], `${path}.name`) ?? r.required(`${path}.name`);

  const kindTexts = r.stringArray(rule['kinds'], `${path}.kinds`) ?? [];
  if (kindTexts.length === 0) r.required(`${path}.kinds`);
  const kinds = kindTexts.map((text, i) => readKind(r, text, `${path}.kinds[${i}]`)).filter((k) => k !== undefined);

  const selectorRaw = rule['namespaceSelector'];
  const namespaceSelector =
    selectorRaw === undefined ? undefined : readSelector(r, selectorRaw, `${path}.namespaceSelector`);
  const namespaces = r.stringArray(rule['namespaces'], `${path}.namespaces`);

  const rawLabels = rule['labels'];
  const labels: LabelRequirement[] = [];
  if (!Array.isArray(rawLabels) || rawLabels.length === 0)
    r.invalid(`${path}.labels`, rawLabels ?? null, 'must be a non-empty list of { key, values?, pattern? }');
  else
    rawLabels.forEach((item, i) => {
      const requirement = readRequirement(r, item, `${path}.labels[${i}]`);
      if (requirement !== undefined) labels.push(requirement);
    });

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
function readKind(r: FieldReader, text: string, path: string): KindPattern | undefined {
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

function readRequirement(r: FieldReader, raw: unknown, path: string): LabelRequirement | undefined {
  const item = r.object(raw, path, ['key', 'values', 'pattern']);
  if (item === undefined) return r.required(path);
  const key = r.string(item['key'], `${path}.key`) ?? r.required(`${path}.key`);
  if (key !== undefined && !validQualifiedName(key))
    r.invalid(`${path}.key`, key, 'must be a label key ([prefix/]name)');
  const values = r.stringArray(item['values'], `${path}.values`);
  if (values !== undefined && values.length === 0)
    r.invalid(`${path}.values`, values, 'must list at least one value (omit it to allow any value)');
  values?.forEach((value, i) => {
    if (!validLabelValue(value)) r.invalid(`${path}.values[${i}]`, value, 'must be a valid label value');
  });
  const patternText = r.string(item['pattern'], `${path}.pattern`);
  let pattern: LabelRequirement['pattern'];
  if (patternText !== undefined) {
    try {
      new RegExp(patternText, 'u'); // compiled alone first, so an error names the user's pattern
      // Anchored: the whole value must match, so `prod` does not accept `preprod-x`.
      pattern = { source: patternText, regex: new RegExp(`^(?:${patternText})$`, 'u') };
    } catch (error) {
      r.invalid(`${path}.pattern`, patternText, `is not a valid regular expression (${(error as Error).message})`);
    }
  }
  if (key === undefined) return undefined;
  return { key, ...(values !== undefined ? { values } : {}), ...(pattern !== undefined ? { pattern } : {}) };
}

/** The operators of a label selector expression, listed when another is written. */
const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/**
 * A metav1.LabelSelector, checked as the apiserver checks one (keys, values, operators), so that
 * compileSelector never meets an invalid selector: it would silently match nothing.
 */
function readSelector(r: FieldReader, raw: unknown, path: string): LabelSelector | undefined {
  const selector = r.object(raw, path, ['matchLabels', 'matchExpressions']);
  if (selector === undefined) return undefined;
  const matchLabels = r.stringMap(selector['matchLabels'], `${path}.matchLabels`) ?? {};
  for (const [key, value] of Object.entries(matchLabels)) {
    const at = joinFieldPath(`${path}.matchLabels`, key);
    if (!validQualifiedName(key)) r.invalid(at, key, 'must be a label key ([prefix/]name)');
    if (!validLabelValue(value)) r.invalid(at, value, 'must be a valid label value');
  }
  const matchExpressions: NonNullable<LabelSelector['matchExpressions']> = [];
  const rawExpressions = selector['matchExpressions'];
  if (rawExpressions !== undefined && !Array.isArray(rawExpressions))
    r.invalid(`${path}.matchExpressions`, rawExpressions, 'must be a list');
  (Array.isArray(rawExpressions) ? rawExpressions : []).forEach((rawExpression, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const expression = r.object(rawExpression, at, ['key', 'operator', 'values']);
    if (expression === undefined) return r.required(at);
    const key = r.string(expression['key'], `${at}.key`) ?? r.required(`${at}.key`);
    if (key !== undefined && !validQualifiedName(key))
      r.invalid(`${at}.key`, key, 'must be a label key ([prefix/]name)');
    const operator = r.string(expression['operator'], `${at}.operator`) ?? r.required(`${at}.operator`);
    const values = r.stringArray(expression['values'], `${at}.values`) ?? [];
    values.forEach((value, v) => {
      if (!validLabelValue(value)) r.invalid(`${at}.values[${v}]`, value, 'must be a valid label value');
    });
    if (operator !== undefined && !isSelectorOperator(operator))
      return r.unsupported(`${at}.operator`, operator, SELECTOR_OPERATORS);
    const needsValues = operator === 'In' || operator === 'NotIn';
    if (needsValues && values.length === 0) r.required(`${at}.values`);
    if (!needsValues && values.length > 0)
      r.invalid(`${at}.values`, values, `must be empty when operator is ${operator}`);
    if (key !== undefined && operator !== undefined) matchExpressions.push({ key, operator, values });
    return undefined;
  });
  return { matchLabels, matchExpressions };
}
