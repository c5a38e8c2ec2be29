/**
 * admission.k8s.io v1 and v1beta1 wire types. Field names are the API's, verbatim.
 * v1beta1 has the same request/response shape; only verification is laxer (see review/verify.ts).
 */
import type { JsonObject, JsonValue } from './json.js';

export type ReviewVersion = 'v1' | 'v1beta1';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: Operation;
  userInfo: UserInfo;
  object?: JsonValue;
  oldObject?: JsonValue;
  dryRun?: boolean;
  options?: JsonValue;
}

/** metav1.Status as it appears in response.status. */
export interface Status {
  apiVersion?: string;
  kind?: string;
  metadata?: JsonObject;
  status?: string;
  message?: string;
  reason?: string;
  details?: JsonValue;
  code?: number;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: Status;
  /** base64 of a JSON Patch document, on the wire. */
  patch?: string;
  patchType?: string;
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

export interface AdmissionReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}
