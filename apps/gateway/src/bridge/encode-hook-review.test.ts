import { describe, expect, it } from 'vitest';
import { buildHookReview, type AdmissionRequest } from '@hookgate/admission';
import { buildTestCall, compileTestHook } from '../testing/hook-fixtures.js';
import { encodeHookReview } from './encode-hook-review.js';

describe('encodeHookReview', () => {
  const hook = compileTestHook('validating', {
    name: 'enc.example.com',
    clientConfig: { url: 'https://127.0.0.1:1/x' },
  });
  const base = buildTestCall(hook, 0);
  const variants: [string, Partial<AdmissionRequest>][] = [
    ['a create with an object', {}],
    [
      'an update with both objects and options',
      { operation: 'UPDATE', oldObject: { a: [1, 'é', null] }, options: { kind: 'UpdateOptions' } },
    ],
    ['a delete without object', { operation: 'DELETE', object: undefined, oldObject: { b: true } }],
    ['a connect (options null)', { operation: 'CONNECT', object: undefined, dryRun: true }],
    ['user strings that look like JSON', { userInfo: { username: '"},"object":{}}', groups: ['\u0000'] } }],
  ];
  it.each(variants)('is JSON.stringify of the review, byte for byte: %s', (_name, change) => {
    const call = { ...base, request: { ...base.request, ...change } as AdmissionRequest };
    expect(encodeHookReview(call).toString('utf8')).toBe(JSON.stringify(buildHookReview(call)));
  });

  it('encodes a changed object anew and a shared one the same way for every call', () => {
    const first = encodeHookReview(base).toString('utf8');
    const again = encodeHookReview({ ...base, request: { ...base.request, uid: 'other-uid' } }).toString('utf8');
    expect(again).toBe(first.replace(base.request.uid, 'other-uid'));
    const object = { ...(base.request.object as object), metadata: { name: 'changed' } };
    const changed = { ...base, request: { ...base.request, object } };
    expect(JSON.parse(encodeHookReview(changed).toString('utf8')).request.object).toEqual(object);
  });
});
