import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../types/json.js';
import { cloneJsonValue, shallowCopyContainer } from './clone-json.js';

const CASES: Array<{ name: string; value: JsonValue }> = [
  { name: 'a scalar', value: 'text' },
  { name: 'null', value: null },
  { name: 'an empty object', value: {} },
  { name: 'nested objects and arrays', value: { a: [1, { b: [true, null, 'x'] }], c: { d: { e: 2.5 } } } },
  { name: 'an array of arrays', value: [[1, 2], [], [[3]]] },
];

describe('cloneJsonValue', () => {
  it.each(CASES)('copies $name deeply and equal', ({ value }) => {
    const copy = cloneJsonValue(value);
    expect(copy).toEqual(value);
    if (value !== null && typeof value === 'object') expect(copy).not.toBe(value);
  });

  it('shares nothing with the source', () => {
    const source = { spec: { containers: [{ name: 'a', env: [{ name: 'X' }] }] } };
    const copy = cloneJsonValue(source);
    copy.spec.containers[0]!.env[0]!.name = 'Y';
    expect(source.spec.containers[0]!.env[0]!.name).toBe('X');
  });

  it('keeps a __proto__ member a member, never a prototype', () => {
    const source = JSON.parse('{"a":{"__proto__":{"polluted":true}}}') as { a: object };
    const copy = cloneJsonValue(source as unknown as JsonValue) as { a: object };
    expect(Object.keys(copy.a)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy.a)).toBe(Object.prototype);
    expect((copy.a as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('shallowCopyContainer', () => {
  it.each([
    { name: 'an object', value: { a: { b: 1 }, c: 2 } as JsonValue },
    { name: 'an array', value: [{ b: 1 }, 2] as JsonValue },
  ])('copies one level of $name and shares the members', ({ value }) => {
    const copy = shallowCopyContainer(value as Record<string, JsonValue>);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    const first = Object.keys(value as object)[0]!;
    expect((copy as Record<string, JsonValue>)[first]).toBe((value as Record<string, JsonValue>)[first]);
  });
});
