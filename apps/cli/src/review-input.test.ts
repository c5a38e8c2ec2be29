import { describe, expect, it } from 'vitest';
import { pluralOf, readReviewInput } from './review-input.js';

describe('pluralOf', () => {
  const cases = [
    { name: 'regular kind', kind: 'Pod', plural: 'pods' },
    { name: 'ending in s', kind: 'Ingress', plural: 'ingresses' },
    { name: 'consonant + y', kind: 'NetworkPolicy', plural: 'networkpolicies' },
    { name: 'vowel + y', kind: 'Gateway', plural: 'gateways' },
    { name: 'Endpoints is already plural', kind: 'Endpoints', plural: 'endpoints' },
  ];
  it.each(cases)('$name: $kind → $plural', ({ kind, plural }) => expect(pluralOf(kind)).toBe(plural));
});

describe('readReviewInput', () => {
  const options = { operation: 'CREATE', user: 'me' };
  const cases = [
    {
      name: 'a namespaced manifest without namespace lands in default',
      text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\n',
      expected: {
        operation: 'CREATE',
        namespace: 'default',
        name: 'web',
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
        oldObject: null,
      },
    },
    {
      name: 'a cluster-scoped manifest has no namespace',
      text: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: { name: admin }\n',
      expected: {
        namespace: '',
        resource: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' },
      },
    },
    {
      name: 'an AdmissionReview is used as sent',
      text: JSON.stringify({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'u1',
          kind: { group: '', version: 'v1', kind: 'Pod' },
          resource: { group: '', version: 'v1', resource: 'pods' },
          operation: 'DELETE',
          userInfo: {},
        },
      }),
      expected: { uid: 'u1', operation: 'DELETE' },
    },
  ];
  it.each(cases)('$name', ({ text, expected }) => {
    const input = readReviewInput(text, options);
    expect(input.ok).toBe(true);
    if (input.ok) expect(input.request).toMatchObject(expected);
  });

  const errors = [
    { name: 'a list', text: '- a\n- b\n', error: 'expected an object with apiVersion and kind' },
    { name: 'no kind', text: 'apiVersion: v1\n', error: 'a manifest needs apiVersion and kind' },
    { name: 'bad YAML', text: 'a: [\n', error: 'not valid YAML or JSON' },
    {
      name: 'a review without uid',
      text: '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}}',
      error: 'request.uid: is required',
    },
    // Manifests get the gateway's own checks: selectors cannot be evaluated on these.
    {
      name: 'a manifest whose metadata is a string',
      text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: web\n',
      error: 'request.object.metadata: must be an object, got a string',
    },
    {
      name: 'a manifest whose labels are a list',
      text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, labels: [a, b] }\n',
      error: 'request.object.metadata.labels: must be a map of strings, got an array',
    },
    {
      name: 'a manifest with a label value that is a number',
      text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, labels: { tier: 1 } }\n',
      error: 'request.object.metadata.labels[tier]: must be a string, got a number',
    },
  ];
  it.each(errors)('refuses $name', ({ text, error }) => {
    const input = readReviewInput(text, options);
    expect(input.ok).toBe(false);
    if (!input.ok) expect(input.error).toContain(error);
  });

  it('DELETE of a manifest sends it as oldObject', () => {
    const input = readReviewInput('apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, namespace: ns }\n', {
      ...options,
      operation: 'delete',
    });
    expect(
      input.ok && { object: input.request.object, old: (input.request.oldObject as { kind: string }).kind },
    ).toEqual({ object: null, old: 'ConfigMap' });
  });

  describe('UPDATE', () => {
    const stored = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, data: { a: '1' } };
    const edited = 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, namespace: ns }\ndata: { a: "2" }\n';

    it('sends the manifest as object and --old as oldObject', () => {
      const input = readReviewInput(edited, { ...options, operation: 'UPDATE', old: stored });
      expect(input.ok && { object: input.request.object, old: input.request.oldObject }).toEqual({
        object: { ...stored, data: { a: '2' } },
        old: stored,
      });
    });

    const refusals = [
      { name: 'UPDATE without --old', old: undefined, operation: 'UPDATE', error: 'UPDATE needs the object as stored' },
      { name: '--old with CREATE', old: stored, operation: 'CREATE', error: '--old is for UPDATE, not CREATE' },
      {
        name: '--old of another kind',
        old: { ...stored, kind: 'Secret' },
        operation: 'UPDATE',
        error: '--old must be a ConfigMap of v1 too',
      },
    ];
    it.each(refusals)('refuses $name', ({ old, operation, error }) => {
      const input = readReviewInput(edited, { ...options, operation, ...(old ? { old } : {}) });
      expect(input.ok ? '' : input.error).toContain(error);
    });
  });

  it('puts a manifest of a custom cluster-scoped kind in no namespace when told so', () => {
    const text = 'apiVersion: ec2.aws.crossplane.io/v1beta1\nkind: VPC\nmetadata: { name: prod }\n';
    expect(readReviewInput(text, options).ok && readReviewInput(text, options)).toMatchObject({
      request: { namespace: 'default' },
    });
    expect(readReviewInput(text, { ...options, clusterScoped: true })).toMatchObject({
      ok: true,
      request: { namespace: '', resource: { resource: 'vpcs' } },
    });
  });
});
