import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { JsonValue } from '../types/json.js';
import { diffPatch } from './diff.js';
import { applyPatch, decodePatch, isJsonEqual } from './json-patch.js';

function applyOps(doc: JsonValue, ops: unknown): JsonValue {
  const decoded = decodePatch(JSON.stringify(ops));
  if (!decoded.ok) throw new Error(decoded.error);
  const applied = applyPatch(doc, decoded.value);
  if (!applied.ok) throw new Error(applied.error);
  return applied.value;
}

describe('diffPatch', () => {
  it.each<{ name: string; a: JsonValue; b: JsonValue; want: unknown[] }>([
    { name: 'equal documents give no operations', a: { a: 1, b: [1] }, b: { b: [1], a: 1 }, want: [] },
    {
      name: 'a changed label',
      a: { l: { x: '1' } },
      b: { l: { x: '2' } },
      want: [{ op: 'replace', path: '/l/x', value: '2' }],
    },
    {
      name: 'keys with / and ~ are escaped',
      a: {},
      b: { 'a/b~c': 1 },
      want: [{ op: 'add', path: '/a~1b~0c', value: 1 }],
    },
    { name: 'a removed member', a: { a: 1, b: 2 }, b: { a: 1 }, want: [{ op: 'remove', path: '/b' }] },
  ])('$name', ({ a, b, want }) => {
    expect(diffPatch(a, b)).toEqual(want);
  });

  it('replaces the whole document when the types differ', () => {
    expect(diffPatch({ a: 1 }, [1])).toEqual([{ op: 'replace', path: '', value: [1] }]);
  });

  it('applying the diff to the original gives the final document (property)', () => {
    const doc = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), {
      maxKeys: 5,
    }) as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        const before = JSON.stringify(a);
        const ops = diffPatch(a, b);
        expect(JSON.stringify(a)).toBe(before);
        expect(isJsonEqual(applyOps(a, ops), b)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
