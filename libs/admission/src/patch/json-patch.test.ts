import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import jsonPatch from 'fast-json-patch';
import type { JsonValue } from '../types/json.js';
import { applyPatch, decodePatch, isJsonEqual, toPatchOperations } from './json-patch.js';

function apply(doc: JsonValue, patch: string) {
  const decoded = decodePatch(patch);
  if (!decoded.ok) throw new Error(`test patch does not decode: ${decoded.error}`);
  return applyPatch(doc, decoded.value);
}

const pod = (): JsonValue => ({
  metadata: { name: 'p', labels: { app: 'web', tier: 'front' } },
  spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
});

describe('decodePatch (jsonpatch.DecodePatch)', () => {
  it.each([
    { name: 'an array of operations', text: '[{"op":"add","path":"/a","value":1}]', operations: 1 },
    { name: 'an empty array', text: '[]', operations: 0 },
    { name: 'null is an empty patch', text: 'null', operations: 0 },
    { name: 'null elements are kept (they fail to apply)', text: '[null]', operations: 1 },
  ])('decodes $name', ({ text, operations }) => {
    const decoded = decodePatch(text);
    expect(decoded.ok && decoded.value.operations.length).toBe(operations);
  });

  it.each([
    { name: 'truncated', text: '[{', error: 'unexpected end of JSON input' },
    {
      name: 'corrupted key',
      text: '[{"op": "add", "CORRUPTED_KEY":}]',
      error: "invalid character '}' looking for beginning of value",
    },
    {
      name: 'an object',
      text: '{"op":"add"}',
      error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    },
    { name: 'a string', text: '"x"', error: 'json: cannot unmarshal string into Go value of type jsonpatch.Patch' },
    { name: 'a number', text: '1', error: 'json: cannot unmarshal number into Go value of type jsonpatch.Patch' },
    { name: 'a bool', text: 'true', error: 'json: cannot unmarshal bool into Go value of type jsonpatch.Patch' },
    {
      name: 'a string element',
      text: '[{"op":"add"},"x",1]',
      error: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation',
    },
    {
      name: 'an array element',
      text: '[[]]',
      error: 'json: cannot unmarshal array into Go value of type jsonpatch.Operation',
    },
  ])('refuses $name', ({ text, error }) => {
    expect(decodePatch(text)).toEqual({ ok: false, error });
  });

  it('keeps raw member texts, last duplicate wins', () => {
    const decoded = decodePatch('[ {"op" : "add", "path":"/a", "value" : { "z":1.0, "a":[ ] }, "path":"/b"} ]');
    expect(decoded.ok && [...(decoded.value.operations[0] ?? new Map())]).toEqual([
      ['op', '"add"'],
      ['path', '"/b"'],
      ['value', '{ "z":1.0, "a":[ ] }'],
    ]);
    expect(decoded.ok && toPatchOperations(decoded.value)).toEqual([{ op: 'add', path: '/b', value: { z: 1, a: [] } }]);
  });
});

describe('applyPatch: evanphx/json-patch v4 semantics', () => {
  const ok = (value: JsonValue) => ({ ok: true, value });
  const fail = (error: string) => ({ ok: false, error });
  const labels = (extra: Record<string, string>, without: string[] = []) => {
    const l: Record<string, string> = { app: 'web', tier: 'front', ...extra };
    for (const k of without) delete l[k];
    return { ...(pod() as Record<string, JsonValue>), metadata: { name: 'p', labels: l } };
  };
  const containers = (names: string[]) => ({
    ...(pod() as Record<string, JsonValue>),
    spec: { containers: names.map((name) => ({ name })) },
  });

  it.each([
    {
      name: 'add a member',
      patch: '[{"op":"add","path":"/metadata/labels/x","value":"1"}]',
      want: ok(labels({ x: '1' })),
    },
    {
      name: 'add replaces an existing member',
      patch: '[{"op":"add","path":"/metadata/labels/app","value":"db"}]',
      want: ok(labels({ app: 'db' })),
    },
    {
      name: 'add without value adds null',
      patch: '[{"op":"add","path":"/metadata/x"}]',
      want: ok({ ...(pod() as object), metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, x: null } }),
    },
    {
      name: 'replace of a missing member acts as add',
      patch: '[{"op":"replace","path":"/metadata/labels/x","value":"1"}]',
      want: ok(labels({ x: '1' })),
    },
    {
      name: 'replace an existing member',
      patch: '[{"op":"replace","path":"/metadata/labels/app","value":"db"}]',
      want: ok(labels({ app: 'db' })),
    },
    {
      name: 'remove a member',
      patch: '[{"op":"remove","path":"/metadata/labels/tier"}]',
      want: ok(labels({}, ['tier'])),
    },
    {
      name: 'escaped pointer tokens',
      patch: '[{"op":"add","path":"/metadata/labels/a~1b~0c","value":"1"}]',
      want: ok(labels({ 'a/b~c': '1' })),
    },
    {
      name: '~01 decodes to ~1, not /',
      patch: '[{"op":"add","path":"/metadata/labels/~01","value":"1"}]',
      want: ok(labels({ '~1': '1' })),
    },
    {
      name: 'text before the first slash is ignored',
      patch: '[{"op":"add","path":"junk/x","value":"1"}]',
      want: ok({ ...(pod() as object), x: '1' }),
    },
    {
      name: 'append with -',
      patch: '[{"op":"add","path":"/spec/containers/-","value":{"name":"d"}}]',
      want: ok(containers(['a', 'b', 'c', 'd'])),
    },
    {
      name: 'insert at an index',
      patch: '[{"op":"add","path":"/spec/containers/1","value":{"name":"x"}}]',
      want: ok(containers(['a', 'x', 'b', 'c'])),
    },
    {
      name: 'insert at the end index',
      patch: '[{"op":"add","path":"/spec/containers/3","value":{"name":"x"}}]',
      want: ok(containers(['a', 'b', 'c', 'x'])),
    },
    {
      name: 'add at -1 appends',
      patch: '[{"op":"add","path":"/spec/containers/-1","value":{"name":"x"}}]',
      want: ok(containers(['a', 'b', 'c', 'x'])),
    },
    {
      name: 'remove at -1 removes the last',
      patch: '[{"op":"remove","path":"/spec/containers/-1"}]',
      want: ok(containers(['a', 'b'])),
    },
    {
      name: 'replace at -3 replaces the first',
      patch: '[{"op":"replace","path":"/spec/containers/-3","value":{"name":"x"}}]',
      want: ok(containers(['x', 'b', 'c'])),
    },
    {
      name: 'leading + and zeros in an index',
      patch: '[{"op":"remove","path":"/spec/containers/+01"}]',
      want: ok(containers(['a', 'c'])),
    },
    {
      name: 'traverse with a negative index',
      patch: '[{"op":"add","path":"/spec/containers/-1/image","value":"i"}]',
      want: ok({
        ...(pod() as object),
        spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c', image: 'i' }] },
      }),
    },
    {
      name: 'move',
      patch: '[{"op":"move","from":"/metadata/labels/app","path":"/metadata/name"}]',
      want: ok({ ...(pod() as object), metadata: { name: 'web', labels: { tier: 'front' } } }),
    },
    {
      name: 'copy',
      patch: '[{"op":"copy","from":"/metadata/labels","path":"/metadata/annotations"}]',
      want: ok({
        ...(pod() as object),
        metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, annotations: { app: 'web', tier: 'front' } },
      }),
    },
    {
      name: 'copy of a missing member adds null',
      patch: '[{"op":"copy","from":"/metadata/nope","path":"/metadata/x"}]',
      want: ok({ ...(pod() as object), metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, x: null } }),
    },
    {
      name: 'test that passes',
      patch: '[{"op":"test","path":"/metadata/labels","value":{"tier":"front","app":"web"}}]',
      want: ok(pod()),
    },
    {
      name: 'test a missing member against null passes',
      patch: '[{"op":"test","path":"/metadata/nope","value":null}]',
      want: ok(pod()),
    },
    {
      name: 'test the whole document',
      patch: `[{"op":"test","path":"","value":${JSON.stringify(pod())}}]`,
      want: ok(pod()),
    },
    { name: 'replace the whole document', patch: '[{"op":"replace","path":"","value":{"a":1}}]', want: ok({ a: 1 }) },
    { name: 'an empty patch', patch: '[]', want: ok(pod()) },
    // where fast-json-patch alone would differ: member names it inherits, v4's index and nil rules
    {
      name: 'replace of a missing member named like an Object method acts as add',
      patch: '[{"op":"replace","path":"/metadata/toString","value":"1"}]',
      want: ok({ ...(pod() as object), metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, toString: '1' } }),
    },
    {
      name: 'test of a value with a hasOwnProperty member',
      patch:
        '[{"op":"add","path":"/metadata/hasOwnProperty","value":{"hasOwnProperty":1}},{"op":"test","path":"/metadata/hasOwnProperty","value":{"hasOwnProperty":1}}]',
      want: ok({
        ...(pod() as object),
        metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, hasOwnProperty: { hasOwnProperty: 1 } },
      }),
    },
    {
      name: 'a null member tests equal to null and to an absent value',
      patch:
        '[{"op":"add","path":"/metadata/n","value":null},{"op":"test","path":"/metadata/n","value":null},{"op":"test","path":"/metadata/n"}]',
      want: ok({ ...(pod() as object), metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, n: null } }),
    },
    {
      name: 'move resolves -1 after the removal',
      patch: '[{"op":"move","from":"/spec/containers/0","path":"/spec/containers/-1"}]',
      want: ok(containers(['b', 'c', 'a'])),
    },
    {
      name: 'copy from a negative index',
      patch: '[{"op":"copy","from":"/spec/containers/-1","path":"/spec/containers/0"}]',
      want: ok(containers(['c', 'a', 'b', 'c'])),
    },
    {
      name: 'move onto itself',
      patch: '[{"op":"move","from":"/metadata/name","path":"/metadata/name"}]',
      want: ok(pod()),
    },
    // failures
    {
      name: 'remove of a missing member',
      patch: '[{"op":"remove","path":"/metadata/labels/x"}]',
      want: fail("error in remove for path: '/metadata/labels/x': Unable to remove nonexistent key: x: missing value"),
    },
    {
      name: 'add under a missing parent',
      patch: '[{"op":"add","path":"/metadata/annotations/x","value":"1"}]',
      want: fail('add operation does not apply: doc is missing path: "/metadata/annotations/x": missing value'),
    },
    {
      name: 'add with an empty path',
      patch: '[{"op":"add","path":"","value":{}}]',
      want: fail('add operation does not apply: doc is missing path: "": missing value'),
    },
    {
      name: 'add past the end',
      patch: '[{"op":"add","path":"/spec/containers/4","value":1}]',
      want: fail(
        "error in add for path: '/spec/containers/4': Unable to access invalid index: 4: invalid index referenced",
      ),
    },
    {
      name: 'add before the start',
      patch: '[{"op":"add","path":"/spec/containers/-5","value":1}]',
      want: fail(
        "error in add for path: '/spec/containers/-5': Unable to access invalid index: -5: invalid index referenced",
      ),
    },
    {
      name: 'add at a non-numeric index',
      patch: '[{"op":"add","path":"/spec/containers/x","value":1}]',
      want: fail(
        `error in add for path: '/spec/containers/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
      ),
    },
    {
      name: 'an index out of int64 range',
      patch: '[{"op":"remove","path":"/spec/containers/99999999999999999999"}]',
      want: fail(
        `error in remove for path: '/spec/containers/99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
      ),
    },
    {
      name: 'replace of a missing array index',
      patch: '[{"op":"replace","path":"/spec/containers/3","value":1}]',
      want: fail('replace operation does not apply: doc is missing key: /spec/containers/3: missing value'),
    },
    {
      name: 'replace under a missing parent',
      patch: '[{"op":"replace","path":"/nope/x","value":1}]',
      want: fail('replace operation does not apply: doc is missing path: /nope/x: missing value'),
    },
    {
      name: 'replace the document with a scalar',
      patch: '[{"op":"replace","path":"","value":1}]',
      want: fail('replace operation value must be object or array: %!w(<nil>)'),
    },
    {
      name: 'remove past the end',
      patch: '[{"op":"remove","path":"/spec/containers/3"}]',
      want: fail(
        "error in remove for path: '/spec/containers/3': Unable to access invalid index: 3: invalid index referenced",
      ),
    },
    {
      name: 'traverse through a string',
      patch: '[{"op":"add","path":"/metadata/name/x","value":1}]',
      want: fail('add operation does not apply: doc is missing path: "/metadata/name/x": missing value'),
    },
    {
      name: 'test that fails',
      patch: '[{"op":"test","path":"/metadata/name","value":"q"}]',
      want: fail('testing value /metadata/name failed: test failed'),
    },
    {
      name: 'test without a value',
      patch: '[{"op":"test","path":"/metadata/name"}]',
      want: fail('testing value /metadata/name failed: test failed'),
    },
    {
      name: 'test of a missing path',
      patch: '[{"op":"test","path":"/nope/x","value":1}]',
      want: fail('test operation does not apply: is missing path: /nope/x: missing value'),
    },
    {
      name: 'move from a missing member',
      patch: '[{"op":"move","from":"/metadata/nope","path":"/metadata/x"}]',
      want: fail("error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value"),
    },
    {
      name: 'move into its own child',
      patch: '[{"op":"move","from":"/metadata","path":"/metadata/labels/x"}]',
      want: fail('move operation does not apply: doc is missing destination path: /metadata/labels/x: missing value'),
    },
    {
      name: 'remove of a missing member named like an Object method',
      patch: '[{"op":"remove","path":"/metadata/constructor"}]',
      want: fail(
        "error in remove for path: '/metadata/constructor': Unable to remove nonexistent key: constructor: missing value",
      ),
    },
    {
      name: 'remove before the start',
      patch: '[{"op":"remove","path":"/spec/containers/-4"}]',
      want: fail(
        "error in remove for path: '/spec/containers/-4': Unable to access invalid index: -4: invalid index referenced",
      ),
    },
    {
      name: 'move to an index that is gone after the removal',
      patch: '[{"op":"move","from":"/spec/containers/0","path":"/spec/containers/3"}]',
      want: fail(
        "error in move for path: '/spec/containers/3': Unable to access invalid index: 3: invalid index referenced",
      ),
    },
    {
      name: 'move from past the end names the key',
      patch: '[{"op":"move","from":"/spec/containers/9","path":"/y"}]',
      want: fail("error in move for path: '9': Unable to access invalid index: 9: invalid index referenced"),
    },
    {
      name: 'move to the document root',
      patch: '[{"op":"move","from":"/metadata/name","path":""}]',
      want: fail('move operation does not apply: doc is missing destination path: : missing value'),
    },
    {
      name: 'copy from a non-numeric index',
      patch: '[{"op":"copy","from":"/spec/containers/x","path":"/y"}]',
      want: fail(`error in copy for from: '/spec/containers/x': strconv.Atoi: parsing "x": invalid syntax`),
    },
    {
      name: 'test at a non-numeric index',
      patch: '[{"op":"test","path":"/spec/containers/x","value":1}]',
      want: fail(`error in test for path: '/spec/containers/x': strconv.Atoi: parsing "x": invalid syntax`),
    },
    {
      name: 'replace at a non-numeric index',
      patch: '[{"op":"replace","path":"/spec/containers/x","value":1}]',
      want: fail('replace operation does not apply: doc is missing key: /spec/containers/x: missing value'),
    },
    {
      name: 'add at an index out of int64 range',
      patch: '[{"op":"add","path":"/spec/containers/99999999999999999999","value":1}]',
      want: fail(
        `error in add for path: '/spec/containers/99999999999999999999': value was not a proper array index: '99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
      ),
    },
    {
      name: 'copy without from',
      patch: '[{"op":"copy","path":"/x"}]',
      want: fail('copy operation failed to decode from: operation, missing from field: missing value'),
    },
    { name: 'unknown op', patch: '[{"op":"merge","path":"/x"}]', want: fail('Unexpected kind: merge') },
    { name: 'op not a string', patch: '[{"op":1,"path":"/x"}]', want: fail('Unexpected kind: unknown') },
    { name: 'null operation', patch: '[null]', want: fail('Unexpected kind: unknown') },
    {
      name: 'add without path',
      patch: '[{"op":"add","value":1}]',
      want: fail('add operation failed to decode path: missing value'),
    },
    {
      name: 'replace without path',
      patch: '[{"op":"replace","value":1}]',
      want: fail('replace operation failed to decode path: operation missing path field: missing value'),
    },
    {
      name: 'replace with a numeric path',
      patch: '[{"op":"replace","path":5,"value":1}]',
      want: fail('replace operation failed to decode path: json: cannot unmarshal number into Go value of type string'),
    },
    {
      name: 'the first failure stops the patch',
      patch: '[{"op":"remove","path":"/nope"},{"op":"add","path":"/x","value":1}]',
      want: fail("error in remove for path: '/nope': Unable to remove nonexistent key: nope: missing value"),
    },
  ])('$name', ({ patch, want }) => {
    expect(apply(pod(), patch)).toEqual(want);
  });

  it('refuses a document that is not an object or array', () => {
    expect(applyPatch('text', { operations: [] })).toEqual({
      ok: false,
      error: 'json: cannot unmarshal string into Go value of type jsonpatch.partialDoc',
    });
  });

  it('sets __proto__ as a plain member, never as a prototype', () => {
    const result = apply({}, '[{"op":"add","path":"/__proto__","value":{"polluted":true}}]');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
  });

  it('keeps __proto__ a member inside a copied object too', () => {
    const result = apply(
      pod(),
      '[{"op":"copy","from":"/metadata/labels","path":"/metadata/annotations"},{"op":"add","path":"/metadata/annotations/__proto__","value":{"x":1}}]',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const annotations = (result.value as { metadata: { annotations: object } }).metadata.annotations;
    expect(Object.keys(annotations)).toEqual(['app', 'tier', '__proto__']);
    expect(Object.getPrototypeOf(annotations)).toBe(Object.prototype);
  });

  it('copies on write: the patched path is new, untouched members are shared with the input', () => {
    type Pod = { metadata: { labels: object; name: string }; spec: { containers: object[] } };
    const input = pod();
    const doc = input as unknown as Pod;
    const result = apply(input, '[{"op":"add","path":"/metadata/labels/team","value":"core"}]');
    if (!result.ok) throw new Error(result.error);
    const out = result.value as unknown as Pod;
    expect(out).not.toBe(doc);
    expect(out.metadata).not.toBe(doc.metadata);
    expect(out.metadata.labels).toEqual({ app: 'web', tier: 'front', team: 'core' });
    expect(doc.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(out.spec).toBe(doc.spec);
  });

  it.each([
    {
      name: 'a later operation inside a value an earlier one added',
      patch: '[{"op":"add","path":"/x","value":{"a":1}},{"op":"add","path":"/x/b","value":2}]',
      want: { a: 1, b: 2 },
    },
    {
      name: 'a copied value changed after the copy',
      patch: '[{"op":"copy","from":"/metadata/labels","path":"/x"},{"op":"add","path":"/x/c","value":"3"}]',
      want: { app: 'web', tier: 'front', c: '3' },
    },
  ])('copies on write with $name, leaving the input alone', ({ patch, want }) => {
    const doc = pod();
    const before = JSON.stringify(doc);
    const result = apply(doc, patch);
    if (!result.ok) throw new Error(result.error);
    expect((result.value as { x: unknown }).x).toEqual(want);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('never modifies the document it is given', () => {
    const doc = pod();
    const before = JSON.stringify(doc);
    apply(doc, '[{"op":"remove","path":"/metadata/labels/app"},{"op":"add","path":"/spec/containers/0","value":{}}]');
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe('properties', () => {
  const pointer = fc
    .array(
      fc.oneof(
        fc.constantFrom('metadata', 'labels', 'spec', 'containers', '0', '-1', '-', '~1', 'x', '99'),
        fc.string({ maxLength: 4 }),
      ),
      { maxLength: 4 },
    )
    .map((parts) => (parts.length === 0 ? '' : '/' + parts.join('/')));
  const operation = fc.record(
    {
      op: fc.oneof(
        fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'),
        fc.string({ maxLength: 5 }),
        fc.integer(),
      ),
      path: fc.oneof(pointer, fc.integer(), fc.constant(null)),
      from: pointer,
      value: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  );
  const document = fc.oneof(
    fc.constant(pod()),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }), {
      maxKeys: 4,
    }) as fc.Arbitrary<JsonValue>,
  );

  it('decoding never throws and every failure has a message', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.array(operation).map((ops) => JSON.stringify(ops)),
        ),
        (text) => {
          const decoded = decodePatch(text);
          if (!decoded.ok) expect(decoded.error.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('applying never throws, never mutates its input, and every failure has a message', () => {
    fc.assert(
      fc.property(document, fc.array(operation, { maxLength: 5 }), (doc, ops) => {
        const decoded = decodePatch(JSON.stringify(ops));
        expect(decoded.ok).toBe(true);
        if (!decoded.ok) return;
        const before = JSON.stringify(doc);
        const result = applyPatch(doc, decoded.value);
        expect(JSON.stringify(doc)).toBe(before);
        if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
        else expect(() => JSON.stringify(result.value)).not.toThrow();
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with fast-json-patch wherever RFC 6902 applies the patch', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        rfcDocument.chain((doc) => fc.tuple(fc.constant(doc), rfcPatch(doc))),
        ([doc, ops]) => {
          const expected = applyWithLibrary(doc, ops);
          if (expected === undefined) return;
          compared++;
          const decoded = decodePatch(JSON.stringify(ops));
          expect(decoded.ok && applyPatch(doc, decoded.value)).toEqual({ ok: true, value: expected });
        },
      ),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(0);
  });

  it('isJsonEqual ignores member order and is reflexive', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        const v = value as JsonValue;
        const reordered = JSON.parse(
          JSON.stringify(v, (_k, x: unknown) =>
            x !== null && typeof x === 'object' && !Array.isArray(x)
              ? Object.fromEntries(Object.entries(x).reverse())
              : x,
          ),
        ) as JsonValue;
        expect(isJsonEqual(v, reordered)).toBe(true);
      }),
    );
  });
});

// --- RFC 6902 patches for the comparison with fast-json-patch ---

type Op = Record<string, JsonValue>;

// Keys no Object member shares (fast-json-patch reads members through the prototype), with ~ and / to
// escape; no '' (fast-json-patch reads an empty token as array index 0).
const rfcKey = fc.constantFrom('a', 'b', 'c', '~', '/', 'a~1');
const rfcValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<JsonValue>(null, true, 0, 7, 'a', 'b'),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(rfcKey, tie('value'), { maxKeys: 3 }),
  ),
})).value as fc.Arbitrary<JsonValue>;
const rfcDocument = fc.dictionary(rfcKey, rfcValue, { maxKeys: 4 }) as fc.Arbitrary<JsonValue>;

/** Every member of `value` as [pointer, member value, whether its container is an array]. */
function membersOf(value: JsonValue, at = ''): Array<[string, JsonValue, boolean]> {
  if (value === null || typeof value !== 'object') return [];
  const entries: Array<[string, JsonValue]> = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  return entries.flatMap(([key, member]) => {
    const pointer = `${at}/${jsonPatch.escapePathComponent(key)}`;
    return [[pointer, member, Array.isArray(value)] as [string, JsonValue, boolean], ...membersOf(member, pointer)];
  });
}

/** Up to three operations on paths that exist in `doc` or could be added to it (never the root). */
function rfcPatch(doc: JsonValue): fc.Arbitrary<Op[]> {
  const members = membersOf(doc);
  const containers = ['', ...members.filter(([, v]) => v !== null && typeof v === 'object').map(([p]) => p)];
  // Targets without an array index: fast-json-patch lets copy and move insert past an array's end.
  const slots = [
    ...members.filter(([, , inArray]) => !inArray).map(([p]) => p),
    ...containers.flatMap((c) => [`${c}/-`, `${c}/a`]),
  ];
  const paths = [...members.map(([p]) => p), ...slots, ...containers.map((c) => `${c}/0`)];
  const value = fc.oneof(rfcValue, fc.constantFrom(...members.map(([, v]) => v), null));
  const from = fc.constantFrom(...paths);
  return fc.array(
    fc.oneof(
      fc.record({ op: fc.constantFrom('add', 'replace', 'test'), path: fc.constantFrom(...paths), value }),
      fc.record({ op: fc.constant('remove'), path: fc.constantFrom(...paths) }),
      fc.record({ op: fc.constantFrom('move', 'copy'), from, path: fc.constantFrom(...slots) }),
    ),
    { minLength: 1, maxLength: 3 },
  );
}

/** fast-json-patch's result with validation on, or undefined where it or RFC 6902 refuses the patch. */
function applyWithLibrary(doc: JsonValue, ops: Op[]): JsonValue | undefined {
  // RFC 6902 §4.4: a move is a remove, then an add in what is left. fast-json-patch resolves `path`
  // before the removal, so leave out moves whose removal changes what `path` addresses.
  if (ops.some((op) => op['op'] === 'move' && isShiftedByRemoval(String(op['from']), String(op['path']))))
    return undefined;
  try {
    return jsonPatch.applyPatch(JSON.parse(JSON.stringify(doc)), JSON.parse(JSON.stringify(ops)), true)
      .newDocument as JsonValue;
  } catch {
    return undefined;
  }
}

/** Removing `from` makes `path` address something else: it lies inside `from`, or after it in the same array. */
function isShiftedByRemoval(from: string, path: string): boolean {
  const parent = from.slice(0, from.lastIndexOf('/'));
  return path.startsWith(`${from}/`) || (/\/\d+$/.test(from) && path.startsWith(`${parent}/`));
}
