/** Multi-document configuration YAML for the gateway under test: a GatewayConfiguration plus webhook configurations. */
import { stringify } from 'yaml';

export interface GatewayConfigOptions {
  readonly plugins?: readonly { name: string; target: string; stream?: boolean }[];
  readonly namespaces?: readonly { name: string; labels: Record<string, string> }[];
  readonly workers?: number;
  readonly extra?: Record<string, unknown>;
}

export function gatewayConfigYaml(
  webhookConfigurations: readonly unknown[],
  options: GatewayConfigOptions = {},
): string {
  const gateway = {
    apiVersion: 'hookgate.dev/v1alpha1',
    kind: 'GatewayConfiguration',
    workers: options.workers ?? 1,
    plugins: options.plugins ?? [],
    namespaces: options.namespaces ?? [{ name: 'default', labels: {} }],
    ...options.extra,
  };
  return [gateway, ...webhookConfigurations].map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}

/** A webhook configuration with hooks of one phase, reached at `url` (the bridge). */
export function webhookConfiguration(
  phase: 'mutating' | 'validating',
  name: string,
  hooks: readonly Record<string, unknown>[],
): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: phase === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: hooks.map((h) => ({
      rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      ...h,
    })),
  };
}

/** Rules matching CREATE of one core v1 resource: one gateway serves several scenarios, one resource each. */
export const createRulesFor = (resource: string) => [
  { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: [resource] },
];

/**
 * The bridge hooks that fail, at `origin`'s test webhook server: a denial on secrets, and hooks that
 * time out (1 s) under failurePolicy Fail on services and under Ignore on endpoints.
 */
export function failingBridgeHooks(origin: string): Record<string, unknown>[] {
  const url = (behaviour: string) => ({ url: `${origin}/${behaviour}` });
  return [
    { name: 'deny.example.com', clientConfig: url('disallowReason'), rules: createRulesFor('secrets') },
    {
      name: 'hang-fail.example.com',
      clientConfig: url('timeout'),
      rules: createRulesFor('services'),
      timeoutSeconds: 1,
      failurePolicy: 'Fail',
    },
    {
      name: 'hang-ignore.example.com',
      clientConfig: url('timeout'),
      rules: createRulesFor('endpoints'),
      timeoutSeconds: 1,
      failurePolicy: 'Ignore',
    },
  ];
}
