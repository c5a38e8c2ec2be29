/**
 * A hook's HTTP answer → HookReply, exactly as the apiserver judges it (§15): the REST client's
 * handling of non-2xx statuses (a metav1.Status body wins, else a generic text per code), the JSON
 * decode of the AdmissionReview (Go's type errors, base64 `patch`), then VerifyAdmissionResponse
 * (response present, uid, apiVersion/kind, patch/patchType pairing; v1beta1 is lenient).
 * Every failure's `message` is the reason after `failed calling webhook "<name>": `.
 */
import type { HookAnswer, HookCall, HookReply } from '../types/invoker.js';
import type { HookFailure, HookFailureKind } from '../types/hook-failure.js';
import { goQuote } from '../errors/go-quote.js';
import { isPlainObject as isObject, ownMember as own, setOwnMember } from '../own-members.js';
import { checkGoJsonSyntax, GO_MAX_NESTING_DEPTH } from '../patch/go-json.js';
import { decodeBase64Text } from './base64.js';
import { isJsonBuffer, yamlBodyToValue } from './yaml-body.js';
import { jsonTypeName, notAnObjectError } from '../patch/go-decode-errors.js';
import type { JsonObject, JsonValue } from '../types/json.js';
import type { Status } from '../types/review.js';

export interface HookHttpResponse {
  readonly httpStatus: number;
  /** The Content-Type header, if any. */
  readonly contentType?: string;
  readonly body: string;
  /** The URL that was POSTed, including `?timeout=`. */
  readonly url: string;
}

/** client-go caps the body text it quotes in unstructured errors. */
const MAX_UNSTRUCTURED_TEXT_BYTES = 2048;

const V1_GVK = 'admission.k8s.io/v1, Kind=AdmissionReview';
/** The anonymous struct Go's meta factory decodes apiVersion/kind into, as %T prints it. */

const failure = (kind: HookFailureKind, message: string, code: number, status?: Status): HookReply => ({
  ok: false,
  failure: status === undefined ? { kind, message, code } : { kind, message, code, status },
});

const callFailed = (reason: string): string => `failed to call webhook: ${reason}`;
const invalidResponse = (reason: string): HookReply =>
  failure('invalid-response', `received invalid webhook response: ${reason}`, 503);

// ---------------------------------------------------------------- transport helpers

/** A transport error (refused, reset, TLS, malformed HTTP): `failed to call webhook: Post "<url>": <err>`. */
export function transportFailure(url: string, goLikeError: string): HookFailure {
  return { kind: 'transport', message: callFailed(`Post ${goQuote(url)}: ${goLikeError}`), code: 503 };
}

/** The hook's deadline passed: `failed to call webhook: Post "<url>": context deadline exceeded`. */
export function timeoutFailure(url: string): HookFailure {
  return { kind: 'timeout', message: callFailed(`Post ${goQuote(url)}: context deadline exceeded`), code: 503 };
}

// ---------------------------------------------------------------- media types (mime.ParseMediaType)

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The lower-cased media type, or Go's error text for an unparsable Content-Type. */
function parseMediaType(value: string): { ok: true; mediaType: string } | { ok: false; error: string } {
  const base = (value.split(';')[0] ?? '').trim().toLowerCase();
  if (base === '') return { ok: false, error: 'mime: no media type' };
  const slash = base.indexOf('/');
  if (slash < 0)
    return TOKEN.test(base)
      ? { ok: false, error: 'mime: expected slash after first token' }
      : { ok: false, error: 'mime: expected token after slash' };
  const major = base.slice(0, slash);
  const minor = base.slice(slash + 1);
  if (!TOKEN.test(major)) return { ok: false, error: 'mime: no media type' };
  if (!TOKEN.test(minor))
    return {
      ok: false,
      error: minor === '' ? 'mime: expected token after slash' : 'mime: unexpected content after media subtype',
    };
  return { ok: true, mediaType: base };
}

/** client-go isTextResponse: no Content-Type, or a parsable `text/*`. */
function isTextResponse(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType === '') return true;
  const parsed = parseMediaType(contentType);
  return parsed.ok && parsed.mediaType.startsWith('text/');
}

// ---------------------------------------------------------------- non-2xx (rest.Request.transformResponse)

/** apierrors.NewGenericServerResponse for a POST with no resource: reason and message per code. */
function genericServerResponse(code: number, serverMessage: string): Status {
  let reason = 'Unknown';
  let message = `the server responded with the status code ${code} but did not return more information`;
  switch (code) {
    case 409:
      reason = 'AlreadyExists';
      message = 'the server reported a conflict';
      break;
    case 404:
      reason = 'NotFound';
      message = 'the server could not find the requested resource';
      break;
    case 400:
      reason = 'BadRequest';
      message = 'the server rejected our request for an unknown reason';
      break;
    case 401:
      reason = 'Unauthorized';
      message = 'the server has asked for the client to provide credentials';
      break;
    case 403:
      reason = 'Forbidden';
      message = serverMessage;
      break;
    case 406:
      reason = 'NotAcceptable';
      message =
        serverMessage === '' || serverMessage === 'unknown'
          ? 'the server was unable to respond with a content type that the client supports'
          : serverMessage;
      break;
    case 415:
      reason = 'UnsupportedMediaType';
      message = serverMessage;
      break;
    case 405:
      reason = 'MethodNotAllowed';
      message = 'the server does not allow this method on the requested resource';
      break;
    case 422:
      reason = 'Invalid';
      message = 'the server rejected our request due to an error in our request';
      break;
    case 503:
      reason = 'ServiceUnavailable';
      message = 'the server is currently unable to handle the request';
      break;
    case 504:
      reason = 'Timeout';
      message =
        'the server was unable to return a response in the time allotted, but may still be processing the request';
      break;
    case 429:
      reason = 'TooManyRequests';
      message = 'the server has received too many requests and has asked us to try again later';
      break;
    default:
      if (code >= 500) {
        reason = 'InternalError';
        message = `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`;
      }
  }
  return {
    status: 'Failure',
    message,
    reason,
    details: { causes: [{ reason: 'UnexpectedServerResponse', message: serverMessage }] },
    code,
  };
}

/** The first `limit` UTF-8 bytes of `text` (a cut multi-byte character becomes U+FFFD, as Go would print it). */
function capBytes(text: string, limit: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return text;
  return new TextDecoder().decode(bytes.subarray(0, limit));
}

/** Result.Error(): a body that decodes as a Status with status Failure is the error itself. */
function failureStatusFromBody(body: string): Status | undefined {
  // An error page (HTML, text) is not worth a YAML parse: only a body that names kind Status can be one.
  if (!isJsonBuffer(body) && !/\bkind\s*:\s*["']?Status\b/.test(body)) return undefined;
  const read = readBody(body);
  if (!read.ok) return undefined;
  const parsed = read.value;
  if (!isObject(parsed) || own(parsed, 'kind') !== 'Status') return undefined;
  // Status is registered unversioned, so any apiVersion decodes, except one ParseGroupVersion refuses.
  const apiVersion = own(parsed, 'apiVersion');
  if (typeof apiVersion === 'string' && splitApiVersion(apiVersion) === undefined) return undefined;
  const decoded = decodeStatus(parsed, 'Status');
  if (!decoded.ok || decoded.status.status !== 'Failure') return undefined;
  return decoded.status;
}

function verifyHttpStatus(input: HookHttpResponse): HookReply | undefined {
  const code = input.httpStatus;
  if (code >= 200 && code <= 206) return undefined;
  const contentType = input.contentType === '' ? undefined : input.contentType;
  if (contentType !== undefined) {
    const parsed = parseMediaType(contentType);
    if (!parsed.ok) return failure('http-status', callFailed(`Internal error occurred: ${parsed.error}`), 500);
  }
  const fromBody = input.body.length > 0 ? failureStatusFromBody(input.body) : undefined;
  if (fromBody !== undefined) {
    const statusCode = typeof fromBody.code === 'number' && fromBody.code !== 0 ? fromBody.code : code;
    return failure('http-status', callFailed(fromBody.message ?? ''), statusCode, fromBody);
  }
  const serverMessage = isTextResponse(contentType)
    ? capBytes(input.body, MAX_UNSTRUCTURED_TEXT_BYTES).trim()
    : 'unknown';
  const generic = genericServerResponse(code, serverMessage);
  return failure('http-status', callFailed(generic.message ?? ''), code);
}

// ---------------------------------------------------------------- 2xx body: Go's JSON decode of an AdmissionReview

type Obj = Record<string, unknown>;

/** `json: cannot unmarshal <t> into Go struct field <Struct>.<path> of type <goType>`. */
const typeError = (value: unknown, struct: string, path: string, goType: string): string =>
  `json: cannot unmarshal ${jsonTypeName(value)} into Go struct field ${struct}.${path} of type ${goType}`;

type Decoded<T> = { ok: true } & T;
type DecodeError = { ok: false; error: string };

const STATUS_STRINGS = new Set(['apiVersion', 'kind', 'status', 'message', 'reason']);

/** metav1.Status as Go decodes it; the first wrong type in document order is the error. */
function decodeStatus(v: Obj, pathPrefix: string): Decoded<{ status: Status }> | DecodeError {
  const status: Status = {};
  const path = (k: string): string => (pathPrefix === 'Status' ? k : `${pathPrefix}.${k}`);
  const fail = (error: string): DecodeError => ({ ok: false, error });
  for (const [key, value] of Object.entries(v)) {
    if (value === null) continue;
    if (STATUS_STRINGS.has(key)) {
      if (typeof value !== 'string') return fail(typeError(value, 'Status', path(key), 'string'));
      status[key as 'apiVersion' | 'kind' | 'status' | 'message' | 'reason'] = value;
    } else if (key === 'code') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
        // strconv.ParseInt failed or overflowed: Go names the literal (`number 3000000000`).
        const what = typeof value === 'number' ? `number ${String(value)}` : jsonTypeName(value);
        return fail(`json: cannot unmarshal ${what} into Go struct field Status.${path('code')} of type int32`);
      }
      status.code = value;
    } else if (key === 'metadata') {
      if (!isObject(value)) return fail(typeError(value, 'Status', path('metadata'), 'v1.ListMeta'));
      status.metadata = value as JsonObject;
    } else if (key === 'details') {
      if (!isObject(value)) return fail(typeError(value, 'Status', path('details'), 'v1.StatusDetails'));
      status.details = value as JsonValue;
    }
  }
  return { ok: true, status };
}

interface WireResponse {
  uid: string;
  allowed: boolean;
  status?: Status;
  /** Decoded bytes of response.patch, as text. */
  patch: string;
  /** undefined when absent or null (Go's nil pointer). */
  patchType?: string;
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

interface WireReview {
  group: string;
  version: string;
  kind: string;
  response?: WireResponse;
}

/** schema.ParseGroupVersion, as TypeMeta.GroupVersionKind uses it. */
function splitApiVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return undefined;
}

/**
 * One field of AdmissionResponse: its Go type and how its JSON value is stored. A wrong type is the
 * error Go's decoder saves; it keeps the first one in document order (saveError).
 */
type FieldDecoder = (value: unknown, response: WireResponse) => string | undefined;

const RESPONSE = 'AdmissionResponse';

const RESPONSE_FIELDS = new Map<string, FieldDecoder>(
  Object.entries({
    uid: (value, r) => {
      if (typeof value !== 'string') return typeError(value, RESPONSE, 'response.uid', 'types.UID');
      r.uid = value;
      return undefined;
    },
    allowed: (value, r) => {
      if (typeof value !== 'boolean') return typeError(value, RESPONSE, 'response.allowed', 'bool');
      r.allowed = value;
      return undefined;
    },
    status: (value, r) => {
      if (!isObject(value)) return typeError(value, RESPONSE, 'response.status', 'v1.Status');
      const decoded = decodeStatus(value, 'response.status');
      if (!decoded.ok) return decoded.error;
      r.status = decoded.status;
      return undefined;
    },
    patch: (value, r) => {
      if (typeof value !== 'string') return typeError(value, RESPONSE, 'response.patch', '[]uint8');
      const bytes = decodeBase64Text(value);
      if (!bytes.ok) return bytes.error;
      r.patch = bytes.text;
      return undefined;
    },
    patchType: (value, r) => {
      if (typeof value !== 'string') return typeError(value, RESPONSE, 'response.patchType', 'v1.PatchType');
      r.patchType = value;
      return undefined;
    },
    auditAnnotations: (value, r) => {
      // Map keys are not part of the field path in the apiserver's decoder (sigs.k8s.io/json).
      if (!isObject(value)) return typeError(value, RESPONSE, 'response.auditAnnotations', 'map[string]string');
      const out: Record<string, string> = {};
      for (const [key, v] of Object.entries(value)) {
        if (v !== null && typeof v !== 'string') return typeError(v, RESPONSE, 'response.auditAnnotations', 'string');
        // defineProperty: a key named `__proto__` is an annotation like any other, as in Go's map.
        setOwnMember(out, key, v ?? '');
      }
      r.auditAnnotations = out;
      return undefined;
    },
    warnings: (value, r) => {
      if (!Array.isArray(value)) return typeError(value, RESPONSE, 'response.warnings', '[]string');
      const out: string[] = [];
      for (const w of value) {
        if (w !== null && typeof w !== 'string') return typeError(w, RESPONSE, 'response.warnings', 'string');
        out.push(w ?? '');
      }
      r.warnings = out;
      return undefined;
    },
  } satisfies Record<string, FieldDecoder>),
);

function decodeResponse(v: Obj): Decoded<{ response: WireResponse }> | DecodeError {
  const response: WireResponse = { uid: '', allowed: false, patch: '' };
  // Object key order is the document's (none of these names is an integer), so the first error is Go's.
  for (const [key, value] of Object.entries(v)) {
    const decode = RESPONSE_FIELDS.get(key);
    if (decode === undefined || value === null) continue;
    const error = decode(value, response);
    if (error !== undefined) return { ok: false, error };
  }
  return { ok: true, response };
}

/** The body's value as the client's codec reads it: JSON when it starts with `{`, else YAML. */
function readBody(body: string): { ok: true; value: unknown } | DecodeError {
  if (!isJsonBuffer(body)) {
    const converted = yamlBodyToValue(body);
    // Go's json.Unmarshal of null into a struct leaves it empty.
    return converted.ok ? { ok: true, value: converted.value ?? {} } : converted;
  }
  // JSON.parse accepts what Go's scanner accepts, except nesting deeper than Go's limit, which
  // needs a body longer than that limit: only then, or when the parse fails, is the (slower) Go
  // scanner run, for its verdict and its wording of the error.
  if (body.length <= GO_MAX_NESTING_DEPTH) {
    try {
      return { ok: true, value: JSON.parse(body) as unknown };
    } catch {
      // Go's wording below.
    }
  }
  const syntax = checkGoJsonSyntax(body);
  if (syntax !== undefined) return { ok: false, error: `couldn't get version/kind; json parse error: ${syntax}` };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (e) {
    return {
      ok: false,
      error: `couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

/** The body as the REST client decodes it into an AdmissionReview; Go-worded errors. */
function decodeBody(
  body: string,
  httpStatus: number,
  contentType: string,
): Decoded<{ review: WireReview }> | DecodeError {
  if (body.length === 0) {
    return { ok: false, error: `0-length response with status code: ${httpStatus} and content type: ${contentType}` };
  }
  const read = readBody(body);
  if (!read.ok) return read;
  const parsed = read.value;
  if (!isObject(parsed)) {
    return { ok: false, error: notAnObjectError(parsed) };
  }
  const apiVersion = own(parsed, 'apiVersion') ?? '';
  const kind = own(parsed, 'kind') ?? '';
  if (typeof apiVersion !== 'string') {
    return {
      ok: false,
      error: `couldn't get version/kind; json parse error: ${typeError(apiVersion, '', 'apiVersion', 'string')}`,
    };
  }
  if (typeof kind !== 'string') {
    return {
      ok: false,
      error: `couldn't get version/kind; json parse error: ${typeError(kind, '', 'kind', 'string')}`,
    };
  }
  const gv = splitApiVersion(apiVersion);
  if (gv === undefined) return { ok: false, error: `unexpected GroupVersion string: ${apiVersion}` };
  const review: WireReview = { ...gv, kind };
  const response = own(parsed, 'response');
  if (response !== undefined && response !== null) {
    if (!isObject(response)) {
      return { ok: false, error: typeError(response, 'AdmissionReview', 'response', 'v1.AdmissionResponse') };
    }
    const decoded = decodeResponse(response);
    if (!decoded.ok) return decoded;
    review.response = decoded.response;
  }
  return { ok: true, review };
}

// ---------------------------------------------------------------- VerifyAdmissionResponse

function answerOf(r: WireResponse, patch: string | undefined, patchType: string | undefined): HookAnswer {
  const answer: { -readonly [K in keyof HookAnswer]: HookAnswer[K] } = { allowed: r.allowed };
  if (r.status !== undefined) answer.status = r.status;
  if (patch !== undefined && patch !== '') answer.patch = patch;
  if (patchType !== undefined) answer.patchType = patchType;
  if (r.warnings !== undefined) answer.warnings = r.warnings;
  if (r.auditAnnotations !== undefined) answer.auditAnnotations = r.auditAnnotations;
  return answer;
}

function verifyReview(review: WireReview, call: HookCall): HookReply {
  const r = review.response;
  if (r === undefined) return invalidResponse('webhook response was absent');
  const mutating = call.hook.phase === 'mutating';

  if (call.version === 'v1beta1') {
    // uid, apiVersion/kind and patchType were never checked for v1beta1; a patch is pinned to JSONPatch.
    if (!mutating) return { ok: true, answer: answerOf(r, undefined, undefined) };
    return { ok: true, answer: answerOf(r, r.patch, r.patch.length > 0 ? 'JSONPatch' : undefined) };
  }

  if (r.uid !== call.request.uid) {
    return invalidResponse(`expected response.uid=${goQuote(call.request.uid)}, got ${goQuote(r.uid)}`);
  }
  const gvk = `${review.group}/${review.version}, Kind=${review.kind}`;
  if (gvk !== V1_GVK) return invalidResponse(`expected webhook response of ${V1_GVK}, got ${gvk}`);

  if (mutating) {
    if (r.patch.length > 0 && r.patchType === undefined) {
      return invalidResponse('webhook returned response.patch but not response.patchType');
    }
    if (r.patch.length === 0 && r.patchType !== undefined) {
      return invalidResponse('webhook returned response.patchType but not response.patch');
    }
    if (r.patchType !== undefined && r.patchType.length === 0) {
      return invalidResponse(`webhook returned invalid response.patchType of ""`);
    }
    // An unknown patchType passes here; the chain rejects it as `unsupported patch type` (§12g).
    return { ok: true, answer: answerOf(r, r.patch, r.patchType) };
  }
  if (r.patch.length > 0) return invalidResponse('validating webhook may not return response.patch');
  if (r.patchType !== undefined) return invalidResponse('validating webhook may not return response.patchType');
  return { ok: true, answer: answerOf(r, undefined, undefined) };
}

/** Judges one HTTP answer from a hook. Never throws. */
export function verifyHookResponse(input: HookHttpResponse, call: HookCall): HookReply {
  try {
    const statusFailure = verifyHttpStatus(input);
    if (statusFailure !== undefined) return statusFailure;
    // The REST client assumes its own content type when the header is missing.
    const contentType =
      input.contentType === undefined || input.contentType === '' ? 'application/json' : input.contentType;
    const parsedType = parseMediaType(contentType);
    if (!parsedType.ok) return failure('malformed', callFailed(`Internal error occurred: ${parsedType.error}`), 500);
    const decoded = decodeBody(input.body, input.httpStatus, contentType);
    if (!decoded.ok) return failure('malformed', callFailed(decoded.error), 503);
    return verifyReview(decoded.review, call);
  } catch (e) {
    // Defence in depth: a defect here must still be a calling error, not a crash of the chain.
    return failure('malformed', callFailed(`unexpected error verifying the response: ${safeText(e)}`), 503);
  }
}

function safeText(e: unknown): string {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return 'unprintable error';
  }
}

// ---------------------------------------------------------------- failures the chain raises while reading the patch

/** §12e: patch bytes that are not a JSON array of operations (a calling error). */
export function undecodablePatchFailure(jsonError: string): HookFailure {
  return {
    kind: 'undecodable-patch',
    message: `received undecodable patch in webhook response: ${jsonError}`,
    code: 503,
  };
}

/** §12g: a patchType other than JSONPatch (a calling error). */
export function unsupportedPatchTypeFailure(patchType: string): HookFailure {
  return { kind: 'unsupported-patch-type', message: `unsupported patch type ${goQuote(patchType)}`, code: 400 };
}
