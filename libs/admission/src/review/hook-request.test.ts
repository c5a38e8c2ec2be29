import { describe, expect, it } from 'vitest';
import type { HookCall } from '../types/invoker.js';
import type { Hook } from '../types/hook.js';
import { buildHookReview, formatGoDuration, hookTimeoutQuery } from './hook-request.js';
import type { AdmissionRequest } from '../types/review.js';

const hook = { name: 'hook.example.com', phase: 'validating' } as Hook;
const baseRequest: AdmissionRequest = {
  uid: 'call-uid',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  name: 'web',
  namespace: 'default',
  operation: 'CREATE',
  userInfo: { username: 'alice', groups: ['system:authenticated'] },
  object: { metadata: { name: 'web' } },
  options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
};
const call = (request: Partial<AdmissionRequest>, version: 'v1' | 'v1beta1' = 'v1'): HookCall => ({
  hook,
  request: { ...baseRequest, ...request },
  version,
  round: 0,
  deadline: 0,
  timeoutSeconds: 10,
  patchFromOriginal: [],
});

describe('buildHookReview', () => {
  it('builds the apiserver-shaped v1 review, keys in Go order', () => {
    const review = buildHookReview(call({}));
    expect(review).toEqual({
      kind: 'AdmissionReview',
      apiVersion: 'admission.k8s.io/v1',
      request: {
        uid: 'call-uid',
        kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
        requestKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
        name: 'web',
        namespace: 'default',
        operation: 'CREATE',
        userInfo: { username: 'alice', groups: ['system:authenticated'] },
        object: { metadata: { name: 'web' } },
        oldObject: null,
        dryRun: false,
        options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
      },
    });
    expect(Object.keys(review.request!)).toEqual([
      'uid',
      'kind',
      'resource',
      'requestKind',
      'requestResource',
      'name',
      'namespace',
      'operation',
      'userInfo',
      'object',
      'oldObject',
      'dryRun',
      'options',
    ]);
  });

  it('uses the call version', () => {
    expect(buildHookReview(call({}, 'v1beta1')).apiVersion).toBe('admission.k8s.io/v1beta1');
  });

  it.each<{ name: string; req: Partial<AdmissionRequest>; check: (r: AdmissionRequest) => void }>([
    {
      name: 'dryRun true stays true',
      req: { dryRun: true },
      check: (r: AdmissionRequest) => expect(r.dryRun).toBe(true),
    },
    {
      name: 'dryRun absent becomes false',
      req: { dryRun: undefined },
      check: (r: AdmissionRequest) => expect(r.dryRun).toBe(false),
    },
    {
      name: 'CONNECT sends options null',
      req: { operation: 'CONNECT', options: { kind: 'X' } },
      check: (r: AdmissionRequest) => expect(r.options).toBeNull(),
    },
    {
      name: 'absent options become null',
      req: { options: undefined },
      check: (r: AdmissionRequest) => expect(r.options).toBeNull(),
    },
    {
      name: 'DELETE: object null, oldObject kept',
      req: { operation: 'DELETE', object: undefined, oldObject: { a: 1 } },
      check: (r: AdmissionRequest) => expect([r.object, r.oldObject]).toEqual([null, { a: 1 }]),
    },
    {
      name: 'original requestKind/Resource/SubResource are kept when the invocation differs',
      req: {
        kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
        subResource: 'scale',
        requestKind: { group: 'apps', version: 'v1beta1', kind: 'Scale' },
        requestResource: { group: 'apps', version: 'v1beta1', resource: 'deployments' },
        requestSubResource: 'scale',
      },
      check: (r: AdmissionRequest) => {
        expect(r.kind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
        expect(r.requestKind).toEqual({ group: 'apps', version: 'v1beta1', kind: 'Scale' });
        expect(r.requestResource).toEqual({ group: 'apps', version: 'v1beta1', resource: 'deployments' });
        expect([r.subResource, r.requestSubResource]).toEqual(['scale', 'scale']);
      },
    },
    {
      name: 'missing requestSubResource falls back to subResource',
      req: { subResource: 'status' },
      check: (r: AdmissionRequest) => expect(r.requestSubResource).toBe('status'),
    },
    {
      name: 'empty name and namespace are omitted',
      req: { name: '', namespace: '' },
      check: (r: AdmissionRequest) => expect(['name' in r, 'namespace' in r]).toEqual([false, false]),
    },
    {
      name: 'empty userInfo parts are omitted',
      req: { userInfo: { username: 'u', uid: '', groups: [], extra: {} } },
      check: (r: AdmissionRequest) => expect(r.userInfo).toEqual({ username: 'u' }),
    },
    {
      name: 'userInfo extra kept',
      req: { userInfo: { extra: { scopes: ['a'] } } },
      check: (r: AdmissionRequest) => expect(r.userInfo).toEqual({ extra: { scopes: ['a'] } }),
    },
  ])('$name', ({ req, check }) => check(buildHookReview(call(req)).request!));

  it('does not share userInfo arrays with the call', () => {
    const c = call({});
    const review = buildHookReview(c);
    review.request!.userInfo.groups!.push('x');
    expect(c.request.userInfo.groups).toEqual(['system:authenticated']);
  });
});

describe('hookTimeoutQuery and formatGoDuration', () => {
  it.each([
    { name: 'ten seconds', seconds: 10, want: '10s' },
    { name: 'one second', seconds: 1, want: '1s' },
    { name: 'rounds up', seconds: 4.2, want: '5s' },
    { name: 'thirty', seconds: 30, want: '30s' },
    { name: 'a minute', seconds: 60, want: '1m0s' },
    { name: 'ninety', seconds: 90, want: '1m30s' },
    { name: 'an hour', seconds: 3600, want: '1h0m0s' },
    { name: 'zero', seconds: 0, want: '0s' },
  ])('$name', ({ seconds, want }) => expect(hookTimeoutQuery(seconds)).toBe(want));

  it('formatGoDuration never prints negatives', () => expect(formatGoDuration(-3)).toBe('0s'));
});
