// cel-go's two-variable comprehensions (cel-comprehensions.ts).
import { describe, expect, it } from 'vitest';
import { celEnvironment, celErrorText } from './cel.js';

const object = { labels: { app: 'web', tier: 'frontend' }, ports: [80n, 443n], empty: {} };
const evaluate = (expression: string): unknown =>
  celEnvironment().evaluate(expression, { object, oldObject: null, namespaceObject: null });

describe('two-variable comprehensions (each expression must be true)', () => {
  it.each([
    ['all over a map', "object.labels.all(k, v, k != '' && v != '')"],
    ['all false', "!object.labels.all(k, v, v == 'web')"],
    ['all over a list: index and element', 'object.ports.all(i, p, i < 2 && p > 0)'],
    ['all over an empty map', 'object.empty.all(k, v, false)'],
    ['exists', "object.labels.exists(k, v, k == 'tier' && v == 'frontend')"],
    ['exists none', '!object.ports.exists(i, p, p == 8080)'],
    ['existsOne', "object.labels.existsOne(k, v, v.startsWith('w')) && !object.ports.exists_one(i, p, p > 0)"],
    ['transformList over a list', 'object.ports.transformList(i, p, p + i) == [80, 444]'],
    ['transformList with a filter', 'object.ports.transformList(i, p, i > 0, p) == [443]'],
    ['transformList over a map', "object.labels.transformList(k, v, k + '=' + v).size() == 2"],
    ['transformMap', "object.labels.transformMap(k, v, v + '-x') == {'app': 'web-x', 'tier': 'frontend-x'}"],
    ['transformMap with a filter', "object.labels.transformMap(k, v, k == 'app', v) == {'app': 'web'}"],
    ['transformMapEntry', "object.labels.transformMapEntry(k, v, {v: k}) == {'web': 'app', 'frontend': 'tier'}"],
    ['transformMap over a list: indexes as keys', 'object.ports.transformMap(i, p, p + 1) == {0: 81, 1: 444}'],
    ['false beats an error in all', "!object.labels.all(k, v, k == 'app' ? false : object.missing)"],
    ['true beats an error in exists', "object.labels.exists(k, v, k == 'tier' ? true : object.missing)"],
    ['nested with the one-variable forms', 'object.labels.all(k, v, [1, 2].all(x, x > 0))'],
  ])('%s', (_name, expression) => {
    expect(evaluate(expression)).toBe(true);
  });

  it('an error with no false element is the result', () => {
    let error: unknown;
    try {
      evaluate('object.labels.all(k, v, object.missing)');
    } catch (e) {
      error = e;
    }
    expect(celErrorText(error)).toContain('missing');
  });

  it('transformMapEntry needs a map from its expression', () => {
    expect(() => evaluate('object.ports.transformMapEntry(i, p, [p])')).toThrow(/must produce a map/);
  });

  it('duplicate keys from transformMapEntry are an error', () => {
    expect(() => evaluate("object.labels.transformMapEntry(k, v, {'same': v})")).toThrow(/already exists/);
  });
});
