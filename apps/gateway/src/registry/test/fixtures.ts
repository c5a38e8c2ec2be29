/** Test data for the registry: webhook configuration documents, static sources, a manual clock, temp dirs. */
import { expect } from 'vitest';
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

/**
 * Only for registry.e2e.test.ts, which the served-state change rewrites: new tests import tempDir
 * from @hookgate/plugin-sdk/testing and poll with expect.poll. Delete both with that file's rewrite.
 */
export { tempDir } from '@hookgate/plugin-sdk/testing';
export const eventually = (check: () => boolean | Promise<boolean>, what: string, timeout = 5000): Promise<void> =>
  expect.poll(check, { timeout, message: what }).toBe(true);
