// Ported from kubernetes/apiserver predicates/object/matcher_test.go (TestObjectSelector) plus §7.
import { describe, expect, it } from 'vitest';
import type { LabelSelector } from '../types/webhook-configuration.js';
import type { JsonValue } from '../types/json.js';
import { compileSelector } from './label-selector.js';
import { matchObjectSelector } from './object-selector.js';

const nodeLevel1 = { kind: 'Node', metadata: { labels: { runlevel: '1' } } };
const nodeLevel2 = { kind: 'Node', metadata: { labels: { runlevel: '2' } } };
const nodeProxyOptions = { kind: 'NodeProxyOptions', apiVersion: 'v1', path: '/' };
const runLevel1Excluder: LabelSelector = { matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['1'] }] };

describe('matchObjectSelector (TestObjectSelector)', () => {
  const cases: [string, LabelSelector | null, JsonValue | undefined, JsonValue | undefined, boolean][] = [
    // name, selector, object, oldObject, expect call
    ['empty object selector matches everything', {}, null, null, true],
    ['matches new object', runLevel1Excluder, nodeLevel2, null, true],
    ['matches old object', runLevel1Excluder, null, nodeLevel2, true],
    ['does not match new object', runLevel1Excluder, nodeLevel1, null, false],
    ['does not match old object', runLevel1Excluder, null, nodeLevel1, false],
    [
      'does not match object that does not implement Object interface',
      runLevel1Excluder,
      nodeProxyOptions,
      null,
      false,
    ],
    [
      'empty selector matches everything, including object that does not implement Object interface',
      {},
      nodeProxyOptions,
      null,
      true,
    ],
    // §7 additions.
    ['object OR oldObject: new fails, old matches', runLevel1Excluder, nodeLevel1, nodeLevel2, true],
    ['object OR oldObject: both fail', runLevel1Excluder, nodeLevel1, nodeLevel1, false],
    ['absent objects (undefined) do not match', runLevel1Excluder, undefined, undefined, false],
    ['object without labels satisfies NotIn', runLevel1Excluder, { metadata: { name: 'x' } }, null, true],
    [
      'object without labels fails Exists',
      { matchExpressions: [{ key: 'runlevel', operator: 'Exists' }] },
      { metadata: {} },
      null,
      false,
    ],
    [
      'non-string label value drops all labels',
      { matchLabels: { runlevel: '2' } },
      { metadata: { labels: { runlevel: '2', n: 3 } } },
      null,
      false,
    ],
    ['null selector matches nothing', null, nodeLevel2, nodeLevel2, false],
  ];
  it.each(cases)('%s', (_name, selector, object, oldObject, want) => {
    expect(matchObjectSelector(compileSelector(selector), { object, oldObject })).toEqual({ matches: want });
  });

  it('an invalid selector is a 500 carrying the parse error', () => {
    const bad = compileSelector({ matchExpressions: [{ key: 'runlevel', operator: 'Between', values: ['1'] }] });
    const result = matchObjectSelector(bad, { object: nodeLevel1, oldObject: null });
    expect(result.matches).toBe(false);
    expect(!result.matches && result.error?.code).toBe(500);
    expect(!result.matches && result.error?.reason).toBe('InternalError');
  });
});
