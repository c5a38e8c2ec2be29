import { describe, expect, it } from 'vitest';
import { FieldReader, joinFieldPath } from './field-reader.js';
import { PluginConfigError } from './plugin-config-error.js';

describe('FieldReader', () => {
  const cases: { name: string; read: (r: FieldReader) => unknown; value: unknown; problems: string[] }[] = [
    { name: 'a string', read: (r) => r.string('x', 'a'), value: 'x', problems: [] },
    { name: 'an absent string', read: (r) => r.string(undefined, 'a'), value: undefined, problems: [] },
    {
      name: 'a number where a string belongs',
      read: (r) => r.string(5, 'a'),
      value: undefined,
      problems: ['a: Invalid value: 5: must be a string'],
    },
    {
      name: 'a mapping with known keys',
      read: (r) => r.object({ a: 1 }, 'm', ['a', 'b']),
      value: { a: 1 },
      problems: [],
    },
    {
      name: 'a mapping with an unknown key',
      read: (r) => r.object({ a: 1, c: 2 }, 'm', ['a', 'b']),
      value: { a: 1, c: 2 },
      problems: ['m.c: Unsupported value: "c": supported values: "a", "b"'],
    },
    {
      name: 'a list where a mapping belongs, at the document root',
      read: (r) => r.object([1], ''),
      value: undefined,
      problems: ['(document): Invalid value: [1]: must be a mapping'],
    },
    {
      name: 'a list of strings with a null and a number',
      read: (r) => r.stringArray(['a', null, 3], 'l'),
      value: ['a'],
      problems: ['l[1]: Required value', 'l[2]: Invalid value: 3: must be a string'],
    },
    {
      name: 'a string where a list belongs',
      read: (r) => r.stringArray('a', 'l'),
      value: undefined,
      problems: ['l: Invalid value: "a": must be a list of strings'],
    },
    {
      name: 'a string map with an unquoted number',
      read: (r) => r.stringMap({ a: 'x', 'example.com/b': 4711 }, 'm'),
      value: { a: 'x' },
      problems: ['m[example.com/b]: Invalid value: 4711: must be a string (quote numbers and booleans in YAML)'],
    },
    {
      name: 'a long value is shortened',
      read: (r) => r.invalid('a', 'x'.repeat(100), 'too long'),
      value: undefined,
      problems: [`a: Invalid value: "${'x'.repeat(76)}...: too long`],
    },
    { name: 'a required value', read: (r) => r.required('a.b'), value: undefined, problems: ['a.b: Required value'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = new FieldReader('demo', 'demo.yaml');
      expect(c.read(r)).toEqual(c.value);
      expect(r.problems).toEqual(c.problems);
    });
  }

  it('fail() throws every problem at once, naming the plugin and the file', () => {
    const r = new FieldReader('demo', 'demo.yaml');
    r.required('a');
    r.invalid('b', 1, 'must be a string');
    expect(() => r.fail()).toThrow(
      new PluginConfigError('demo', 'demo.yaml', ['a: Required value', 'b: Invalid value: 1: must be a string']),
    );
    expect(() => r.fail()).toThrow(
      'demo: invalid configuration in demo.yaml:\n  - a: Required value\n  - b: Invalid value: 1: must be a string',
    );
  });
});

describe('joinFieldPath', () => {
  const cases: { name: string; path: string; key: string; joined: string }[] = [
    { name: 'a plain key at the root', path: '', key: 'rules', joined: 'rules' },
    { name: 'a plain key below', path: 'resources', key: 'requests', joined: 'resources.requests' },
    {
      name: 'a key with a slash is bracketed',
      path: 'kinds',
      key: 'apps/Deployment',
      joined: 'kinds[apps/Deployment]',
    },
    { name: 'a key with a dot at the root is bracketed', path: '', key: 'a.b', joined: '[a.b]' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(joinFieldPath(c.path, c.key)).toBe(c.joined);
    });
  }
});
