/**
 * The Kubernetes reader's mapping: answers and errors to what processJob understands. Its HTTP
 * path (a consistent GET against the fake apiserver) is tested in test/src with the other
 * @hookgate/kubernetes tests.
 */
import { describe, expect, it } from 'vitest';
import { HG_ERR_KUBERNETES_UNEXPECTED_ANSWER } from '@hookgate/errors';
import { KubernetesApiError, type KubernetesObject } from '@hookgate/kubernetes';
import { classifyReadError, observedFromObject } from './kubernetes-object-reader.js';
import { objectRefOf } from './object-reader.js';
import type { AdmissionSummary } from './job-schema.js';

const ref = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'shop', name: 'web' };
const request = 'GET /apis/apps/v1/namespaces/shop/deployments/web';

describe('observedFromObject', () => {
  it.each([
    {
      name: 'uid, name and resourceVersion, nothing else',
      object: { metadata: { uid: 'u-1', name: 'web', resourceVersion: '7', labels: { a: 'b' } } },
      want: { uid: 'u-1', name: 'web', resourceVersion: '7' },
    },
    {
      name: 'with generation and a deletionTimestamp (a string over JSON)',
      object: {
        metadata: {
          uid: 'u-1',
          name: 'web',
          resourceVersion: '9',
          generation: 3,
          deletionTimestamp: '2026-11-26T08:00:00Z',
        },
      },
      want: { uid: 'u-1', name: 'web', resourceVersion: '9', generation: 3, deletionTimestamp: '2026-11-26T08:00:00Z' },
    },
  ])('$name', ({ object, want }) => {
    expect(observedFromObject(object as unknown as KubernetesObject, ref)).toEqual(want);
  });

  it('refuses an answer without uid, name or resourceVersion, naming the object', () => {
    expect(() => observedFromObject({ metadata: { name: 'web' } }, ref)).toThrow(
      "the apiserver's answer for deployments web has no metadata.uid, name or resourceVersion",
    );
    expect(() => observedFromObject({}, ref)).toThrow('has no metadata.uid');
  });
});

describe('classifyReadError', () => {
  it.each([
    { name: '404: absent', error: new KubernetesApiError(404, request, 'not found', {}), want: 'absent' },
    {
      name: '503: unavailable, the request and answer named',
      error: new KubernetesApiError(503, request, 'etcd leader changed', {}),
      want: { kind: 'unavailable', reason: `${request}: HTTP 503: etcd leader changed` },
    },
    {
      name: '429 with the Status retry hint: unavailable, retry after it',
      error: new KubernetesApiError(429, request, 'too many requests', { details: { retryAfterSeconds: 3 } }),
      want: { kind: 'unavailable', reason: `${request}: HTTP 429: too many requests`, retryAfterMs: 3000 },
    },
    {
      name: "the read's own timeout: unavailable",
      error: new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      want: { kind: 'unavailable', reason: 'The operation was aborted due to timeout' },
    },
    {
      name: 'a connection failure wrapped by the client: unavailable',
      error: new Error('request to https://127.0.0.1:6443 failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }),
      }),
      want: { kind: 'unavailable', reason: 'request to https://127.0.0.1:6443 failed' },
    },
    {
      name: 'a connection that failed: unavailable',
      error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }),
      want: { kind: 'unavailable', reason: 'connect ECONNREFUSED 127.0.0.1:6443' },
    },
  ])('$name', ({ error, want }) => {
    expect(classifyReadError(error)).toEqual(want);
  });

  it.each([
    { name: '403 (RBAC)', error: new KubernetesApiError(403, request, 'forbidden', {}) },
    { name: '401', error: new KubernetesApiError(401, request, 'Unauthorized', {}) },
    {
      name: 'a client that refuses its own configuration (no code: not a connection failure)',
      error: new Error('HTTP protocol is not allowed when skipTLSVerify is not set'),
    },
    {
      name: 'an answer that is not an API object',
      error: new HG_ERR_KUBERNETES_UNEXPECTED_ANSWER(request, 'the apiserver did not answer with a JSON object'),
    },
  ])('rethrows what needs an operator: $name', ({ error }) => {
    expect(() => classifyReadError(error)).toThrow(error);
  });
});

describe('objectRefOf', () => {
  const admission = (namespace: string, subResource = ''): AdmissionSummary => ({
    uid: 'call-1',
    operation: 'UPDATE',
    resource: { group: '', version: 'v1', resource: 'namespaces' },
    subResource,
    namespace,
    name: 'shop',
    generateName: '',
    dryRun: false,
    phase: 'validating',
  });

  it('names the parent object of a subresource, cluster-scoped with an empty namespace', () => {
    expect(objectRefOf(admission('', 'status'))).toEqual({
      group: '',
      version: 'v1',
      resource: 'namespaces',
      namespace: '',
      name: 'shop',
    });
  });
});
