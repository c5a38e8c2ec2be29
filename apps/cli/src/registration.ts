/**
 * The apiserver-side registrations that send the gateway exactly the requests its hooks can match
 * (docs/architecture.md, "How Hookgate itself is registered"): one MutatingWebhookConfiguration and
 * one ValidatingWebhookConfiguration, each with a webhook for the Fail hooks and one for the Ignore
 * hooks, so that a gateway that is down blocks only what a Fail hook would have blocked.
 *
 * Each webhook's rules are the union of its hooks' rules (plus `registration.reserve` for hooks
 * registered at run time); leases and events reached only through wildcards are subtracted with
 * matchConditions; kube-system, kube-node-lease (configurable) and the runlevel 0/1 namespaces are
 * exempt. matchPolicy Exact (requests arrive in their own version), reinvocationPolicy Never (the
 * gateway reinvokes its own hooks).
 */
import type { LoadedConfiguration } from '@hookgate/config';
import { registrationConditions, type DefaultedWebhook, type Phase } from '@hookgate/admission';
import { admissionPath, registrationScopes } from '@hookgate/gateway/registration';

export interface RegistrationInput {
  readonly configuration: LoadedConfiguration;
  /** Host in the webhook URLs (the admission listener address unless overridden). */
  readonly urlHost: string;
  /** base64 PEM of the CAs the apiserver trusts; absent when unknown. */
  readonly caBundle?: string;
}

export const REGISTRATION_NAME = 'hookgate';
/** The API's limit for timeoutSeconds. */
const MAX_TIMEOUT_SECONDS = 30;
/** `runlevel` 0/1 namespaces hold what the cluster needs to come up (the bootstrapping seed). */
const RUNLEVEL_EXEMPTION = { key: 'runlevel', operator: 'NotIn', values: ['0', '1'] };

export function buildRegistrations(input: RegistrationInput): [Record<string, unknown>, Record<string, unknown>] {
  return [registration(input, 'mutating'), registration(input, 'validating')];
}

function registration(input: RegistrationInput, phase: Phase): Record<string, unknown> {
  const { gateway } = input.configuration;
  const scheme = gateway.admission.tls.disabled ? 'http' : 'https';
  const host = input.urlHost.includes(':') && !input.urlHost.startsWith('[') ? `[${input.urlHost}]` : input.urlHost;
  const base = `${scheme}://${host}:${gateway.admission.port}`;
  const exempt = gateway.registration.exemptNamespaces;
  const namespaceSelector = {
    matchExpressions: [
      RUNLEVEL_EXEMPTION,
      ...(exempt.length > 0 ? [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [...exempt] }] : []),
    ],
  };
  const webhooks = registrationScopes(input.configuration, phase)
    .filter(({ scope }) => scope.rules.length > 0)
    .map(({ scope, hooks, reserved }) => {
      const conditions = registrationConditions(scope);
      return {
        name: `${phase === 'mutating' ? 'mutate' : 'validate'}-${scope.failurePolicy.toLowerCase()}.hookgate.dev`,
        admissionReviewVersions: ['v1', 'v1beta1'],
        clientConfig: {
          url: `${base}${admissionPath(phase, scope.failurePolicy)}`,
          ...(input.caBundle ? { caBundle: input.caBundle } : {}),
        },
        rules: scope.rules,
        ...(conditions.length > 0 ? { matchConditions: conditions } : {}),
        matchPolicy: 'Exact',
        ...(phase === 'mutating' ? { reinvocationPolicy: 'Never' } : {}),
        namespaceSelector,
        // The gateway applies each hook's sideEffects to dryRun requests itself, so they must reach it.
        sideEffects: 'NoneOnDryRun',
        // While the gateway is down, a request fails only if one of its Fail hooks would have failed it.
        failurePolicy: scope.failurePolicy,
        timeoutSeconds: timeoutFor(phase, hooks, reserved),
      };
    });
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: phase === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name: REGISTRATION_NAME, labels: { 'app.kubernetes.io/name': 'hookgate' } },
    webhooks,
  };
}

/**
 * Room for the slowest hook, within the API's 30 s: mutating hooks run one after another (their
 * sum), validating ones side by side (the longest), plus a second for the gateway itself. Hooks
 * registered at run time may take up to 30 s, so a reserve gets the whole 30.
 */
function timeoutFor(phase: Phase, hooks: readonly DefaultedWebhook[], reserved: boolean): number {
  if (reserved) return MAX_TIMEOUT_SECONDS;
  const seconds = hooks.map((h) => h.timeoutSeconds);
  const inner = phase === 'mutating' ? seconds.reduce((a, b) => a + b, 0) : Math.max(0, ...seconds);
  return Math.min(MAX_TIMEOUT_SECONDS, Math.max(1, inner + 1));
}
