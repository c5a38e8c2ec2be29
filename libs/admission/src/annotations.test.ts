import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AuditAnnotations,
  decodeApiserverAnnotationKey,
  encodeAnnotationKey,
  encodeAnnotationsForApiserver,
  failedOpenMutationKey,
  failedOpenValidatingKey,
  isValidAnnotationKey,
  mutationAnnotationKey,
  mutationAnnotationValue,
  patchAnnotationKey,
  patchAnnotationValue,
} from './annotations.js';
import { decodePatch } from './patch/json-patch.js';

const decoded = (text: string) => {
  const d = decodePatch(text);
  if (!d.ok) throw new Error(d.error);
  return d.value;
};

describe('system keys and values', () => {
  it('words the keys like the apiserver', () => {
    expect([
      mutationAnnotationKey(0, 1),
      patchAnnotationKey(1, 0),
      failedOpenMutationKey(0, 2),
      failedOpenValidatingKey(3),
    ]).toEqual([
      'mutation.webhook.admission.k8s.io/round_0_index_1',
      'patch.webhook.admission.k8s.io/round_1_index_0',
      'failed-open.mutation.webhook.admission.k8s.io/round_0_index_2',
      'failed-open.validating.webhook.admission.k8s.io/round_0_index_3',
    ]);
  });

  it.each([
    {
      name: 'mutated',
      cfg: 'cfg',
      hook: 'a.b.c',
      mutated: true,
      want: '{"configuration":"cfg","webhook":"a.b.c","mutated":true}',
    },
    {
      name: 'not mutated',
      cfg: 'cfg',
      hook: 'a.b.c',
      mutated: false,
      want: '{"configuration":"cfg","webhook":"a.b.c","mutated":false}',
    },
    {
      name: 'HTML-safe like Go',
      cfg: 'a<b',
      hook: 'x&y',
      mutated: false,
      want: '{"configuration":"a\\u003cb","webhook":"x\\u0026y","mutated":false}',
    },
  ])('mutation value: $name', ({ cfg, hook, mutated, want }) => {
    expect(mutationAnnotationValue(cfg, hook, mutated)).toBe(want);
  });

  it.each([
    {
      name: 'the apiserver test value (keys sorted, spaces gone)',
      patch: '[{"op": "add", "path": "/metadata/labels/added", "value": "test"}]',
      want: '{"configuration":"cfg","webhook":"w.x.y","patch":[{"op":"add","path":"/metadata/labels/added","value":"test"}],"patchType":"JSONPatch"}',
    },
    {
      name: 'operation keys sorted, nested value order and number text kept',
      patch: '[{"value": {"z": 1.50, "a": [1e3]}, "path": "/x", "op": "add"}, {"path":"/y","op":"remove"}]',
      want: '{"configuration":"cfg","webhook":"w.x.y","patch":[{"op":"add","path":"/x","value":{"z":1.50,"a":[1e3]}},{"op":"remove","path":"/y"}],"patchType":"JSONPatch"}',
    },
    {
      name: 'HTML characters escaped, null member kept',
      patch: '[{"op":"add","path":"/a","value":"<b>","from":null}]',
      want: '{"configuration":"cfg","webhook":"w.x.y","patch":[{"from":null,"op":"add","path":"/a","value":"\\u003cb\\u003e"}],"patchType":"JSONPatch"}',
    },
  ])('patch value: $name', ({ patch, want }) => {
    expect(patchAnnotationValue('cfg', 'w.x.y', decoded(patch))).toBe(want);
  });
});

describe('AuditAnnotations: the apiserver key rule and first-wins', () => {
  it.each([
    { key: 'allow.example.com/key1', valid: true },
    { key: 'allow.example.com/invalid*key', valid: false },
    { key: 'allow.example.com/a/b', valid: false },
    { key: 'nokey', valid: false },
    { key: 'UPPER.example.com/key', valid: false },
    { key: `h.example.com/${'k'.repeat(63)}`, valid: true },
    { key: `h.example.com/${'k'.repeat(64)}`, valid: false },
    { key: 'h.example.com/-key', valid: false },
    { key: 'mutation.webhook.admission.k8s.io/round_0_index_1', valid: true },
  ])('$key is valid: $valid', ({ key, valid }) => {
    expect(isValidAnnotationKey(key)).toBe(valid);
  });

  it('records hook keys under the hook name and drops invalid ones', () => {
    const a = new AuditAnnotations();
    expect(a.addFromHook('h.example.com', { key1: 'v', 'invalid*key': 'x', 'a/b': 'y' })).toEqual([
      'invalid*key',
      'a/b',
    ]);
    expect(a.toRecord()).toEqual({ 'h.example.com/key1': 'v' });
  });

  it('keeps the first value of a key and accepts identical re-adds', () => {
    const a = new AuditAnnotations();
    expect(a.add('h.example.com/k', 'first')).toBeUndefined();
    expect(a.add('h.example.com/k', 'second')).toBe('conflict');
    expect(a.add('h.example.com/k', 'first')).toBeUndefined();
    expect(a.toRecord()).toEqual({ 'h.example.com/k': 'first' });
  });

  it('ignores annotation maps that are not objects and values that are not strings', () => {
    const a = new AuditAnnotations();
    a.addFromHook('h.example.com', null as unknown as Record<string, string>);
    a.addFromHook('h.example.com', { n: 1 } as unknown as Record<string, string>);
    expect(a.toRecord()).toEqual({});
  });
});

describe('encodeAnnotationsForApiserver', () => {
  it.each([
    { name: 'hook key', key: 'pod-policy.example.com/team', want: 'pod-policy.example.com_team' },
    {
      name: 'mutation key',
      key: 'mutation.webhook.admission.k8s.io/round_1_index_0',
      want: 'mutation_round_1_index_0',
    },
    { name: 'patch key', key: 'patch.webhook.admission.k8s.io/round_0_index_3', want: 'patch_round_0_index_3' },
    {
      name: 'failed-open mutation key',
      key: 'failed-open.mutation.webhook.admission.k8s.io/round_0_index_12',
      want: 'failed-open.mutation_round_0_index_12',
    },
    {
      name: 'failed-open validating key',
      key: 'failed-open.validating.webhook.admission.k8s.io/round_0_index_123',
      want: 'failed-open.validating_round_0_index_123',
    },
  ])('$name is reversible', ({ key, want }) => {
    expect(encodeAnnotationKey(key)).toBe(want);
    expect(decodeApiserverAnnotationKey(want)).toBe(key);
  });

  it('hashes keys that would be too long, readably and without an underscore', () => {
    const key = `a-very-long-webhook-name.with-many-labels.example.com/${'k'.repeat(40)}`;
    const encoded = encodeAnnotationKey(key);
    expect(encoded.length).toBeLessThanOrEqual(63);
    expect(encoded).toMatch(/^a-very-long-webhook-name\.with-many-labels\..*\.[0-9a-f]{10}$/);
    expect(encoded).not.toContain('_');
    expect(decodeApiserverAnnotationKey(encoded)).toBeUndefined();
    expect(encodeAnnotationKey(`${key}x`)).not.toBe(encoded);
  });

  it('leaves patch annotations out unless asked', () => {
    const annotations = {
      'h.example.com/k': 'v',
      'patch.webhook.admission.k8s.io/round_0_index_0': '{"patch":"secret"}',
      'mutation.webhook.admission.k8s.io/round_0_index_0': '{}',
    };
    expect(encodeAnnotationsForApiserver(annotations)).toEqual({
      'h.example.com_k': 'v',
      mutation_round_0_index_0: '{}',
    });
    expect(encodeAnnotationsForApiserver(annotations, { includePatchAnnotations: true })).toEqual({
      'h.example.com_k': 'v',
      patch_round_0_index_0: '{"patch":"secret"}',
      mutation_round_0_index_0: '{}',
    });
  });

  it('answers a remembered key as it encoded it the first time, entry order included', () => {
    const annotations = {
      'mutation.webhook.admission.k8s.io/round_1_index_2': '{}',
      [`hook.example.com/${'k'.repeat(80)}`]: 'long, hashed',
      'a.example.com/b_c': '1',
      'a.example.com_b/c': '2',
    };
    const first = Object.entries(encodeAnnotationsForApiserver(annotations));
    expect(Object.entries(encodeAnnotationsForApiserver(annotations))).toEqual(first);
    expect(first.map(([key]) => key)).toEqual(
      Object.keys(annotations)
        .map((key) => encodeAnnotationKey(key))
        .filter((key, i, all) => all.indexOf(key) === i),
    );
  });

  it('always produces a key the apiserver accepts under its own prefix (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (key) => {
        expect(isValidAnnotationKey(`hookgate.example.com/${encodeAnnotationKey(key)}`)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
