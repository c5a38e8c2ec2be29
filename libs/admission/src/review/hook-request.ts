/**
 * The AdmissionReview the HTTP bridge POSTs to a hook (§10), shaped like the apiserver's
 * CreateV1AdmissionReview: requestKind/Resource/SubResource always set (the original), dryRun
 * always a boolean, object/oldObject/options always present (null when absent; options null for
 * CONNECT), empty userInfo parts omitted. Keys in the Go struct order, so bodies diff cleanly.
 */
import type { HookCall } from '../types/invoker.js';
import { REVIEW_API_VERSION } from './api-version.js';
import { type AdmissionRequest, type AdmissionReview, type UserInfo } from '../types/review.js';
import { type JsonValue } from '../types/json.js';

function copyUserInfo(info: UserInfo): UserInfo {
  const out: UserInfo = {};
  if (info.username) out.username = info.username;
  if (info.uid) out.uid = info.uid;
  if (info.groups !== undefined && info.groups.length > 0) out.groups = [...info.groups];
  if (info.extra !== undefined && Object.keys(info.extra).length > 0) {
    out.extra = Object.fromEntries(Object.entries(info.extra).map(([k, v]) => [k, [...v]]));
  }
  return out;
}

export function buildHookRequest(request: AdmissionRequest): AdmissionRequest {
  const out: AdmissionRequest = {
    uid: request.uid,
    kind: { ...request.kind },
    resource: { ...request.resource },
  } as AdmissionRequest;
  if (request.subResource) out.subResource = request.subResource;
  out.requestKind = { ...(request.requestKind ?? request.kind) };
  out.requestResource = { ...(request.requestResource ?? request.resource) };
  const requestSubResource = request.requestSubResource ?? request.subResource;
  if (requestSubResource) out.requestSubResource = requestSubResource;
  if (request.name) out.name = request.name;
  if (request.namespace) out.namespace = request.namespace;
  out.operation = request.operation;
  out.userInfo = copyUserInfo(request.userInfo);
  out.object = request.object ?? null;
  out.oldObject = request.oldObject ?? null;
  out.dryRun = request.dryRun === true;
  // The apiserver has no operation options for CONNECT.
  out.options = request.operation === 'CONNECT' ? null : ((request.options ?? null) as JsonValue);
  return out;
}

/** The review to POST for this call, in call.version. */
export function buildHookReview(call: HookCall): AdmissionReview {
  // kind before apiVersion, as Go's TypeMeta encodes them.
  return {
    kind: 'AdmissionReview',
    apiVersion: REVIEW_API_VERSION[call.version],
    request: buildHookRequest(call.request),
  };
}

/** time.Duration.String() for whole seconds: `10s`, `1m0s`, `1h0m0s`, `0s`. */
export function formatGoDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  if (total === 0) return '0s';
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** The `?timeout=` value for a call (§11): whole seconds, rounded up, as a Go duration. */
export const hookTimeoutQuery = (seconds: number): string => formatGoDuration(Math.ceil(seconds));
