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
