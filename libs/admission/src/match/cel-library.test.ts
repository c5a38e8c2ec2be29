// The Kubernetes CEL library functions added on top of cel-js (cel-library.ts).
import { describe, expect, it } from 'vitest';
import { celEnvironment, celErrorText } from './cel.js';
import { celEquals, translateRe2 } from './cel-library.js';

const object = {
  name: 'web-01',
  ports: [80n, 443n, 8080n],
  ratios: [0.5, 1.5],
  words: ['b', 'a', 'b'],
  nested: [[1n], [2n, [3n]]],
  mixed: ['a', 1n],
};
const evaluate = (expression: string): unknown =>
  celEnvironment().evaluate(expression, { object, oldObject: null, namespaceObject: null });

describe('library functions (each expression must be true)', () => {
  it.each([
    ['charAt', "'hello'.charAt(1) == 'e'"],
    ['charAt at the end is empty', "'hi'.charAt(2) == ''"],
    ['charAt counts code points', "'héllo'.charAt(2) == 'l'"],
    ['replace all', "'a-b-c'.replace('-', '+') == 'a+b+c'"],
    ['replace limited', "'a-b-c'.replace('-', '+', 1) == 'a+b-c'"],
    ['replace limit 0', "'a-b'.replace('-', '+', 0) == 'a-b'"],
    ['replace empty pattern', "'ab'.replace('', '-') == '-a-b-'"],
    ['reverse string', "'abc'.reverse() == 'cba'"],
    ['strings.quote', 'strings.quote(\'a\\nb "c"\') == \'"a\\\\nb \\\\"c\\\\""\''],
    [
      'format %s and %d',
      "'%s has %d ports'.format([dyn(object.name), dyn(object.ports.size())]) == 'web-01 has 3 ports'",
    ],
    ['format %s of a list and a map', "'%s %s'.format([dyn([1, 2]), dyn({'b': 2, 'a': 1})]) == '[1, 2] {a: 1, b: 2}'"],
    ['format %f with a precision, %e', "'%.2f %e'.format([3.14159, 1500.0]) == '3.14 1.500000e+03'"],
    [
      'format %b %o %x %X',
      "'%b %o %x %X %x'.format([dyn(5), dyn(8), dyn(255), dyn(255), dyn('hi')]) == '101 10 ff FF 6869'",
    ],
    ['format %%', "'100%% %s'.format(['sure']) == '100% sure'"],
    [
      'format beyond 100 digits of precision',
      "'%.102f'.format([1.5]).size() == 104 && '%.102f'.format([1.5]).startsWith('1.50') && '%.102e'.format([1.5]).endsWith('0e+00')",
    ],
    ['find', "object.name.find('[0-9]+') == '01'"],
    ['find no match', "object.name.find('z+') == ''"],
    ['find with RE2 flag group', "'ABC'.find('(?i)b') == 'B'"],
    ['findAll', "'a1b22c333'.findAll('[0-9]+') == ['1', '22', '333']"],
    ['findAll limited', "'a1b22c333'.findAll('[0-9]+', 2) == ['1', '22']"],
    ['isSorted ints', 'object.ports.isSorted()'],
    ['isSorted strings', '!object.words.isSorted()'],
    ['sum ints', 'object.ports.sum() == 8603'],
    ['sum doubles', 'object.ratios.sum() == 2.0'],
    ['sum empty', '[].sum() == 0'],
    ['min', 'object.ports.min() == 80'],
    ['max', 'object.ports.max() == 8080'],
    ['max strings', "object.words.max() == 'b'"],
    ['indexOf', "object.words.indexOf('b') == 0"],
    ['lastIndexOf', "object.words.lastIndexOf('b') == 2"],
    ['indexOf missing', "object.words.indexOf('z') == -1"],
    ['indexOf compares ints and doubles numerically', 'object.ports.indexOf(443) == 1'],
    ['slice', 'object.ports.slice(1, 3) == [443, 8080]'],
    ['flatten one level', 'object.nested.flatten().size() == 3'],
    ['flatten depth', 'object.nested.flatten(2).size() == 3 && object.nested.flatten(2)[2] == 3'],
    ['distinct', "object.words.distinct() == ['b', 'a']"],
    ['reverse list', "object.words.reverse() == ['b', 'a', 'b']"],
    ['sets.contains', "sets.contains(['a', 'b', 'c'], ['a', 'c'])"],
    ['sets.contains empty', "sets.contains(['a'], [])"],
    ['sets.contains missing', "!sets.contains(['a'], ['b'])"],
    ['sets.equivalent', "sets.equivalent(['a', 'b', 'b'], ['b', 'a'])"],
    ['sets.intersects', "sets.intersects(['a', 'b'], ['c', 'b'])"],
    ['sets.intersects disjoint', "!sets.intersects(['a'], ['b'])"],
    ['built-in lowerAscii', "'ABC'.lowerAscii() == 'abc'"],
    ['built-in split/join', "'a,b'.split(',').join('-') == 'a-b'"],
  ])('%s', (_name, expression) => {
    expect(evaluate(expression)).toBe(true);
  });
});

describe('library functions: evaluation errors', () => {
  it.each([
    ['min of an empty list', '[].min() == 0', 'min called on empty list'],
    ['slice out of range', 'object.ports.slice(1, 9).size() == 0', 'cannot slice(1, 9), list is length 3'],
    ['slice negative', 'object.ports.slice(-1, 1).size() == 0', 'negative indexes not supported'],
    ['charAt out of range', "'hi'.charAt(5) == ''", 'index out of range: 5'],
    ['invalid regex', "'a'.find('(') == ''", 'given regex is invalid: ('],
    ['max of mixed kinds', 'object.mixed.max() == 1', 'no such overload: max'],
    ['sum of mixed kinds (cel-js dispatch)', 'object.mixed.sum() == 1', 'no matching overload'],
  ])('%s', (_name, expression, text) => {
    let message = '';
    try {
      evaluate(expression);
    } catch (error) {
      message = celErrorText(error);
    }
    expect(message).toContain(text);
  });
});

describe('celEquals', () => {
  it.each([
    ['int and double', 1n, 1, true],
    ['strings', 'a', 'a', true],
    ['string and int', '1', 1n, false],
    ['lists', [1n, 'a'], [1n, 'a'], true],
    ['lists differ', [1n], [2n], false],
    ['maps', { a: 1n }, { a: 1 }, true],
    ['maps differ', { a: 1n }, { b: 1n }, false],
    ['map and list', {}, [], false],
    ['bytes', new Uint8Array([1]), new Uint8Array([1]), true],
    ['null', null, null, true],
  ] as [string, unknown, unknown, boolean][])('%s', (_name, a, b, want) => expect(celEquals(a, b)).toBe(want));
});

describe('translateRe2', () => {
  it.each([
    ['flag group', '(?i)abc', 'ABC', true],
    ['several flags', '(?is)a.c', 'A\nC', true],
    ['named group', '(?P<x>a+)', 'aa', true],
    ['\\A anchors at the start', '\\Aab', 'xab', false],
    ['\\z anchors at the very end', 'ab\\z', 'ab\n', false],
    ['plain', 'b', 'abc', true],
  ])('%s', (_name, pattern, input, want) => expect(translateRe2(pattern).test(input)).toBe(want));
});
