import type { ReviewVersion } from '../types/review.js';

/** The apiVersion an AdmissionReview of each version carries. */
export const REVIEW_API_VERSION: Record<ReviewVersion, string> = {
  v1: 'admission.k8s.io/v1',
  v1beta1: 'admission.k8s.io/v1beta1',
};
