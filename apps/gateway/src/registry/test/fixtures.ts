/** Test data for the registry: webhook configuration documents, static sources, a manual clock, temp dirs. */
import { defaultConfiguration } from '@hookgate/admission';
import type { ConfigKind, DefaultedConfiguration, WebhookConfiguration, WebhookSpec } from '@hookgate/admission';
import type { StaticSources } from '../types.js';

export function webhook(
  name: string,
  plugin: string,
  failurePolicy: 'Fail' | 'Ignore' = 'Fail',
  extra: Partial<WebhookSpec> = {},
): WebhookSpec {
  return {
    name,
    clientConfig: { plugin },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    failurePolicy,
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

export function configuration(
  name: string,
  webhooks: WebhookSpec[],
  kind: ConfigKind = 'ValidatingWebhookConfiguration',
): WebhookConfiguration {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks };
}

/** A registration payload: JSON is YAML. */
export const payload = (...documents: WebhookConfiguration[]): string =>
  documents.map((d) => JSON.stringify(d)).join('\n---\n');

export function defaulted(doc: WebhookConfiguration): DefaultedConfiguration {
  return defaultConfiguration(doc);
}

export function staticSources(
  plugins: { name: string; target: string }[],
  documents: WebhookConfiguration[],
): StaticSources {
  return { plugins, configurations: documents.map(defaulted) };
}

export interface ManualClock {
  readonly now: () => number;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}
