import { describe, expect, it } from 'vitest';
import { formatFieldError, formatFieldErrorShort, invalid } from './field-path.js';
import { FieldReader } from './field-reader.js';

/** Reads `document` with `read`, then finishes the root: what it returned and every error's text. */
function readWith(document: unknown, read: (r: FieldReader) => unknown): { value: unknown; errors: string[] } {
  const r = FieldReader.of(document);
  const value = read(r);
  r.finish();
  return { value, errors: r.errors().map(formatFieldError) };
}

describe('FieldReader', () => {
  const cases: { name: string; doc: unknown; read: (r: FieldReader) => unknown; value: unknown; errors: string[] }[] = [
    { name: 'a string', doc: { a: 'x' }, read: (r) => r.string('a'), value: 'x', errors: [] },
    { name: 'an absent string takes the fallback', doc: {}, read: (r) => r.string('a', 'd'), value: 'd', errors: [] },
    { name: 'null counts as absent', doc: { a: null }, read: (r) => r.string('a', 'd'), value: 'd', errors: [] },
    {
      name: 'a number where a string belongs',
      doc: { a: 5 },
      read: (r) => r.string('a'),
      value: undefined,
      errors: ['a: Invalid value: 5: must be a string'],
    },
    {
      name: 'an empty string is refused',
      doc: { a: '' },
      read: (r) => r.string('a'),
      value: undefined,
      errors: ['a: Invalid value: "": must be non-empty'],
    },
    {
      name: 'an empty string where allowed',
      doc: { a: '' },
      read: (r) => r.string('a', 'd', { allowEmpty: true }),
      value: '',
      errors: [],
    },
    {
      name: 'a required string, absent',
      doc: {},
      read: (r) => r.requiredString('a'),
      value: undefined,
      errors: ['a: Required value'],
    },
    {
      name: 'a required string of the wrong type is only invalid',
      doc: { a: [1] },
      read: (r) => r.requiredString('a'),
      value: undefined,
      errors: ['a: Invalid value: [1]: must be a string'],
    },
    {
      name: 'an integer out of range',
      doc: { o: { port: 70000 } },
      read: (r) => {
        const o = r.object('o');
        const port = o.int('port', 1, { min: 0, max: 65535 });
        o.finish();
        return port;
      },
      value: 1,
      errors: ['o.port: Invalid value: 70000: must be between 0 and 65535, inclusive'],
    },
    {
      name: 'a boolean',
      doc: { b: 'yes' },
      read: (r) => r.bool('b', false),
      value: false,
      errors: ['b: Invalid value: "yes": must be true or false'],
    },
    {
      name: 'one of a set',
      doc: { m: 'x' },
      read: (r) => r.oneOf('m', ['a', 'b'], 'a'),
      value: 'a',
      errors: ['m: Unsupported value: "x": supported values: "a", "b"'],
    },
    {
      name: 'a section with an unknown key, suggesting the known one',
      doc: { m: { a: 1, b: 2 } },
      read: (r) => {
        const m = r.object('m');
        const a = m.raw('a');
        m.raw('abc');
        m.finish();
        return a;
      },
      value: 1,
      errors: ['m.b: Unknown field: did you mean "a"?'],
    },
    {
      name: 'an unknown key with no close match',
      doc: { metrics: { scrapeInterval: '5s' } },
      read: (r) => r.object('metrics').finish(),
      value: undefined,
      errors: ['metrics.scrapeInterval: Unknown field'],
    },
    {
      name: 'a list where a mapping belongs, at the document root',
      doc: [1],
      read: () => undefined,
      value: undefined,
      errors: ['Invalid value: [1]: must be an object'],
    },
    {
      name: 'a list of strings with a null and a number',
      doc: { l: ['a', null, 3] },
      read: (r) => r.stringList('l'),
      value: ['a'],
      errors: ['l[1]: Required value', 'l[2]: Invalid value: 3: must be a string'],
    },
    {
      name: 'a string where a list of strings belongs',
      doc: { l: 'a' },
      read: (r) => r.stringList('l'),
      value: undefined,
      errors: ['l: Invalid value: "a": must be a list of strings'],
    },
    { name: 'an absent list of strings', doc: {}, read: (r) => r.stringList('l'), value: undefined, errors: [] },
    {
      name: 'a string map with an unquoted number',
      doc: { m: { a: 'x', 'example.com/b': 4711 } },
      read: (r) => r.stringMap('m'),
      value: { a: 'x' },
      errors: ['m[example.com/b]: Invalid value: 4711: must be a string (quote numbers and booleans in YAML)'],
    },
    {
      name: 'a map key with dots is bracketed; a field below a section is dotted',
      doc: { resources: { requests: { 'a.b': 1 } } },
      read: (r) => {
        const resources = r.object('resources');
        const requests = resources.stringMap('requests');
        resources.finish();
        return requests;
      },
      value: {},
      errors: ['resources.requests[a.b]: Invalid value: 1: must be a string (quote numbers and booleans in YAML)'],
    },
    {
      name: 'a string map that is a list',
      doc: { m: [] },
      read: (r) => r.stringMap('m'),
      value: undefined,
      errors: ['m: Invalid value: []string{}: must be an object'],
    },
    {
      name: 'a map of sections with arbitrary keys',
      doc: { kinds: { 'apps/Deployment': ['spec.x', 5], ConfigMap: 'data' } },
      read: (r) => {
        const kinds = r.map('kinds');
        return kinds.keys().map((k) => kinds.stringList(k));
      },
      value: [['spec.x'], undefined],
      errors: [
        'kinds[apps/Deployment][1]: Invalid value: 5: must be a string',
        'kinds[ConfigMap]: Invalid value: "data": must be a list of strings',
      ],
    },
    {
      name: 'list items as sections',
      doc: { plugins: [{ name: 'a', extra: 1 }, null, 'x'] },
      read: (r) =>
        r.items('plugins', (p) => {
          const name = p.requiredString('name');
          p.finish();
          return name;
        }),
      value: ['a', undefined, undefined],
      errors: [
        'plugins[0].extra: Unknown field',
        'plugins[1].name: Required value',
        'plugins[2]: Invalid value: "x": must be an object',
        'plugins[2].name: Required value',
      ],
    },
    {
      name: 'list items as maps with arbitrary keys',
      doc: { crds: [{ 'vpcs.example.com/v1': { paths: 1 } }] },
      read: (r) =>
        r.mapItems('crds', (item) =>
          item.keys().map((key) => {
            const spec = item.object(key);
            spec.finish();
          }),
        ),
      value: [[undefined]],
      errors: ['crds[0][vpcs.example.com/v1].paths: Unknown field'],
    },
    {
      name: 'reports at any path, and at the section itself',
      doc: { a: { b: 1 } },
      read: (r) => {
        const a = r.object('a');
        a.invalid('b', 1, 'too small');
        a.required(a.path);
        a.notSupported(a.path.child('c').index(0), 'x', ['y']);
        return a.has('b');
      },
      value: true,
      errors: [
        'a.b: Invalid value: 1: too small',
        'a: Required value',
        'a.c[0]: Unsupported value: "x": supported values: "y"',
      ],
    },
  ];
  it.each(cases)('$name', ({ doc, read, value, errors }) => {
    expect(readWith(doc, read)).toEqual({ value, errors });
  });

  it('reads own keys only: inherited members are absent, a key named __proto__ is data', () => {
    const doc = JSON.parse('{"__proto__": {"team": "a"}, "labels": {"__proto__": "x", "team": "b"}}') as unknown;
    const { value, errors } = readWith(doc, (r) => ({
      proto: r.stringMap('__proto__'),
      labels: r.stringMap('labels'),
      constructor: r.raw('constructor'),
      toString: r.string('toString'),
    }));
    expect(errors).toEqual([]);
    const read = value as Record<string, Record<string, string> | undefined>;
    expect(read['constructor']).toBeUndefined();
    expect(read['toString']).toBeUndefined();
    expect(read['proto']).toEqual({ team: 'a' });
    expect(Object.getPrototypeOf(read['labels'])).toBe(Object.prototype);
    expect(Object.entries(read['labels']!)).toEqual([
      ['__proto__', 'x'],
      ['team', 'b'],
    ]);
  });

  it('an unread __proto__ key is an unknown field, not skipped', () => {
    const doc = JSON.parse('{"__proto__": {"a": 1}}') as unknown;
    expect(readWith(doc, () => undefined).errors).toEqual(['__proto__: Unknown field']);
  });

  it('finish() reports once', () => {
    const r = FieldReader.of({ typo: 1 });
    r.finish();
    r.finish();
    expect(r.errors().map(formatFieldError)).toEqual(['typo: Unknown field']);
  });
});

describe('formatFieldErrorShort', () => {
  it('shortens a long value so the line stays readable', () => {
    expect(formatFieldErrorShort(invalid('a', 'x'.repeat(100), 'too long'))).toBe(
      `a: Invalid value: "${'x'.repeat(76)}...: too long`,
    );
  });

  it('leaves a short value as formatFieldError renders it', () => {
    const e = invalid('l', ['shop'], 'must be empty');
    expect(formatFieldErrorShort(e)).toBe(formatFieldError(e));
    expect(formatFieldErrorShort(e)).toBe('l: Invalid value: []string{"shop"}: must be empty');
  });
});
