// Original file: proto/hookgate/plugin/v1/plugin.proto

import type { Phase as _hookgate_plugin_v1_Phase, Phase__Output as _hookgate_plugin_v1_Phase__Output } from '../../../hookgate/plugin/v1/Phase.js';
import type { BatchedCall as _hookgate_plugin_v1_BatchedCall, BatchedCall__Output as _hookgate_plugin_v1_BatchedCall__Output } from '../../../hookgate/plugin/v1/BatchedCall.js';

export interface AdmitRequest {
  /**
   * Correlation on AdmitStream (echoed in AdmitResponse.id); 0 on unary Admit.
   */
  'id'?: (number);
  /**
   * The webhook name, as in the webhook configuration (`webhooks[].name`).
   */
  'hook'?: (string);
  'phase'?: (_hookgate_plugin_v1_Phase);
  /**
   * 0, or 1 when the hook is reinvoked (reinvocationPolicy: IfNeeded).
   */
  'round'?: (number);
  /**
   * The uid of this call. Authoritative: the uid inside `request`/`base_request` may be another one
   * (the apiserver's, when the gateway forwards the bytes it received).
   */
  'uid'?: (string);
  /**
   * The AdmissionRequest stanza (admission.k8s.io, JSON), with the object as patched so far.
   * Empty when base_request is set.
   */
  'request'?: (Buffer | Uint8Array | string);
  /**
   * Only to plugins whose Describe declares apply_patch: the request as the gateway received it,
   * either the AdmissionRequest stanza or the whole AdmissionReview (then its `request` field is the
   * stanza). Apply `patch` to its `object` to get the object as patched so far.
   */
  'baseRequest'?: (Buffer | Uint8Array | string);
  /**
   * With base_request: the RFC 6902 JSON Patch (JSON array) from base_request's object to the current
   * object. Empty or `[]` while the object is unchanged.
   */
  'patch'?: (Buffer | Uint8Array | string);
  /**
   * Time the gateway waits for the answer, in ms (informational: the gateway enforces it).
   */
  'timeoutMs'?: (number);
  /**
   * The AdmissionReview version the hook accepts ("v1" or "v1beta1"), informational.
   */
  'reviewVersion'?: (string);
  /**
   * Optional, with base_request: base_request's AdmissionRequest stanza without `object` and
   * `oldObject` (JSON), a few hundred bytes. A plugin may read the request's metadata from it and
   * parse base_request only when the handler needs an object; the values are those of base_request
   * (its uid aside: `uid` is authoritative).
   */
  'requestHead'?: (Buffer | Uint8Array | string);
  /**
   * Only to plugins whose Describe declares admit_batch, and only on AdmitStream: several hooks of
   * one phase called together (validating hooks, which run concurrently). The request fields above
   * (request, or base_request + patch + request_head, and phase) are shared by every entry; `id`,
   * `hook`, `round`, `uid`, `timeout_ms` and `review_version` of this message are unset and each
   * entry carries its own. Answer each entry with its own AdmitResponse (its `id`), as soon as it is
   * ready: the gateway times out, fails and records each entry on its own.
   */
  'batch'?: (_hookgate_plugin_v1_BatchedCall)[];
}

export interface AdmitRequest__Output {
  /**
   * Correlation on AdmitStream (echoed in AdmitResponse.id); 0 on unary Admit.
   */
  'id': (number);
  /**
   * The webhook name, as in the webhook configuration (`webhooks[].name`).
   */
  'hook': (string);
  'phase': (_hookgate_plugin_v1_Phase__Output);
  /**
   * 0, or 1 when the hook is reinvoked (reinvocationPolicy: IfNeeded).
   */
  'round': (number);
  /**
   * The uid of this call. Authoritative: the uid inside `request`/`base_request` may be another one
   * (the apiserver's, when the gateway forwards the bytes it received).
   */
  'uid': (string);
  /**
   * The AdmissionRequest stanza (admission.k8s.io, JSON), with the object as patched so far.
   * Empty when base_request is set.
   */
  'request': (Buffer);
  /**
   * Only to plugins whose Describe declares apply_patch: the request as the gateway received it,
   * either the AdmissionRequest stanza or the whole AdmissionReview (then its `request` field is the
   * stanza). Apply `patch` to its `object` to get the object as patched so far.
   */
  'baseRequest': (Buffer);
  /**
   * With base_request: the RFC 6902 JSON Patch (JSON array) from base_request's object to the current
   * object. Empty or `[]` while the object is unchanged.
   */
  'patch': (Buffer);
  /**
   * Time the gateway waits for the answer, in ms (informational: the gateway enforces it).
   */
  'timeoutMs': (number);
  /**
   * The AdmissionReview version the hook accepts ("v1" or "v1beta1"), informational.
   */
  'reviewVersion': (string);
  /**
   * Optional, with base_request: base_request's AdmissionRequest stanza without `object` and
   * `oldObject` (JSON), a few hundred bytes. A plugin may read the request's metadata from it and
   * parse base_request only when the handler needs an object; the values are those of base_request
   * (its uid aside: `uid` is authoritative).
   */
  'requestHead': (Buffer);
  /**
   * Only to plugins whose Describe declares admit_batch, and only on AdmitStream: several hooks of
   * one phase called together (validating hooks, which run concurrently). The request fields above
   * (request, or base_request + patch + request_head, and phase) are shared by every entry; `id`,
   * `hook`, `round`, `uid`, `timeout_ms` and `review_version` of this message are unset and each
   * entry carries its own. Answer each entry with its own AdmitResponse (its `id`), as soon as it is
   * ready: the gateway times out, fails and records each entry on its own.
   */
  'batch': (_hookgate_plugin_v1_BatchedCall__Output)[];
}
