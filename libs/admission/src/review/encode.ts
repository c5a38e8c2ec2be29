/**
 * Our answer to the apiserver, in the AdmissionReview version it sent: response.uid echoes the
 * request, the patch travels as base64 of compact JSON with patchType JSONPatch, and empty
 * warnings/annotations are left out (Go's omitempty), so the wire form matches a Go webhook's.
 */
import type { PatchOperation } from '../types/patch-operation.js';
import { encodeBase64Text } from './base64.js';
import { REVIEW_API_VERSION } from './api-version.js';
import { type AdmissionResponse, type AdmissionReview, type ReviewVersion, type Status } from '../types/review.js';

export interface ReviewOutcome {
  readonly allowed: boolean;
  readonly status?: Status;
  readonly patch?: readonly PatchOperation[];
  readonly warnings?: readonly string[];
  readonly auditAnnotations?: Readonly<Record<string, string>>;
}

export function encodeReview(version: ReviewVersion, uid: string, outcome: ReviewOutcome): AdmissionReview {
  const response: AdmissionResponse = { uid, allowed: outcome.allowed };
  if (outcome.status !== undefined) response.status = { ...outcome.status };
  if (outcome.patch !== undefined && outcome.patch.length > 0) {
    response.patch = encodeBase64Text(JSON.stringify(outcome.patch));
    response.patchType = 'JSONPatch';
  }
  if (outcome.auditAnnotations !== undefined && Object.keys(outcome.auditAnnotations).length > 0) {
    response.auditAnnotations = { ...outcome.auditAnnotations };
  }
  if (outcome.warnings !== undefined && outcome.warnings.length > 0) response.warnings = [...outcome.warnings];
  return { apiVersion: REVIEW_API_VERSION[version], kind: 'AdmissionReview', response };
}
