/**
 * The two apiserver-side registrations that send every admission request to the gateway
 * (architecture.md, "How Hookgate itself is registered"): match-everything rules, matchPolicy Exact
 * (requests arrive in their own version), reinvocationPolicy Never (the gateway reinvokes its own
 * hooks), and a namespaceSelector that exempts the runlevel "0"/"1" namespaces so a broken gateway
 * cannot block its own recovery.
 */
import type { LoadedConfiguration } from '@hookgate/config';
import type { DefaultedWebhook } from '@hookgate/admission';

export interface RegistrationInput {
  readonly configuration: LoadedConfiguration;
  /** Host in the webhook URLs (the admission listener address unless overridden). */
  readonly urlHost: string;
  /** base64 PEM of the CA that signs the serving certificate; absent when unknown. */
  readonly caBundle?: string;
}

export const REGISTRATION_NAME = 'hookgate';
const MAX_TIMEOUT_SECONDS = 30;

export function buildRegistrations(input: RegistrationInput): [Record<string, unknown>, Record<string, unknown>] {
  const { gateway } = input.configuration;
  const scheme = gateway.admission.tls.disabled ? 'http' : 'https';
  const host = input.urlHost.includes(':') && !input.urlHost.startsWith('[') ? `[${input.urlHost}]` : input.urlHost;
  const base = `${scheme}://${host}:${gateway.admission.port}`;
  const hooks = (kind: string) =>
    input.configuration.webhookConfigurations.filter((c) => c.kind === kind).flatMap((c) => c.webhooks);
  const mutating = hooks('MutatingWebhookConfiguration');
  const validating = hooks('ValidatingWebhookConfiguration');
  return [
    registration(
      'MutatingWebhookConfiguration',
      'mutate.hookgate.dev',
      `${base}/mutate`,
      input.caBundle,
      mutating,
      sum(mutating),
      true,
    ),
    registration(
      'ValidatingWebhookConfiguration',
      'validate.hookgate.dev',
      `${base}/validate`,
      input.caBundle,
      validating,
      max(validating),
      false,
    ),
  ];
}

function registration(
  kind: string,
  name: string,
  url: string,
  caBundle: string | undefined,
  hooks: readonly DefaultedWebhook[],
  innerSeconds: number,
  mutating: boolean,
): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name: REGISTRATION_NAME, labels: { 'app.kubernetes.io/name': 'hookgate' } },
    webhooks: [
      {
        name,
        admissionReviewVersions: ['v1', 'v1beta1'],
        clientConfig: { url, ...(caBundle ? { caBundle } : {}) },
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }],
        matchPolicy: 'Exact',
        ...(mutating ? { reinvocationPolicy: 'Never' } : {}),
        namespaceSelector: { matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['0', '1'] }] },
        // The gateway applies each hook's sideEffects to dryRun requests itself, so they must reach it.
        sideEffects: 'NoneOnDryRun',
        // While the gateway is down, requests fail if any of its hooks would have failed them.
        failurePolicy: hooks.some((h) => h.failurePolicy === 'Fail') ? 'Fail' : 'Ignore',
        // Room for the chain (mutating hooks run one after another), within the API's 30 s limit.
        timeoutSeconds: Math.min(MAX_TIMEOUT_SECONDS, Math.max(1, innerSeconds + 1)),
      },
    ],
  };
}

const sum = (hooks: readonly DefaultedWebhook[]) => hooks.reduce((total, h) => total + h.timeoutSeconds, 0);
const max = (hooks: readonly DefaultedWebhook[]) => hooks.reduce((m, h) => Math.max(m, h.timeoutSeconds), 0);
