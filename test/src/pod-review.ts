import { admissionReviewOf, podAdmissionRequest } from '@hookgate/admission/testing';
import type { AdmissionRequest } from '@hookgate/admission';

/**
 * A Pod CREATE AdmissionReview as the apiserver sends it, with request kinds, options and an
 * annotation the logs must never show (tests grep the logs for its value). Overrides are wire
 * values: tests may send `undefined` or odd shapes on purpose.
 */
export function podCreateReview(overrides: Record<string, unknown> = {}, apiVersion = 'admission.k8s.io/v1') {
  const request = podAdmissionRequest({
    uid: 'b7f3c5de-0b3e-4a1f-9d2c-5f1e2a3b4c5d',
    requestKind: { group: '', version: 'v1', kind: 'Pod' },
    requestResource: { group: '', version: 'v1', resource: 'pods' },
    userInfo: { username: 'alice', groups: ['system:authenticated'] },
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web',
        namespace: 'default',
        labels: { app: 'web' },
        annotations: { secret: 'do-not-log-this-value' },
      },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    },
    options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    ...(overrides as Partial<AdmissionRequest>),
  });
  return admissionReviewOf(request, apiVersion);
}

/** The same review for a CREATE of another core v1 resource (`kind` of `resource`); overrides as above. */
export function createReviewOf(resource: string, kind: string, overrides: Record<string, unknown> = {}) {
  return podCreateReview({
    kind: { group: '', version: 'v1', kind },
    resource: { group: '', version: 'v1', resource },
    requestKind: undefined,
    requestResource: undefined,
    ...overrides,
  });
}
