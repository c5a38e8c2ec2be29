import { describe, expect, it } from 'vitest';
import { defaultConfiguration, defaultWebhook } from './defaults.js';
import type { ConfigApiVersion, WebhookConfiguration, WebhookSpec } from '../types/webhook-configuration.js';

const V1: ConfigApiVersion = 'admissionregistration.k8s.io/v1';
const V1BETA1: ConfigApiVersion = 'admissionregistration.k8s.io/v1beta1';

const bare: WebhookSpec = {
  name: 'hook.example.com',
  clientConfig: { service: { namespace: 'ns', name: 'svc' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};

describe('defaultWebhook: per-version defaults of an empty spec', () => {
  const cases = [
    { name: 'v1 failurePolicy', version: V1, field: 'failurePolicy', want: 'Fail' },
    { name: 'v1beta1 failurePolicy', version: V1BETA1, field: 'failurePolicy', want: 'Ignore' },
    { name: 'v1 matchPolicy', version: V1, field: 'matchPolicy', want: 'Equivalent' },
    { name: 'v1beta1 matchPolicy', version: V1BETA1, field: 'matchPolicy', want: 'Exact' },
    { name: 'v1 timeoutSeconds', version: V1, field: 'timeoutSeconds', want: 10 },
    { name: 'v1beta1 timeoutSeconds', version: V1BETA1, field: 'timeoutSeconds', want: 30 },
    { name: 'v1 sideEffects (no default)', version: V1, field: 'sideEffects', want: null },
    { name: 'v1beta1 sideEffects', version: V1BETA1, field: 'sideEffects', want: 'Unknown' },
    { name: 'v1 admissionReviewVersions (no default)', version: V1, field: 'admissionReviewVersions', want: [] },
    { name: 'v1beta1 admissionReviewVersions', version: V1BETA1, field: 'admissionReviewVersions', want: ['v1beta1'] },
    { name: 'v1 reinvocationPolicy', version: V1, field: 'reinvocationPolicy', want: 'Never' },
    { name: 'v1beta1 reinvocationPolicy', version: V1BETA1, field: 'reinvocationPolicy', want: 'Never' },
    { name: 'v1 namespaceSelector', version: V1, field: 'namespaceSelector', want: {} },
    { name: 'v1beta1 namespaceSelector', version: V1BETA1, field: 'namespaceSelector', want: {} },
    { name: 'v1 objectSelector', version: V1, field: 'objectSelector', want: {} },
    { name: 'v1beta1 objectSelector', version: V1BETA1, field: 'objectSelector', want: {} },
    { name: 'v1 matchConditions', version: V1, field: 'matchConditions', want: [] },
  ] as const;
  it.each(cases)('$name', ({ version, field, want }) => {
    expect(defaultWebhook(bare, version, true)[field]).toEqual(want);
  });

  it.each([
    { name: 'v1 rule scope', version: V1 },
    { name: 'v1beta1 rule scope', version: V1BETA1 },
  ])('$name defaults to *', ({ version }) => {
    expect(defaultWebhook(bare, version, false).rules[0]!.scope).toBe('*');
  });

  it.each([
    { name: 'v1 service port', version: V1 },
    { name: 'v1beta1 service port', version: V1BETA1 },
  ])('$name defaults to 443', ({ version }) => {
    expect(defaultWebhook(bare, version, false).clientConfig.service!.port).toBe(443);
  });
});

describe('defaultWebhook: given values are kept', () => {
  const full: WebhookSpec = {
    ...bare,
    clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/x', port: 8443 }, caBundle: 'Cg==' },
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Namespaced' }],
    failurePolicy: 'Ignore',
    matchPolicy: 'Exact',
    namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] },
    objectSelector: { matchLabels: { app: 'x' } },
    sideEffects: 'NoneOnDryRun',
    timeoutSeconds: 5,
    admissionReviewVersions: ['v1', 'v1beta1'],
    reinvocationPolicy: 'IfNeeded',
    matchConditions: [{ name: 'c', expression: 'true' }],
  };
  it.each([
    { name: 'v1', version: V1 },
    { name: 'v1beta1', version: V1BETA1 },
  ])('$name', ({ version }) => {
    expect(defaultWebhook(full, version, true)).toEqual({
      name: 'hook.example.com',
      clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/x', port: 8443 }, caBundle: 'Cg==' },
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Namespaced' }],
      failurePolicy: 'Ignore',
      matchPolicy: 'Exact',
      namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] },
      objectSelector: { matchLabels: { app: 'x' } },
      sideEffects: 'NoneOnDryRun',
      timeoutSeconds: 5,
      admissionReviewVersions: ['v1', 'v1beta1'],
      reinvocationPolicy: 'IfNeeded',
      matchConditions: [{ name: 'c', expression: 'true' }],
    });
  });

  it('validating webhooks always get reinvocationPolicy Never', () => {
    expect(defaultWebhook(full, V1, false).reinvocationPolicy).toBe('Never');
  });

  it('explicit null selectors become {} (never null, §5)', () => {
    const w = defaultWebhook({ ...bare, namespaceSelector: null, objectSelector: null }, V1, false);
    expect(w.namespaceSelector).toEqual({});
    expect(w.objectSelector).toEqual({});
  });

  it('explicit null sideEffects in v1beta1 defaults to Unknown, like a Go nil pointer', () => {
    expect(defaultWebhook({ ...bare, sideEffects: null }, V1BETA1, false).sideEffects).toBe('Unknown');
  });

  it('url and plugin targets are copied', () => {
    expect(
      defaultWebhook({ ...bare, clientConfig: { url: 'https://a.example.com/x' } }, V1, false).clientConfig,
    ).toEqual({ url: 'https://a.example.com/x' });
    expect(defaultWebhook({ ...bare, clientConfig: { plugin: 'opa' } }, V1, false).clientConfig).toEqual({
      plugin: 'opa',
    });
  });
});

describe('defaultConfiguration', () => {
  const cfg: WebhookConfiguration = {
    apiVersion: V1BETA1,
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'cfg', labels: { a: 'b' } },
    webhooks: [bare, { ...bare, name: 'second.example.com' }],
  };

  it('keeps apiVersion, kind, name and the webhook order', () => {
    const d = defaultConfiguration(cfg);
    expect(d.apiVersion).toBe(V1BETA1);
    expect(d.kind).toBe('MutatingWebhookConfiguration');
    expect(d.name).toBe('cfg');
    expect(d.webhooks.map((w) => w.name)).toEqual(['hook.example.com', 'second.example.com']);
  });

  it('is pure: the input is not changed and the output shares no arrays or objects with it', () => {
    const before = JSON.stringify(cfg);
    const d = defaultConfiguration(cfg);
    expect(JSON.stringify(cfg)).toBe(before);
    d.webhooks[0]!.rules[0]!.resources.push('x');
    d.webhooks[0]!.clientConfig.service!.name = 'changed';
    expect(JSON.stringify(cfg)).toBe(before);
  });

  it('a configuration without webhooks has none', () => {
    expect(defaultConfiguration({ ...cfg, webhooks: undefined }).webhooks).toEqual([]);
  });
});
