import { describe, expect, it } from 'vitest';
import {
  duplicate,
  forbidden,
  formatFieldError,
  formatInvalid,
  invalid,
  notSupported,
  required,
  root,
  tooLong,
  tooMany,
  unknownField,
  type FieldError,
} from './field-path.js';

describe('FieldPath', () => {
  it.each([
    { name: 'root', path: root('webhooks'), want: 'webhooks' },
    { name: 'root with children', path: root('metadata', 'name'), want: 'metadata.name' },
    { name: 'index then child', path: root('webhooks').index(0).child('rules'), want: 'webhooks[0].rules' },
    {
      name: 'nested indexes',
      path: root('webhooks').index(2).child('rules').index(1).child('operations').index(0),
      want: 'webhooks[2].rules[1].operations[0]',
    },
    { name: 'key', path: root('metadata', 'annotations').key('a/b'), want: 'metadata.annotations[a/b]' },
    {
      name: 'child with several names',
      path: root('webhooks').index(0).child('clientConfig', 'service', 'port'),
      want: 'webhooks[0].clientConfig.service.port',
    },
  ])('$name', ({ path, want }) => expect(path.toString()).toBe(want));

  it('is immutable', () => {
    const base = root('webhooks');
    base.index(1);
    base.child('x');
    expect(base.toString()).toBe('webhooks');
  });
});

describe('formatFieldError', () => {
  const cases: { name: string; error: FieldError; want: string }[] = [
    {
      name: 'invalid string value with detail',
      error: invalid('webhooks[0].name', 'foo', 'should be a domain with at least three segments separated by dots'),
      want: 'webhooks[0].name: Invalid value: "foo": should be a domain with at least three segments separated by dots',
    },
    {
      name: 'invalid number value',
      error: invalid('webhooks[0].timeoutSeconds', 31, 'the timeout value must be between 1 and 30 seconds'),
      want: 'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
    },
    {
      name: 'invalid string list value',
      error: invalid(
        'webhooks[0].rules[0].operations',
        ['*', 'CREATE'],
        "if '*' is present, must not specify other operations",
      ),
      want: `webhooks[0].rules[0].operations: Invalid value: []string{"*", "CREATE"}: if '*' is present, must not specify other operations`,
    },
    { name: 'invalid null value', error: invalid('x', null, 'bad'), want: 'x: Invalid value: "null": bad' },
    { name: 'invalid boolean', error: invalid('x', true), want: 'x: Invalid value: true' },
    {
      name: 'invalid object value falls back to JSON',
      error: invalid('x', { a: 1 }, 'bad'),
      want: 'x: Invalid value: {"a":1}: bad',
    },
    { name: 'string needing escapes', error: invalid('x', 'a"b\n', 'bad'), want: 'x: Invalid value: "a\\"b\\n": bad' },
    {
      name: 'required without detail',
      error: required('webhooks[0].rules[0].operations'),
      want: 'webhooks[0].rules[0].operations: Required value',
    },
    {
      name: 'required with detail',
      error: required('webhooks[0].sideEffects', 'must specify one of None, NoneOnDryRun'),
      want: 'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
    },
    {
      name: 'not supported lists quoted values',
      error: notSupported('webhooks[0].failurePolicy', 'Maybe', ['Fail', 'Ignore']),
      want: 'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    },
    { name: 'not supported without list', error: notSupported('x', 'y', []), want: 'x: Unsupported value: "y"' },
    {
      name: 'duplicate',
      error: duplicate('webhooks[1].name', 'a.b.c'),
      want: 'webhooks[1].name: Duplicate value: "a.b.c"',
    },
    {
      name: 'forbidden',
      error: forbidden('metadata.namespace', 'not allowed on this type'),
      want: 'metadata.namespace: Forbidden: not allowed on this type',
    },
    {
      name: 'too many',
      error: tooMany('webhooks[0].matchConditions', 65, 64),
      want: 'webhooks[0].matchConditions: Too many: 65: must have at most 64 items',
    },
    { name: 'too many, one item', error: tooMany('x', 2, 1), want: 'x: Too many: 2: must have at most 1 item' },
    {
      name: 'unknown field with a suggestion',
      error: unknownField('admision', 'admission'),
      want: 'admision: Unknown field: did you mean "admission"?',
    },
    { name: 'unknown field without a suggestion', error: unknownField('a.b'), want: 'a.b: Unknown field' },
    { name: 'too long omits the value', error: tooLong('x', 63), want: 'x: Too long: may not be more than 63 bytes' },
    {
      name: 'root-level error has no field prefix',
      error: invalid('', 'a string', 'must be an object'),
      want: 'Invalid value: "a string": must be an object',
    },
  ];
  it.each(cases)('$name', ({ error, want }) => expect(formatFieldError(error)).toBe(want));
});

describe('formatInvalid', () => {
  const a = invalid('webhooks[0].name', 'foo', 'should be a domain with at least three segments separated by dots');
  const b = required('webhooks[0].sideEffects', 'must specify one of None, NoneOnDryRun');
  it.each([
    {
      name: 'no errors',
      errors: [],
      want: 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "x" is invalid',
    },
    {
      name: 'one error',
      errors: [a],
      want: 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "x" is invalid: webhooks[0].name: Invalid value: "foo": should be a domain with at least three segments separated by dots',
    },
    {
      name: 'several errors in brackets',
      errors: [a, b],
      want: `ValidatingWebhookConfiguration.admissionregistration.k8s.io "x" is invalid: [${formatFieldError(a)}, ${formatFieldError(b)}]`,
    },
    {
      name: 'duplicates collapse',
      errors: [a, a],
      want: `ValidatingWebhookConfiguration.admissionregistration.k8s.io "x" is invalid: ${formatFieldError(a)}`,
    },
  ])('$name', ({ errors, want }) =>
    expect(formatInvalid('ValidatingWebhookConfiguration.admissionregistration.k8s.io', 'x', errors)).toBe(want),
  );
});
