/**
 * A webhook as defaultConfiguration leaves it (every default filled in), for tests that feed
 * compileHooks directly and choose only the fields they are about.
 */
import type { DefaultedWebhook } from '../types/webhook-configuration.js';

/** Matches everything, fails closed, v1 reviews, 10 s; url `https://<name>/` unless overridden. */
export function defaultedWebhook(name: string, overrides: Partial<DefaultedWebhook> = {}): DefaultedWebhook {
  return {
    name,
    clientConfig: { url: `https://${name}/` },
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    sideEffects: 'None',
    timeoutSeconds: 10,
    admissionReviewVersions: ['v1'],
    reinvocationPolicy: 'Never',
    matchConditions: [],
    ...overrides,
  };
}
