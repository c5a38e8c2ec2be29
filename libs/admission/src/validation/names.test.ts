import { describe, expect, it } from 'vitest';
import { root } from './field-path.js';
import {
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isSelectorOperator,
  isValidLabelValue,
  validateFullyQualifiedName,
  validateLabelName,
  validateLabels,
  validateLabelSelector,
} from './names.js';

const LABEL_REGEX_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_REGEX_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QNAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('isDns1123Label', () => {
  const cases: { name: string; value: string; errors: string[] }[] = [
    { name: 'simple', value: 'abc', errors: [] },
    { name: 'digits first', value: '1abc', errors: [] },
    { name: 'inner dash', value: 'a-b', errors: [] },
    { name: 'max length 63', value: 'a'.repeat(63), errors: [] },
    { name: 'too long', value: 'a'.repeat(64), errors: ['must be no more than 63 characters'] },
    { name: 'uppercase', value: 'Abc', errors: [LABEL_REGEX_MSG] },
    { name: 'dot', value: 'a.b', errors: [LABEL_REGEX_MSG] },
    { name: 'leading dash', value: '-a', errors: [LABEL_REGEX_MSG] },
    { name: 'trailing dash', value: 'a-', errors: [LABEL_REGEX_MSG] },
    { name: 'empty', value: '', errors: [LABEL_REGEX_MSG] },
    {
      name: 'too long and invalid',
      value: 'A'.repeat(64),
      errors: ['must be no more than 63 characters', LABEL_REGEX_MSG],
    },
  ];
  it.each(cases)('$name', ({ value, errors }) => expect(isDns1123Label(value)).toEqual(errors));
});

describe('isDns1123Subdomain', () => {
  const cases: { name: string; value: string; errors: string[] }[] = [
    { name: 'one label', value: 'example', errors: [] },
    { name: 'dotted', value: 'a.example.com', errors: [] },
    {
      name: 'max length 253',
      value: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
      errors: [],
    },
    {
      name: 'too long',
      value: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`,
      errors: ['must be no more than 253 characters'],
    },
    { name: 'double dot', value: 'a..b', errors: [SUBDOMAIN_REGEX_MSG] },
    { name: 'uppercase', value: 'Example.com', errors: [SUBDOMAIN_REGEX_MSG] },
    { name: 'underscore', value: 'a_b.com', errors: [SUBDOMAIN_REGEX_MSG] },
    { name: 'trailing dot', value: 'example.com.', errors: [SUBDOMAIN_REGEX_MSG] },
    { name: 'empty', value: '', errors: [SUBDOMAIN_REGEX_MSG] },
  ];
  it.each(cases)('$name', ({ value, errors }) => expect(isDns1123Subdomain(value)).toEqual(errors));
});

describe('isDns1035Label', () => {
  const cases: { name: string; value: string; errors: string[] }[] = [
    { name: 'v1', value: 'v1', errors: [] },
    { name: 'v1beta1', value: 'v1beta1', errors: [] },
    { name: 'starts with a digit', value: '1v', errors: [DNS1035_MSG] },
    { name: 'uppercase', value: 'V1', errors: [DNS1035_MSG] },
    { name: 'too long', value: 'v'.repeat(64), errors: ['must be no more than 63 characters'] },
  ];
  it.each(cases)('$name', ({ value, errors }) => expect(isDns1035Label(value)).toEqual(errors));
});

describe('isQualifiedName', () => {
  const cases: { name: string; value: string; errors: string[] }[] = [
    { name: 'plain name', value: 'app', errors: [] },
    { name: 'mixed case, dots, underscores', value: 'My_app.Name-1', errors: [] },
    { name: 'prefixed', value: 'kubernetes.io/metadata.name', errors: [] },
    { name: 'single character', value: 'a', errors: [] },
    { name: 'name of 63', value: 'a'.repeat(63), errors: [] },
    { name: 'name too long', value: 'a'.repeat(64), errors: ['name part must be no more than 63 characters'] },
    { name: 'empty', value: '', errors: ['name part must be non-empty', QNAME_PART_MSG] },
    { name: 'empty prefix', value: '/app', errors: ['prefix part must be non-empty'] },
    { name: 'empty name after prefix', value: 'example.com/', errors: ['name part must be non-empty', QNAME_PART_MSG] },
    {
      name: 'uppercase prefix',
      value: 'Example.com/app',
      errors: [`prefix part ${SUBDOMAIN_REGEX_MSG}`],
    },
    { name: 'leading dash', value: '-app', errors: [QNAME_PART_MSG] },
    { name: 'invalid character', value: 'invalid*key', errors: [QNAME_PART_MSG] },
    {
      name: 'two slashes',
      value: 'a/b/c',
      errors: [
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    },
  ];
  it.each(cases)('$name', ({ value, errors }) => expect(isQualifiedName(value)).toEqual(errors));
});

describe('isValidLabelValue', () => {
  const cases: { name: string; value: string; errors: string[] }[] = [
    { name: 'empty is valid', value: '', errors: [] },
    { name: 'plain', value: 'true', errors: [] },
    { name: 'mixed', value: 'My_value-1.2', errors: [] },
    { name: '63 characters', value: 'v'.repeat(63), errors: [] },
    { name: '64 characters', value: 'v'.repeat(64), errors: ['must be no more than 63 characters'] },
    { name: 'space', value: 'a b', errors: [LABEL_VALUE_MSG] },
    { name: 'slash', value: 'a/b', errors: [LABEL_VALUE_MSG] },
    { name: 'trailing dot', value: 'a.', errors: [LABEL_VALUE_MSG] },
    {
      name: 'multi-byte counts bytes',
      value: 'é'.repeat(32),
      errors: ['must be no more than 63 characters', LABEL_VALUE_MSG],
    },
  ];
  it.each(cases)('$name', ({ value, errors }) => expect(isValidLabelValue(value)).toEqual(errors));
});

describe('validateFullyQualifiedName', () => {
  const path = root('webhooks').index(0).child('name');
  const cases: { name: string; value: unknown; errors: unknown[] }[] = [
    { name: 'three labels', value: 'a.b.c', errors: [] },
    { name: 'many labels', value: 'validate.gatekeeper.sh.example', errors: [] },
    { name: 'missing', value: undefined, errors: [{ type: 'FieldValueRequired', field: 'webhooks[0].name' }] },
    { name: 'empty', value: '', errors: [{ type: 'FieldValueRequired', field: 'webhooks[0].name' }] },
    {
      name: 'two labels',
      value: 'foo.bar',
      errors: [
        {
          type: 'FieldValueInvalid',
          field: 'webhooks[0].name',
          badValue: 'foo.bar',
          detail: 'should be a domain with at least three segments separated by dots',
        },
      ],
    },
    {
      name: 'not a subdomain',
      value: 'Foo.bar.baz',
      errors: [
        { type: 'FieldValueInvalid', field: 'webhooks[0].name', badValue: 'Foo.bar.baz', detail: SUBDOMAIN_REGEX_MSG },
      ],
    },
    {
      name: 'not a string',
      value: 7,
      errors: [{ type: 'FieldValueInvalid', field: 'webhooks[0].name', badValue: 7, detail: 'must be a string' }],
    },
  ];
  it.each(cases)('$name', ({ value, errors }) => expect(validateFullyQualifiedName(value, path)).toEqual(errors));
});

describe('validateLabelName and validateLabels', () => {
  it('reports every bad key and value at the map path', () => {
    const errs = validateLabels({ ok: 'fine', 'bad key': 'x', good: 'bad value' }, root('metadata', 'labels'));
    expect(errs.map((e) => [e.field, e.badValue])).toEqual([
      ['metadata.labels', 'bad key'],
      ['metadata.labels', 'bad value'],
    ]);
  });
  it('reports non-string label values', () => {
    expect(validateLabels({ a: 1 }, root('l'))).toEqual([
      { type: 'FieldValueInvalid', field: 'l', badValue: 1, detail: 'label values must be strings' },
    ]);
  });
  it('accepts absent labels', () => expect(validateLabels(undefined, root('l'))).toEqual([]));
  it('rejects a list as labels', () => expect(validateLabels([], root('l'))).toHaveLength(1));
  it('validateLabelName is Invalid with the key as value', () => {
    expect(validateLabelName('-x', root('k'))).toEqual([
      { type: 'FieldValueInvalid', field: 'k', badValue: '-x', detail: QNAME_PART_MSG },
    ]);
  });
});

describe('validateLabelSelector', () => {
  const p = root('webhooks').index(0).child('namespaceSelector');
  const cases: { name: string; selector: unknown; errors: { type: string; field: string; detail?: string }[] }[] = [
    { name: 'null selector', selector: null, errors: [] },
    { name: 'empty selector', selector: {}, errors: [] },
    { name: 'matchLabels', selector: { matchLabels: { 'kubernetes.io/metadata.name': 'default' } }, errors: [] },
    {
      name: 'In with values',
      selector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
      errors: [],
    },
    {
      name: 'NotIn with values',
      selector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['a', 'b'] }] },
      errors: [],
    },
    { name: 'Exists without values', selector: { matchExpressions: [{ key: 'env', operator: 'Exists' }] }, errors: [] },
    {
      name: 'DoesNotExist with empty values',
      selector: { matchExpressions: [{ key: 'env', operator: 'DoesNotExist', values: [] }] },
      errors: [],
    },
    {
      name: 'In without values',
      selector: { matchExpressions: [{ key: 'env', operator: 'In' }] },
      errors: [
        {
          type: 'FieldValueRequired',
          field: `${p}.matchExpressions[0].values`,
          detail: "must be specified when `operator` is 'In' or 'NotIn'",
        },
      ],
    },
    {
      name: 'NotIn with empty values',
      selector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: [] }] },
      errors: [
        {
          type: 'FieldValueRequired',
          field: `${p}.matchExpressions[0].values`,
          detail: "must be specified when `operator` is 'In' or 'NotIn'",
        },
      ],
    },
    {
      name: 'Exists with values',
      selector: { matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] },
      errors: [
        {
          type: 'FieldValueForbidden',
          field: `${p}.matchExpressions[0].values`,
          detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        },
      ],
    },
    {
      name: 'DoesNotExist with values',
      selector: { matchExpressions: [{ key: 'env', operator: 'DoesNotExist', values: ['x'] }] },
      errors: [
        {
          type: 'FieldValueForbidden',
          field: `${p}.matchExpressions[0].values`,
          detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        },
      ],
    },
    {
      name: 'unknown operator',
      selector: { matchExpressions: [{ key: 'env', operator: 'Equals', values: ['x'] }] },
      errors: [
        {
          type: 'FieldValueInvalid',
          field: `${p}.matchExpressions[0].operator`,
          detail: 'not a valid selector operator',
        },
      ],
    },
    {
      name: 'lowercase operator is unknown',
      selector: { matchExpressions: [{ key: 'env', operator: 'in', values: ['x'] }] },
      errors: [
        {
          type: 'FieldValueInvalid',
          field: `${p}.matchExpressions[0].operator`,
          detail: 'not a valid selector operator',
        },
      ],
    },
    {
      name: 'bad key',
      selector: { matchExpressions: [{ key: 'bad key', operator: 'Exists' }] },
      errors: [{ type: 'FieldValueInvalid', field: `${p}.matchExpressions[0].key`, detail: QNAME_PART_MSG }],
    },
    {
      name: 'missing key',
      selector: { matchExpressions: [{ operator: 'Exists' }] },
      errors: [
        { type: 'FieldValueInvalid', field: `${p}.matchExpressions[0].key`, detail: 'name part must be non-empty' },
        { type: 'FieldValueInvalid', field: `${p}.matchExpressions[0].key`, detail: QNAME_PART_MSG },
      ],
    },
    {
      name: 'bad value',
      selector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['ok', 'not ok'] }] },
      errors: [{ type: 'FieldValueInvalid', field: `${p}.matchExpressions[0].values[1]`, detail: LABEL_VALUE_MSG }],
    },
    {
      name: 'bad matchLabels value',
      selector: { matchLabels: { env: 'a b' } },
      errors: [{ type: 'FieldValueInvalid', field: `${p}.matchLabels`, detail: LABEL_VALUE_MSG }],
    },
    {
      name: 'selector is a string',
      selector: 'env=prod',
      errors: [{ type: 'FieldValueInvalid', field: `${p}`, detail: 'must be a label selector object' }],
    },
    {
      name: 'matchExpressions not a list',
      selector: { matchExpressions: {} },
      errors: [{ type: 'FieldValueInvalid', field: `${p}.matchExpressions`, detail: 'must be a list' }],
    },
    {
      name: 'requirement not an object',
      selector: { matchExpressions: ['env'] },
      errors: [{ type: 'FieldValueInvalid', field: `${p}.matchExpressions[0]`, detail: 'must be an object' }],
    },
    {
      name: 'non-string value',
      selector: { matchExpressions: [{ key: 'env', operator: 'In', values: [1] }] },
      errors: [{ type: 'FieldValueInvalid', field: `${p}.matchExpressions[0].values[0]`, detail: 'must be a string' }],
    },
    {
      name: 'several problems at once',
      selector: {
        matchLabels: { '': 'x' },
        matchExpressions: [
          { key: 'a', operator: 'In' },
          { key: 'b', operator: 'Nope' },
        ],
      },
      errors: [
        { type: 'FieldValueInvalid', field: `${p}.matchLabels`, detail: 'name part must be non-empty' },
        { type: 'FieldValueInvalid', field: `${p}.matchLabels`, detail: QNAME_PART_MSG },
        {
          type: 'FieldValueRequired',
          field: `${p}.matchExpressions[0].values`,
          detail: "must be specified when `operator` is 'In' or 'NotIn'",
        },
        {
          type: 'FieldValueInvalid',
          field: `${p}.matchExpressions[1].operator`,
          detail: 'not a valid selector operator',
        },
      ],
    },
  ];
  it.each(cases)('$name', ({ selector, errors }) => {
    const got = validateLabelSelector(selector, p).map((e) => ({
      type: e.type,
      field: e.field,
      ...(e.detail ? { detail: e.detail } : {}),
    }));
    expect(got).toEqual(errors);
  });
});

describe('isSelectorOperator', () => {
  it.each([
    { name: 'In', op: 'In', want: true },
    { name: 'NotIn', op: 'NotIn', want: true },
    { name: 'Exists', op: 'Exists', want: true },
    { name: 'DoesNotExist', op: 'DoesNotExist', want: true },
    { name: 'lowercase', op: 'in', want: false },
    { name: 'number', op: 1, want: false },
  ])('$name', ({ op, want }) => expect(isSelectorOperator(op)).toBe(want));
});
