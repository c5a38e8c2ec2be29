/**
 * A fake webhook whose behaviour is chosen by name (the URL path's last segment, or the plugin
 * name), like the apiserver's testing/webhook_server.go plus the handlers of its reinvocation
 * integration test. Pure: AdmissionReview in, HTTP answer out, so the same behaviours serve the
 * chain's unit tests (through the real response verification) and a real HTTP server in the
 * gateway's end-to-end tests.
 */
import type { AdmissionResponse, AdmissionReview, Status } from '../types/review.js';
import type { JsonObject, JsonValue } from '../types/json.js';
import { encodeBase64Text } from '../review/index.js';

export interface ScriptedHttpResponse {
  readonly status: number;
  readonly contentType?: string;
  readonly body: string;
}

/** `hang`: never answer (the caller's deadline must fire). */
export type ScriptedReply =
  { readonly kind: 'http'; readonly response: ScriptedHttpResponse } | { readonly kind: 'hang' };

type Respond = (review: AdmissionReview) => ScriptedReply;

const JSON_TYPE = 'application/json';

/** Answer in the review's own version, echoing its uid: what a well-behaved webhook sends. */
function answer(review: AdmissionReview, response: Omit<AdmissionResponse, 'uid'>): ScriptedReply {
  const body = {
    apiVersion: review.apiVersion,
    kind: 'AdmissionReview',
    response: { uid: review.request?.uid ?? '', ...response },
  };
  return { kind: 'http', response: { status: 200, contentType: JSON_TYPE, body: JSON.stringify(body) } };
}

const allow = (review: AdmissionReview, extra: Partial<AdmissionResponse> = {}): ScriptedReply =>
  answer(review, { allowed: true, ...extra });
const deny = (review: AdmissionReview, status?: Status, extra: Partial<AdmissionResponse> = {}): ScriptedReply =>
  answer(review, { allowed: false, ...(status !== undefined ? { status } : {}), ...extra });
const patch = (review: AdmissionReview, ops: string, extra: Partial<AdmissionResponse> = {}): ScriptedReply =>
  answer(review, { allowed: true, patchType: 'JSONPatch', patch: encodeBase64Text(ops), ...extra });
const http = (status: number, body: string, contentType?: string): ScriptedReply => ({
  kind: 'http',
  response: contentType === undefined ? { status, body } : { status, body, contentType },
});

function labelsOf(review: AdmissionReview): Record<string, JsonValue> {
  const object = review.request?.object;
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return {};
  const metadata = (object as JsonObject)['metadata'];
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const labels = (metadata as JsonObject)['labels'];
  return labels !== null && typeof labels === 'object' && !Array.isArray(labels) ? labels : {};
}

const BEHAVIOURS: Readonly<Record<string, Respond>> = {
  // --- apiserver testing/webhook_server.go
  allow: (r) => allow(r, { auditAnnotations: { key1: 'value1' } }),
  noop: (r) => allow(r),
  disallow: (r) => deny(r, { code: 403 }),
  disallowReason: (r) => deny(r, { message: 'you shall not pass', code: 403 }),
  shouldNotBeCalled: (r) => deny(r, { message: "doesn't expect labels to match object selector", code: 403 }),
  removeLabel: (r) =>
    patch(r, '[{"op": "remove", "path": "/metadata/labels/remove"}]', { auditAnnotations: { key1: 'value1' } }),
  addLabel: (r) => patch(r, '[{"op": "add", "path": "/metadata/labels/added", "value": "test"}]'),
  invalidMutation: (r) => patch(r, '[{"op": "add", "CORRUPTED_KEY":}]'),
  // Newer tables' "match & invalid patch": a patch cut short, which does not decode.
  invalidPatch: (r) => patch(r, '[{"op": "add", "path": "/metadata/labels/added", "value": "test"}'),
  nilResponse: (r) => http(200, JSON.stringify({ apiVersion: r.apiVersion, kind: 'AdmissionReview' }), JSON_TYPE),
  invalidAnnotation: (r) => allow(r, { auditAnnotations: { 'invalid*key': 'value1' } }),
  internalErr: () => http(500, 'webhook internal server error\n', 'text/plain; charset=utf-8'),
  invalidReq: () => http(101, 'webhook invalid request'),
  invalidResp: () => http(200, 'webhook invalid response', JSON_TYPE),

  // --- reinvocation_test.go handlers (case-sensitive names, as there)
  settrue: (r) => patch(r, '[{"op": "replace", "path": "/metadata/labels/fight", "value": "true"}]'),
  setfalse: (r) => patch(r, '[{"op": "replace", "path": "/metadata/labels/fight", "value": "false"}]'),
  addlabel: (r) =>
    labelsOf(r)['a'] === 'true' ? allow(r) : patch(r, '[{"op": "add", "path": "/metadata/labels/a", "value": "true"}]'),
  conditionaladdlabel: (r) =>
    Object.hasOwn(labelsOf(r), 'a')
      ? patch(r, '[{"op": "add", "path": "/metadata/labels/b", "value": "true"}]')
      : allow(r),

  // --- Hookgate's additions
  deny: (r) => deny(r),
  denyWithReason: (r) => deny(r, { reason: 'NotAllowedByPolicy' }),
  denyWithCode: (r) =>
    deny(r, { code: 422, reason: 'Invalid', message: 'spec.replicas must be odd', status: 'Failure' }),
  denyWithWarnings: (r) =>
    deny(
      r,
      { code: 403, message: 'no' },
      { warnings: ['denied: first', 'denied: second'], auditAnnotations: { reason: 'no' } },
    ),
  allowWithWarnings: (r) =>
    allow(r, { warnings: ['first warning', 'first warning', '', 'bad\u0007warning', 'second warning'] }),
  timeout: () => ({ kind: 'hang' }),
  wrongUid: (r) => ({
    kind: 'http',
    response: {
      status: 200,
      contentType: JSON_TYPE,
      body: JSON.stringify({
        apiVersion: r.apiVersion,
        kind: 'AdmissionReview',
        response: { uid: 'wrong-uid', allowed: true },
      }),
    },
  }),
  unappliablePatch: (r) => patch(r, '[{"op": "remove", "path": "/metadata/labels/nonexistent"}]'),
  emptyPatch: (r) => patch(r, '[]'),
  // A kind no scheme has: the apiserver's decode of the patched object fails at once.
  changeKind: (r) => patch(r, '[{"op": "replace", "path": "/kind", "value": "NoSuchKind"}]'),
  mergePatch: (r) =>
    answer(r, { allowed: true, patchType: 'MergePatch', patch: encodeBase64Text('{"metadata":{"labels":{"m":"1"}}}') }),
  // A valid JSON Patch labelled with another type: decodes, then fails the patchType check.
  mislabeledPatch: (r) =>
    answer(r, {
      allowed: true,
      patchType: 'MergePatch',
      patch: encodeBase64Text('[{"op":"add","path":"/metadata/labels/m","value":"1"}]'),
    }),
  'patch-add-label': (r) => patch(r, '[{"op": "add", "path": "/metadata/labels/hookgate", "value": "added"}]'),
};

/** Every behaviour name the fake webhook knows. */
export const SCRIPTED_BEHAVIOURS: readonly string[] = Object.freeze(Object.keys(BEHAVIOURS));

/** The fake webhook's answer for `behaviour` (unknown names get Go's `404 page not found`). */
export function respondAsWebhook(behaviour: string, review: AdmissionReview): ScriptedReply {
  const respond = Object.hasOwn(BEHAVIOURS, behaviour) ? BEHAVIOURS[behaviour] : undefined;
  if (respond === undefined) return http(404, '404 page not found\n', 'text/plain; charset=utf-8');
  return respond(review);
}
