import { describe, expect, it } from 'vitest';
import type { AdmissionRequest } from '@hookgate/admission';
import { decodedSource } from './decode-request.js';
import { HookContext } from './hook-context.js';
import type { KubeObject } from './types.js';

function request(object: KubeObject): AdmissionRequest {
  return {
    uid: 'u-1',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    userInfo: {},
    object,
  } as AdmissionRequest;
}

describe('HookContext.object', () => {
  it.each([
    { name: 'a mutating hook reads its own copy', ownCopy: true, same: false },
    { name: 'a validating hook reads the request object itself', ownCopy: false, same: true },
  ])('$name', ({ ownCopy, same }) => {
    const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' } } } as KubeObject;
    const ctx = new HookContext('h', ownCopy ? 'mutating' : 'validating', 0, decodedSource(request(object)), ownCopy);
    expect(ctx.object).toEqual(object);
    expect(ctx.object === object).toBe(same);
    // Every read returns the same object, so changes made through it stay.
    expect(ctx.object).toBe(ctx.object);
  });

  it('leaves the received object untouched when the handler changes its copy', () => {
    const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' } } } as KubeObject;
    const ctx = new HookContext('h', 'mutating', 0, decodedSource(request(object)), true);
    (ctx.object!.metadata!.labels as Record<string, string>).team = 'core';
    expect(ctx.object!.metadata!.labels).toEqual({ app: 'web', team: 'core' });
    expect(object.metadata!.labels).toEqual({ app: 'web' });
  });

  it('has no object for a request without one', () => {
    const ctx = new HookContext(
      'h',
      'mutating',
      0,
      decodedSource({ ...request({} as KubeObject), object: null }),
      true,
    );
    expect(ctx.object).toBeUndefined();
  });
});

describe('HookContext.annotate', () => {
  it('keeps every key as an annotation, __proto__ included, and the last value of a key', () => {
    const ctx = new HookContext('h', 'validating', 0, decodedSource(request({} as KubeObject)), false);
    ctx.annotate('__proto__', 'x');
    ctx.annotate('k', 'v1');
    ctx.annotate('k', 'v2');
    expect(Object.getPrototypeOf(ctx.annotations)).toBe(Object.prototype);
    expect(Object.entries(ctx.annotations!)).toEqual([
      ['__proto__', 'x'],
      ['k', 'v2'],
    ]);
  });
});
