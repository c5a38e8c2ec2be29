/**
 * The one sample request tests share: a Pod CREATE as the apiserver sends it, minus the fields
 * a test only adds when it is about them (requestKind, options, ...). Pass overrides to keep a
 * test's own values; spread replaces whole fields, so an overridden `object` is taken as given.
 *
 *   const review = admissionReviewOf(podAdmissionRequest({ uid: 'u-1', namespace: 'shop' }));
 */
import type { AdmissionRequest, AdmissionReview } from '../types/review.js';

/** Pod `web` in namespace `default`, created by `alice`; no secrets in it (tests grep logs for its contents). */
export function podAdmissionRequest(overrides: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    uid: 'pod-create-uid',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    name: 'web',
    namespace: 'default',
    operation: 'CREATE',
    userInfo: { username: 'alice' },
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } } },
    oldObject: null,
    dryRun: false,
    ...overrides,
  };
}

/** The AdmissionReview envelope the apiserver POSTs around a request (v1 unless told). */
export function admissionReviewOf(request: AdmissionRequest, apiVersion = 'admission.k8s.io/v1'): AdmissionReview {
  return { apiVersion, kind: 'AdmissionReview', request };
}
