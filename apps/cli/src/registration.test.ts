import { describe, expect, it } from 'vitest';
import type { DefaultedConfiguration, DefaultedWebhook } from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';
import { buildRegistrations } from './registration.js';

const hook = (name: string, timeoutSeconds: number, failurePolicy: 'Fail' | 'Ignore') =>
  ({ name, timeoutSeconds, failurePolicy }) as DefaultedWebhook;
const configuration = (kind: DefaultedConfiguration['kind'], webhooks: DefaultedWebhook[]) =>
  ({ apiVersion: 'admissionregistration.k8s.io/v1', kind, name: kind, webhooks }) as DefaultedConfiguration;
const loaded = (webhookConfigurations: DefaultedConfiguration[], tlsDisabled = false) =>
  ({
    gateway: { admission: { host: '127.0.0.1', port: 8443, tls: { disabled: tlsDisabled } } },
    webhookConfigurations,
  }) as unknown as LoadedConfiguration;

type Webhook = { clientConfig: { url: string; caBundle?: string }; failurePolicy: string; timeoutSeconds: number };
const webhookOf = (doc: Record<string, unknown>) => (doc['webhooks'] as Webhook[])[0]!;

describe('buildRegistrations', () => {
  const cases = [
    {
      name: 'Fail when any hook of the phase fails closed; mutating timeout sums the serial chain',
      input: loaded([
        configuration('MutatingWebhookConfiguration', [
          hook('a.example.com', 5, 'Ignore'),
          hook('b.example.com', 10, 'Fail'),
        ]),
        configuration('ValidatingWebhookConfiguration', [
          hook('c.example.com', 3, 'Ignore'),
          hook('d.example.com', 7, 'Ignore'),
        ]),
      ]),
      host: '127.0.0.1',
      mutating: { url: 'https://127.0.0.1:8443/mutate', failurePolicy: 'Fail', timeoutSeconds: 16 },
      validating: { url: 'https://127.0.0.1:8443/validate', failurePolicy: 'Ignore', timeoutSeconds: 8 },
    },
    {
      name: 'timeouts stay within the API limit of 30 s',
      input: loaded([
        configuration('MutatingWebhookConfiguration', [
          hook('a.example.com', 30, 'Fail'),
          hook('b.example.com', 30, 'Fail'),
        ]),
      ]),
      host: 'localhost',
      mutating: { url: 'https://localhost:8443/mutate', failurePolicy: 'Fail', timeoutSeconds: 30 },
      validating: { url: 'https://localhost:8443/validate', failurePolicy: 'Ignore', timeoutSeconds: 1 },
    },
    {
      name: 'an IPv6 host is bracketed; plain http when TLS is disabled',
      input: loaded([], true),
      host: '::1',
      mutating: { url: 'http://[::1]:8443/mutate', failurePolicy: 'Ignore', timeoutSeconds: 1 },
      validating: { url: 'http://[::1]:8443/validate', failurePolicy: 'Ignore', timeoutSeconds: 1 },
    },
  ];
  it.each(cases)('$name', ({ input, host, mutating, validating }) => {
    const [m, v] = buildRegistrations({ configuration: input, urlHost: host, caBundle: 'Q0E=' });
    expect(webhookOf(m)).toMatchObject({
      clientConfig: { url: mutating.url, caBundle: 'Q0E=' },
      failurePolicy: mutating.failurePolicy,
      timeoutSeconds: mutating.timeoutSeconds,
    });
    expect(webhookOf(v)).toMatchObject({
      clientConfig: { url: validating.url, caBundle: 'Q0E=' },
      failurePolicy: validating.failurePolicy,
      timeoutSeconds: validating.timeoutSeconds,
    });
  });

  it('matches everything, exactly, and exempts the runlevel namespaces', () => {
    const [m, v] = buildRegistrations({ configuration: loaded([]), urlHost: '127.0.0.1' });
    for (const doc of [m, v]) {
      expect(doc['metadata']).toMatchObject({ name: 'hookgate' });
      expect(webhookOf(doc)).toMatchObject({
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }],
        matchPolicy: 'Exact',
        sideEffects: 'NoneOnDryRun',
        admissionReviewVersions: ['v1', 'v1beta1'],
        namespaceSelector: { matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['0', '1'] }] },
      });
      expect(webhookOf(doc).clientConfig.caBundle).toBeUndefined();
    }
    expect(webhookOf(m)).toMatchObject({ reinvocationPolicy: 'Never' });
    expect(webhookOf(v)).not.toHaveProperty('reinvocationPolicy');
  });
});
