import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { formatConfigurationErrors, parseWebhookConfiguration } from './parse.js';

const CORPUS = new URL('../../../../test/fixtures/corpus/webhook-configs/', import.meta.url);
const loadCorpus = (file: string): unknown => parseYaml(readFileSync(new URL(file, CORPUS), 'utf8'));

/**
 * Per file: `failurePolicy/matchPolicy/sideEffects/timeoutSeconds/admissionReviewVersions` of each
 * webhook after defaulting. v1beta1 files show the v1beta1 defaults (Ignore, Exact, Unknown, 30, v1beta1)
 * wherever the file leaves a field out.
 */
const EXPECTED: Record<string, { kind: string; webhooks: string[] }> = {
  'aws-load-balancer-controller-mutating.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/None/10/v1beta1', 'Fail/Equivalent/None/10/v1beta1'],
  },
  'aws-load-balancer-controller-validating-v1beta1.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Fail/Exact/None/30/v1beta1'],
  },
  'cert-manager-webhook-mutating.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/None/30/v1'],
  },
  'cert-manager-webhook-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/None/30/v1'],
  },
  'crossplane-no-usages-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/None/10/v1'],
  },
  'gatekeeper-mutating.yaml': { kind: 'MutatingWebhookConfiguration', webhooks: ['Ignore/Exact/None/1/v1,v1beta1'] },
  'gatekeeper-validating-v1beta1.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Ignore/Exact/None/3/v1beta1', 'Fail/Exact/None/3/v1beta1'],
  },
  'gatekeeper-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Ignore/Exact/None/3/v1,v1beta1', 'Fail/Exact/None/3/v1,v1beta1'],
  },
  'istio-sidecar-injector-mutating-v1beta1.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Fail/Exact/None/30/v1beta1'],
  },
  'istio-sidecar-injector-mutating.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: [
      'Fail/Equivalent/None/10/v1',
      'Fail/Equivalent/None/10/v1',
      'Fail/Equivalent/None/10/v1',
      'Fail/Equivalent/None/10/v1',
    ],
  },
  'istiod-validating-external-url.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/None/10/v1'],
  },
  'istiod-validating.yaml': { kind: 'ValidatingWebhookConfiguration', webhooks: ['Ignore/Equivalent/None/10/v1'] },
  'knative-serving-config-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/None/10/v1,v1beta1'],
  },
  'knative-serving-defaulting-mutating.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/None/10/v1,v1beta1'],
  },
  'kubewarden-controller-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: [
      'Fail/Equivalent/None/10/v1,v1beta1',
      'Fail/Equivalent/None/10/v1,v1beta1',
      'Fail/Equivalent/None/10/v1,v1beta1',
      'Fail/Equivalent/None/10/v1,v1beta1',
      'Fail/Equivalent/None/10/v1',
    ],
  },
  'kyverno-resource-mutating.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/NoneOnDryRun/10/v1'],
  },
  'kyverno-resource-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/NoneOnDryRun/10/v1'],
  },
  'linkerd-policy-validator-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Ignore/Equivalent/None/10/v1,v1beta1'],
  },
  'linkerd-proxy-injector-mutating-v1beta1.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Ignore/Exact/None/30/v1beta1'],
  },
  'linkerd-proxy-injector-mutating.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Ignore/Equivalent/None/10/v1,v1beta1'],
  },
  'linkerd-viz-tap-injector-mutating.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Ignore/Equivalent/None/10/v1,v1beta1'],
  },
  'metallb-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: Array.from({ length: 6 }, () => 'Fail/Equivalent/None/10/v1'),
  },
  'prometheus-operator-validating.yaml': {
    kind: 'ValidatingWebhookConfiguration',
    webhooks: ['Fail/Equivalent/None/10/v1'],
  },
  'vault-agent-injector-mutating-v1beta1.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Ignore/Exact/Unknown/30/v1beta1'],
  },
  'vault-agent-injector-mutating.yaml': {
    kind: 'MutatingWebhookConfiguration',
    webhooks: ['Ignore/Equivalent/None/10/v1,v1beta1'],
  },
};

describe('parseWebhookConfiguration: every corpus configuration is accepted with its defaults', () => {
  const files = readdirSync(CORPUS).filter((f) => f.endsWith('.yaml'));

  it('the expectation table covers the whole corpus', () => {
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files.map((file) => ({ name: file, file })))('$name', ({ file }) => {
    const raw = loadCorpus(file) as { apiVersion: string; metadata: { name: string } };
    const result = parseWebhookConfiguration(raw);
    if (!result.ok) throw new Error(formatConfigurationErrors(raw, result.error));
    const cfg = result.value;
    expect(cfg.kind).toBe(EXPECTED[file]!.kind);
    expect(cfg.apiVersion).toBe(raw.apiVersion);
    expect(cfg.name).toBe(raw.metadata.name);
    expect(
      cfg.webhooks.map(
        (w) =>
          `${w.failurePolicy}/${w.matchPolicy}/${w.sideEffects}/${w.timeoutSeconds}/${w.admissionReviewVersions.join(',')}`,
      ),
    ).toEqual(EXPECTED[file]!.webhooks);
    for (const w of cfg.webhooks) {
      expect(w.namespaceSelector).not.toBeNull();
      expect(w.objectSelector).not.toBeNull();
      expect(w.reinvocationPolicy === 'Never' || w.reinvocationPolicy === 'IfNeeded').toBe(true);
      for (const r of w.rules) expect(['*', 'Namespaced', 'Cluster']).toContain(r.scope);
      if (w.clientConfig.service) expect(w.clientConfig.service.port).toBeGreaterThan(0);
    }
  });

  it('keeps the corpus specifics: kyverno match conditions, linkerd IfNeeded, explicit ports', () => {
    const kyverno = parseWebhookConfiguration(loadCorpus('kyverno-resource-mutating.yaml'));
    expect(kyverno.ok && kyverno.value.webhooks[0]!.matchConditions.map((c) => c.name)).toEqual([
      'autogen-check-prod-label',
      'autogen-cronjobs-check-prod-label',
      'autogen-defaults-check-prod-label',
    ]);
    const tap = parseWebhookConfiguration(loadCorpus('linkerd-viz-tap-injector-mutating.yaml'));
    expect(tap.ok && tap.value.webhooks[0]!.reinvocationPolicy).toBe('IfNeeded');
    expect(tap.ok && tap.value.webhooks[0]!.rules[0]!.scope).toBe('Namespaced');
    const istio = parseWebhookConfiguration(loadCorpus('istiod-validating-external-url.yaml'));
    expect(istio.ok && istio.value.webhooks[0]!.clientConfig.url).toBe(
      'https://istiod-1-27.external-istiod.example.com:15017/validate',
    );
  });
});

describe('parseWebhookConfiguration: rejections', () => {
  it.each([
    {
      name: 'not an object',
      input: 42,
      want: 'WebhookConfiguration.admissionregistration.k8s.io "" is invalid: Invalid value: "a number": a webhook configuration must be an object with apiVersion, kind, metadata and webhooks',
    },
    {
      name: 'wrong apiVersion',
      input: { apiVersion: 'v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'x' } },
      want: 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "x" is invalid: apiVersion: Unsupported value: "v1": supported values: "admissionregistration.k8s.io/v1", "admissionregistration.k8s.io/v1beta1"',
    },
    {
      name: 'wrong kind',
      input: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ConfigMap', metadata: { name: 'x' } },
      want: 'ConfigMap.admissionregistration.k8s.io "x" is invalid: kind: Unsupported value: "ConfigMap": supported values: "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"',
    },
    {
      name: 'two problems',
      input: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'x' },
        webhooks: [
          {
            name: 'foo',
            clientConfig: { url: 'https://a.example.com' },
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
            timeoutSeconds: 40,
          },
        ],
      },
      want: 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "x" is invalid: [webhooks[0].name: Invalid value: "foo": should be a domain with at least three segments separated by dots, webhooks[0].timeoutSeconds: Invalid value: 40: the timeout value must be between 1 and 30 seconds]',
    },
  ])('$name', ({ input, want }) => {
    const result = parseWebhookConfiguration(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(formatConfigurationErrors(input, result.error)).toBe(want);
  });

  it('passes the options through: plugins must be known', () => {
    const input = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'x' },
      webhooks: [
        { name: 'a.b.c', clientConfig: { plugin: 'opa' }, sideEffects: 'None', admissionReviewVersions: ['v1'] },
      ],
    };
    expect(parseWebhookConfiguration(input, { knownPlugins: new Set(['opa']) }).ok).toBe(true);
    expect(parseWebhookConfiguration(input, { knownPlugins: new Set(['other']) }).ok).toBe(false);
  });
});
