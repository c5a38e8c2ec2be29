// §5 selector semantics (apimachinery labels.Requirement.Matches / LabelSelectorAsSelector).
import { describe, expect, it } from 'vitest';
import type { LabelSelector } from '../types/webhook-configuration.js';
import { compileSelector, labelMap, labelsOf } from './label-selector.js';

type Labels = Record<string, string>;

describe('compileSelector: matching', () => {
  const env: Labels = { env: 'prod', tier: 'web' };
  const none: Labels = {};
  const cases: [string, LabelSelector | null | undefined, Labels, boolean][] = [
    ['{} matches everything', {}, env, true],
    ['{} matches no labels', {}, none, true],
    ['empty lists are {}', { matchLabels: {}, matchExpressions: [] }, none, true],
    ['null matches nothing', null, env, false],
    ['undefined matches nothing', undefined, none, false],
    ['matchLabels equal', { matchLabels: { env: 'prod' } }, env, true],
    ['matchLabels other value', { matchLabels: { env: 'dev' } }, env, false],
    ['matchLabels missing key', { matchLabels: { team: 'a' } }, env, false],
    ['matchLabels all pairs (AND)', { matchLabels: { env: 'prod', tier: 'web' } }, env, true],
    ['matchLabels one pair fails', { matchLabels: { env: 'prod', tier: 'db' } }, env, false],
    ['matchLabels empty value matches empty value', { matchLabels: { flag: '' } }, { flag: '' }, true],
    ['matchLabels empty value does not match absent key', { matchLabels: { flag: '' } }, none, false],
    ['In: value in list', { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev', 'prod'] }] }, env, true],
    ['In: value not in list', { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, env, false],
    ['In: absent key', { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] }, env, false],
    ['NotIn: value in list', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, env, false],
    ['NotIn: value not in list', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }, env, true],
    ['NotIn: absent key matches', { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] }, env, true],
    [
      'NotIn: empty label set matches',
      { matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['0', '1'] }] },
      none,
      true,
    ],
    ['Exists: present', { matchExpressions: [{ key: 'env', operator: 'Exists' }] }, env, true],
    [
      'Exists: present with empty value',
      { matchExpressions: [{ key: 'flag', operator: 'Exists' }] },
      { flag: '' },
      true,
    ],
    ['Exists: absent', { matchExpressions: [{ key: 'team', operator: 'Exists' }] }, env, false],
    ['Exists: values [] allowed', { matchExpressions: [{ key: 'env', operator: 'Exists', values: [] }] }, env, true],
    ['DoesNotExist: absent', { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] }, env, true],
    ['DoesNotExist: present', { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, env, false],
    ['DoesNotExist: empty label set', { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, none, true],
    [
      'matchLabels AND matchExpressions',
      { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['web'] }] },
      env,
      false,
    ],
    [
      'several expressions all hold',
      {
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod'] },
          { key: 'tier', operator: 'Exists' },
          { key: 'team', operator: 'DoesNotExist' },
        ],
      },
      env,
      true,
    ],
    ['case-sensitive values', { matchLabels: { env: 'Prod' } }, env, false],
    [
      'prefixed keys',
      { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
      { 'kubernetes.io/metadata.name': 'kube-system' },
      true,
    ],
    ['In and the prototype', { matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, none, false],
  ];
  it.each(cases)('%s', (_name, selector, labels, want) => {
    expect(compileSelector(selector).matches(labels)).toBe(want);
  });
});

describe('compileSelector: isEmpty and errors', () => {
  const cases: [string, LabelSelector | null | undefined, boolean, boolean][] = [
    // name, selector, isEmpty, has error
    ['{}', {}, true, false],
    ['empty lists', { matchLabels: {}, matchExpressions: [] }, true, false],
    ['null is not empty', null, false, false],
    ['non-empty', { matchLabels: { a: 'b' } }, false, false],
    ['In without values', { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, false, true],
    ['NotIn without values', { matchExpressions: [{ key: 'a', operator: 'NotIn' }] }, false, true],
    ['Exists with values', { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, false, true],
    [
      'DoesNotExist with values',
      { matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }] },
      false,
      true,
    ],
    ['unknown operator', { matchExpressions: [{ key: 'a', operator: 'Equals', values: ['x'] }] }, false, true],
    ['bad key', { matchLabels: { 'bad key': 'x' } }, false, true],
    ['bad value', { matchLabels: { a: 'bad value!' } }, false, true],
    ['key too long', { matchExpressions: [{ key: 'k'.repeat(64), operator: 'Exists' }] }, false, true],
  ];
  it.each(cases)('%s', (_name, selector, isEmpty, hasError) => {
    const compiled = compileSelector(selector);
    expect(compiled.isEmpty).toBe(isEmpty);
    expect(compiled.error !== undefined).toBe(hasError);
    // An invalid selector never matches.
    if (hasError) expect(compiled.matches({ a: 'x' })).toBe(false);
  });

  it.each([
    ['{} matches an object without metadata', {}, true],
    [
      'NotIn does not match an object without metadata',
      { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] },
      false,
    ],
    ['null does not match it either', null, false],
  ] as [string, LabelSelector | null, boolean][])('matches(undefined): %s', (_name, selector, want) => {
    expect(compileSelector(selector).matches(undefined as unknown as Labels)).toBe(want);
  });

  // metav1.LabelSelectorAsSelector → labels.NewRequirement: the first failing requirement only.
  it.each([
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] },
      'values: Invalid value: ["x","y"]: values set must be empty for exists and does not exist',
    ],
    [
      'unknown operator',
      { matchExpressions: [{ key: 'bad key', operator: 'Equals', values: ['x'] }] },
      '"Equals" is not a valid label selector operator',
    ],
    [
      'bad matchLabels value',
      { matchLabels: { a: 'bad value!' } },
      "values[0][a]: Invalid value: \"bad value!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    [
      'bad key and bad value: both, joined',
      { matchExpressions: [{ key: 'a b', operator: 'In', values: ['ok', '-x'] }] },
      "[key: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values[1][a b]: Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
    ],
    [
      'only the first failing requirement',
      {
        matchLabels: { ok: 'yes' },
        matchExpressions: [
          { key: 'a', operator: 'NotIn' },
          { key: 'b', operator: 'Exists', values: ['x'] },
        ],
      },
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    ],
  ] as [string, LabelSelector, string][])('words the error as LabelSelectorAsSelector: %s', (_name, selector, want) => {
    expect(compileSelector(selector).error).toBe(want);
  });
});

describe('labelsOf / labelMap', () => {
  const cases: [string, unknown, Labels | undefined][] = [
    ['null object', null, undefined],
    ['not an object', 'x', undefined],
    ['array', [], undefined],
    ['no metadata (connect options)', { kind: 'PodExecOptions', command: ['sh'] }, undefined],
    ['metadata null', { metadata: null }, undefined],
    ['metadata without labels', { metadata: { name: 'x' } }, {}],
    ['labels', { metadata: { labels: { a: 'b' } } }, { a: 'b' }],
    ['labels with a non-string value are dropped entirely', { metadata: { labels: { a: 'b', n: 1 } } }, {}],
    ['labels null', { metadata: { labels: null } }, {}],
    ['labels not a map', { metadata: { labels: ['a'] } }, {}],
  ];
  it.each(cases)('%s', (_name, object, want) => expect(labelsOf(object)).toEqual(want));

  it('returns the same map when all values are strings', () => {
    const labels = { a: 'b' };
    expect(labelMap(labels)).toBe(labels);
  });
});
