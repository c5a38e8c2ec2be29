import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HookCall, HookReply } from '../types/invoker.js';
import type { Hook, Phase } from '../types/hook.js';
import { encodeBase64Text } from './base64.js';
import type { ReviewVersion } from '../types/review.js';
import {
  timeoutFailure,
  transportFailure,
  undecodablePatchFailure,
  unsupportedPatchTypeFailure,
  verifyHookResponse,
  type HookHttpResponse,
} from './verify.js';

const URL_ = 'https://hook.example.com/validate?timeout=10s';
const UID = 'call-uid';
const PATCH = '[{"op":"add","path":"/metadata/labels/a","value":"b"}]';
const PATCH64 = encodeBase64Text(PATCH);

function call(phase: Phase = 'mutating', version: ReviewVersion = 'v1'): HookCall {
  return {
    hook: { name: 'hook.example.com', phase } as Hook,
    request: {
      uid: UID,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
      userInfo: {},
    },
    version,
    round: 0,
    deadline: 0,
    timeoutSeconds: 10,
    patchFromOriginal: [],
  };
}

/** contentType null: no Content-Type header at all. */
const http = (body: string, httpStatus = 200, contentType: string | null = 'application/json'): HookHttpResponse => ({
  httpStatus,
  body,
  url: URL_,
  ...(contentType === null ? {} : { contentType }),
});
const v1Body = (response: unknown, top: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response, ...top });
const v1beta1Body = (response: unknown, top: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response, ...top });

function failureOf(reply: HookReply) {
  if (reply.ok) throw new Error(`expected a failure, got ${JSON.stringify(reply.answer)}`);
  return reply.failure;
}
function answerOf(reply: HookReply) {
  if (!reply.ok) throw new Error(`expected an answer, got ${reply.failure.message}`);
  return reply.answer;
}

describe('verifyHookResponse: non-2xx statuses (client-go transformResponse)', () => {
  const serverError = (m: string) =>
    `failed to call webhook: an error on the server (${m}) has prevented the request from succeeding`;
  const cases: { name: string; input: HookHttpResponse; message: string; code: number }[] = [
    {
      name: '500 text body, trimmed',
      input: http('boom\n', 500, 'text/plain; charset=utf-8'),
      message: serverError('"boom"'),
      code: 500,
    },
    {
      name: '500 without content type reads the body',
      input: http('  panic: x  ', 500, null),
      message: serverError('"panic: x"'),
      code: 500,
    },
    {
      name: '500 empty content type reads the body',
      input: http('oops', 500, ''),
      message: serverError('"oops"'),
      code: 500,
    },
    {
      name: '500 json body that is not a Status is unknown',
      input: http('{"error":"x"}', 500),
      message: serverError('"unknown"'),
      code: 500,
    },
    {
      name: '500 html body is unknown',
      input: http('<html/>', 500, 'application/xhtml+xml'),
      message: serverError('"unknown"'),
      code: 500,
    },
    {
      name: '500 body with quotes is Go-quoted',
      input: http('say "hi"', 500, 'text/plain'),
      message: serverError('"say \\"hi\\""'),
      code: 500,
    },
    { name: '502', input: http('bad gateway', 502, 'text/plain'), message: serverError('"bad gateway"'), code: 502 },
    {
      name: '503',
      input: http('down', 503, 'text/plain'),
      message: 'failed to call webhook: the server is currently unable to handle the request',
      code: 503,
    },
    {
      name: '504',
      input: http('', 504, 'text/plain'),
      message:
        'failed to call webhook: the server was unable to return a response in the time allotted, but may still be processing the request',
      code: 504,
    },
    {
      name: '404',
      input: http('not here', 404, 'text/plain'),
      message: 'failed to call webhook: the server could not find the requested resource',
      code: 404,
    },
    {
      name: '400',
      input: http('bad', 400, 'text/plain'),
      message: 'failed to call webhook: the server rejected our request for an unknown reason',
      code: 400,
    },
    {
      name: '401',
      input: http('', 401),
      message: 'failed to call webhook: the server has asked for the client to provide credentials',
      code: 401,
    },
    {
      name: '403 keeps the text body',
      input: http('RBAC: access denied\n', 403, 'text/plain'),
      message: 'failed to call webhook: RBAC: access denied',
      code: 403,
    },
    { name: '403 json body is unknown', input: http('{}', 403), message: 'failed to call webhook: unknown', code: 403 },
    {
      name: '405',
      input: http('', 405),
      message: 'failed to call webhook: the server does not allow this method on the requested resource',
      code: 405,
    },
    {
      name: '406 without text',
      input: http('', 406),
      message: 'failed to call webhook: the server was unable to respond with a content type that the client supports',
      code: 406,
    },
    {
      name: '406 with text',
      input: http('only yaml', 406, 'text/plain'),
      message: 'failed to call webhook: only yaml',
      code: 406,
    },
    { name: '409', input: http('', 409), message: 'failed to call webhook: the server reported a conflict', code: 409 },
    {
      name: '415 keeps the text',
      input: http('use json', 415, 'text/plain'),
      message: 'failed to call webhook: use json',
      code: 415,
    },
    {
      name: '422',
      input: http('', 422),
      message: 'failed to call webhook: the server rejected our request due to an error in our request',
      code: 422,
    },
    {
      name: '429',
      input: http('', 429),
      message: 'failed to call webhook: the server has received too many requests and has asked us to try again later',
      code: 429,
    },
    {
      name: '418',
      input: http('teapot', 418, 'text/plain'),
      message:
        'failed to call webhook: the server responded with the status code 418 but did not return more information',
      code: 418,
    },
    {
      name: '302',
      input: http('', 302),
      message:
        'failed to call webhook: the server responded with the status code 302 but did not return more information',
      code: 302,
    },
    {
      name: '207 is outside 200-206',
      input: http(v1Body({ uid: UID, allowed: true }), 207),
      message:
        'failed to call webhook: the server responded with the status code 207 but did not return more information',
      code: 207,
    },
    {
      name: 'Status body with status Failure wins',
      input: http(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'quota exceeded',
          reason: 'Forbidden',
          code: 403,
        }),
        500,
      ),
      message: 'failed to call webhook: quota exceeded',
      code: 403,
    },
    {
      name: 'Status body without apiVersion is still a Status',
      input: http(JSON.stringify({ kind: 'Status', status: 'Failure', message: 'm', code: 429 }), 429, 'text/plain'),
      message: 'failed to call webhook: m',
      code: 429,
    },
    {
      name: 'Status body without a code counts the HTTP code',
      input: http(JSON.stringify({ kind: 'Status', status: 'Failure', message: 'm' }), 500),
      message: 'failed to call webhook: m',
      code: 500,
    },
    {
      name: 'Status body with status Success is not used',
      input: http(JSON.stringify({ kind: 'Status', status: 'Success', message: 'ok' }), 500),
      message: serverError('"unknown"'),
      code: 500,
    },
    {
      name: 'Status body in YAML wins too',
      input: http(
        'kind: Status\napiVersion: v1\nstatus: Failure\nmessage: quota exceeded\ncode: 429\n',
        500,
        'application/yaml',
      ),
      message: 'failed to call webhook: quota exceeded',
      code: 429,
    },
    {
      name: 'Status body whose apiVersion does not parse is not used',
      input: http(JSON.stringify({ kind: 'Status', apiVersion: 'a/b/c', status: 'Failure', message: 'weird gv' }), 500),
      message: serverError('"unknown"'),
      code: 500,
    },
    {
      name: 'Status body with another apiVersion is still a Status (registered unversioned)',
      input: http(
        JSON.stringify({ kind: 'Status', apiVersion: 'meta.k8s.io/v1', status: 'Failure', message: 'm', code: 409 }),
        500,
      ),
      message: 'failed to call webhook: m',
      code: 409,
    },
    {
      name: 'Status-like body without kind is not used',
      input: http(JSON.stringify({ status: 'Failure', message: 'm' }), 500, 'text/plain'),
      message: serverError(`"${JSON.stringify({ status: 'Failure', message: 'm' }).replace(/"/g, '\\"')}"`),
      code: 500,
    },
    {
      name: 'unparsable content type',
      input: http('x', 500, 'text'),
      message: 'failed to call webhook: Internal error occurred: mime: expected slash after first token',
      code: 500,
    },
  ];
  it.each(cases)('$name', ({ input, message, code }) => {
    const f = failureOf(verifyHookResponse(input, call()));
    expect(f).toMatchObject({ kind: 'http-status', message, code });
  });

  it('carries the decoded Status for a Status body', () => {
    const body = JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'm',
      reason: 'Forbidden',
      code: 403,
      details: { name: 'x' },
    });
    expect(failureOf(verifyHookResponse(http(body, 403), call())).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'm',
      reason: 'Forbidden',
      code: 403,
      details: { name: 'x' },
    });
  });

  it('caps the quoted body at 2048 bytes', () => {
    const f = failureOf(verifyHookResponse(http('x'.repeat(5000), 500, 'text/plain'), call()));
    expect(f.message).toBe(serverError(`"${'x'.repeat(2048)}"`));
  });
});

describe('verifyHookResponse: decoding a 2xx body', () => {
  const F = 'failed to call webhook: ';
  const findKind = `struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
  const cases: { name: string; input: HookHttpResponse; message: string; code?: number }[] = [
    {
      name: 'empty body',
      input: http(''),
      message: `${F}0-length response with status code: 200 and content type: application/json`,
    },
    {
      name: 'empty body, no content type',
      input: http('', 200, null),
      message: `${F}0-length response with status code: 200 and content type: application/json`,
    },
    {
      name: 'empty 204 with charset',
      input: http('', 204, 'application/json; charset=utf-8'),
      message: `${F}0-length response with status code: 204 and content type: application/json; charset=utf-8`,
    },
    {
      name: 'truncated JSON',
      input: http('{"apiVersion":'),
      message: `${F}couldn't get version/kind; json parse error: unexpected end of JSON input`,
    },
    {
      name: 'JSON syntax error',
      input: http('{"a":}'),
      message: `${F}couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value`,
    },
    {
      // JSON.parse would accept it: Go's limit decides.
      name: 'JSON nested deeper than Go allows',
      input: http(`{"a":${'['.repeat(10_001)}${']'.repeat(10_001)}}`),
      message: `${F}couldn't get version/kind; json parse error: invalid character '[' exceeded max depth`,
    },
    {
      name: 'JSON array',
      input: http('[]'),
      message: `${F}couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${findKind}`,
    },
    {
      name: 'JSON string',
      input: http('"ok"'),
      message: `${F}couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${findKind}`,
    },
    {
      name: 'apiVersion a number',
      input: http('{"apiVersion":1}'),
      message: `${F}couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string`,
    },
    {
      name: 'kind a bool',
      input: http('{"kind":true}'),
      message: `${F}couldn't get version/kind; json parse error: json: cannot unmarshal bool into Go struct field .kind of type string`,
    },
    {
      name: 'apiVersion with two slashes',
      input: http(v1Body({}, { apiVersion: 'a/b/c' })),
      message: `${F}unexpected GroupVersion string: a/b/c`,
    },
    {
      name: 'response is a string',
      input: http(v1Body('yes')),
      message: `${F}json: cannot unmarshal string into Go struct field AdmissionReview.response of type v1.AdmissionResponse`,
    },
    {
      name: 'uid a number',
      input: http(v1Body({ uid: 1 })),
      message: `${F}json: cannot unmarshal number into Go struct field AdmissionResponse.response.uid of type types.UID`,
    },
    {
      name: 'allowed a string',
      input: http(v1Body({ uid: UID, allowed: 'true' })),
      message: `${F}json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool`,
    },
    {
      name: 'status a string',
      input: http(v1Body({ uid: UID, status: 'no' })),
      message: `${F}json: cannot unmarshal string into Go struct field AdmissionResponse.response.status of type v1.Status`,
    },
    {
      name: 'status.code a string',
      input: http(v1Body({ uid: UID, status: { code: '403' } })),
      message: `${F}json: cannot unmarshal string into Go struct field Status.response.status.code of type int32`,
    },
    {
      name: 'status.message a number',
      input: http(v1Body({ uid: UID, status: { message: 1 } })),
      message: `${F}json: cannot unmarshal number into Go struct field Status.response.status.message of type string`,
    },
    {
      name: 'patch a list',
      input: http(v1Body({ uid: UID, patch: [] })),
      message: `${F}json: cannot unmarshal array into Go struct field AdmissionResponse.response.patch of type []uint8`,
    },
    {
      name: 'patch not base64',
      input: http(v1Body({ uid: UID, allowed: true, patch: '[{"op":"add"}]', patchType: 'JSONPatch' })),
      message: `${F}illegal base64 data at input byte 0`,
    },
    {
      name: 'patch base64 without padding',
      input: http(v1Body({ uid: UID, allowed: true, patch: 'W10', patchType: 'JSONPatch' })),
      message: `${F}illegal base64 data at input byte 0`,
    },
    {
      name: 'patchType a number',
      input: http(v1Body({ uid: UID, patchType: 1 })),
      message: `${F}json: cannot unmarshal number into Go struct field AdmissionResponse.response.patchType of type v1.PatchType`,
    },
    {
      name: 'warnings a string',
      input: http(v1Body({ uid: UID, warnings: 'w' })),
      message: `${F}json: cannot unmarshal string into Go struct field AdmissionResponse.response.warnings of type []string`,
    },
    {
      name: 'warning a number',
      input: http(v1Body({ uid: UID, warnings: [1] })),
      message: `${F}json: cannot unmarshal number into Go struct field AdmissionResponse.response.warnings of type string`,
    },
    {
      name: 'annotation value a number',
      input: http(v1Body({ uid: UID, auditAnnotations: { a: 1 } })),
      message: `${F}json: cannot unmarshal number into Go struct field AdmissionResponse.response.auditAnnotations of type string`,
    },
    {
      name: 'unparsable content type on a 200',
      input: http(v1Body({ uid: UID }), 200, '/json'),
      message: `${F}Internal error occurred: mime: no media type`,
      code: 500,
    },
    // Go's decoder keeps the first wrong type in document order.
    {
      name: 'first wrong field in document order',
      input: http(v1Body({ warnings: 5, uid: 7, allowed: true })),
      message: `${F}json: cannot unmarshal number into Go struct field AdmissionResponse.response.warnings of type []string`,
    },
    {
      name: 'status fields in document order',
      input: http(v1Body({ uid: UID, status: { reason: 1, code: 'x' } })),
      message: `${F}json: cannot unmarshal number into Go struct field Status.response.status.reason of type string`,
    },
    {
      name: 'status.code beyond int32 names the literal',
      input: http(v1Body({ uid: UID, status: { code: 3000000000 } })),
      message: `${F}json: cannot unmarshal number 3000000000 into Go struct field Status.response.status.code of type int32`,
    },
    {
      name: 'status.code not an integer names the literal',
      input: http(v1Body({ uid: UID, status: { code: 1.5 } })),
      message: `${F}json: cannot unmarshal number 1.5 into Go struct field Status.response.status.code of type int32`,
    },
  ];
  it.each(cases)('$name', ({ input, message, code }) => {
    const f = failureOf(verifyHookResponse(input, call()));
    expect(f).toEqual({ kind: 'malformed', message, code: code ?? 503 });
  });

  it('decodes any content type as JSON, as the apiserver client does', () => {
    expect(
      answerOf(verifyHookResponse(http(v1Body({ uid: UID, allowed: true }), 200, 'text/plain'), call())).allowed,
    ).toBe(true);
  });

  it('reads JSON nulls as absent', () => {
    const body = v1Body({
      uid: UID,
      allowed: null,
      status: null,
      patch: null,
      patchType: null,
      warnings: null,
      auditAnnotations: null,
    });
    expect(answerOf(verifyHookResponse(http(body), call()))).toEqual({ allowed: false });
  });

  // A body that does not start with `{` goes to the codec's YAML serializer.
  it('decodes a YAML answer', () => {
    const body = `apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nresponse:\n  uid: ${UID}\n  allowed: true\n  warnings: [careful]\n`;
    expect(answerOf(verifyHookResponse(http(body, 200, 'application/yaml'), call()))).toEqual({
      allowed: true,
      warnings: ['careful'],
    });
  });

  it('reads only the first YAML document, and keeps timestamps as strings', () => {
    const body = `apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nresponse:\n  uid: ${UID}\n  allowed: true\n  warnings: [2024-02-03]\n---\n[broken\n`;
    expect(answerOf(verifyHookResponse(http(body), call()))).toEqual({ allowed: true, warnings: ['2024-02-03'] });
  });

  it('decodes JSON behind a byte-order mark (YAML path)', () => {
    expect(answerOf(verifyHookResponse(http(`\ufeff${v1Body({ uid: UID, allowed: true })}`), call())).allowed).toBe(
      true,
    );
  });

  it.each([
    [
      'a plain word is a YAML string',
      'webhook invalid response',
      `${F}couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${findKind}`,
    ],
    [
      'a YAML list',
      '- a\n- b\n',
      `${F}couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${findKind}`,
    ],
    [
      'white space only is YAML null, an empty review',
      ' \n',
      'received invalid webhook response: webhook response was absent',
    ],
    ['broken YAML', '[1, 2', `${F}error converting YAML to JSON: yaml: line 1: missing char`],
    [
      'an unknown alias is named by its line, not its text (the body may hold a Secret)',
      'response: *c2VjcmV0\n',
      `${F}error converting YAML to JSON: yaml: unknown anchor referenced`,
    ],
    [
      'a non-JSON body over 1 MiB is not parsed',
      `<html>${'x'.repeat(1024 * 1024)}</html>`,
      `${F}error converting YAML to JSON: yaml: a body of 1048589 bytes is too large to read as YAML (limit 1048576)`,
    ],
  ])('%s', (_name, body, message) => {
    expect(failureOf(verifyHookResponse(http(body), call())).message).toContain(message);
  });
});

describe('verifyHookResponse: VerifyAdmissionResponse, v1', () => {
  const invalid = (reason: string) => ({
    kind: 'invalid-response',
    message: `received invalid webhook response: ${reason}`,
    code: 503,
  });
  const cases: { name: string; phase: Phase; body: string; failure: ReturnType<typeof invalid> }[] = [
    {
      name: 'response absent',
      phase: 'validating',
      body: v1Body(undefined),
      failure: invalid('webhook response was absent'),
    },
    { name: 'response null', phase: 'mutating', body: v1Body(null), failure: invalid('webhook response was absent') },
    {
      name: 'uid mismatch',
      phase: 'validating',
      body: v1Body({ uid: 'other', allowed: true }),
      failure: invalid(`expected response.uid="${UID}", got "other"`),
    },
    {
      name: 'uid missing',
      phase: 'validating',
      body: v1Body({ allowed: true }),
      failure: invalid(`expected response.uid="${UID}", got ""`),
    },
    {
      name: 'uid checked before the version',
      phase: 'validating',
      body: v1beta1Body({ uid: 'other', allowed: true }),
      failure: invalid(`expected response.uid="${UID}", got "other"`),
    },
    {
      name: 'v1beta1 answer to a v1 call',
      phase: 'validating',
      body: v1beta1Body({ uid: UID, allowed: true }),
      failure: invalid(
        'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
      ),
    },
    {
      name: 'apiVersion and kind missing',
      phase: 'validating',
      body: JSON.stringify({ response: { uid: UID, allowed: true } }),
      failure: invalid('expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind='),
    },
    {
      name: 'wrong kind',
      phase: 'validating',
      body: v1Body({ uid: UID, allowed: true }, { kind: 'AdmissionResponse' }),
      failure: invalid(
        'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1, Kind=AdmissionResponse',
      ),
    },
    {
      name: 'core v1 apiVersion',
      phase: 'validating',
      body: v1Body({ uid: UID, allowed: true }, { apiVersion: 'v1' }),
      failure: invalid(
        'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /v1, Kind=AdmissionReview',
      ),
    },
    {
      name: 'mutating: patch without patchType',
      phase: 'mutating',
      body: v1Body({ uid: UID, allowed: true, patch: PATCH64 }),
      failure: invalid('webhook returned response.patch but not response.patchType'),
    },
    {
      name: 'mutating: patchType without patch',
      phase: 'mutating',
      body: v1Body({ uid: UID, allowed: true, patchType: 'JSONPatch' }),
      failure: invalid('webhook returned response.patchType but not response.patch'),
    },
    {
      name: 'mutating: patchType with an empty patch',
      phase: 'mutating',
      body: v1Body({ uid: UID, allowed: true, patch: '', patchType: 'JSONPatch' }),
      failure: invalid('webhook returned response.patchType but not response.patch'),
    },
    {
      name: 'mutating: empty patchType',
      phase: 'mutating',
      body: v1Body({ uid: UID, allowed: true, patch: PATCH64, patchType: '' }),
      failure: invalid('webhook returned invalid response.patchType of ""'),
    },
    {
      name: 'validating: patch',
      phase: 'validating',
      body: v1Body({ uid: UID, allowed: true, patch: PATCH64 }),
      failure: invalid('validating webhook may not return response.patch'),
    },
    {
      name: 'validating: patch and patchType',
      phase: 'validating',
      body: v1Body({ uid: UID, allowed: true, patch: PATCH64, patchType: 'JSONPatch' }),
      failure: invalid('validating webhook may not return response.patch'),
    },
    {
      name: 'validating: patchType only',
      phase: 'validating',
      body: v1Body({ uid: UID, allowed: true, patchType: 'JSONPatch' }),
      failure: invalid('validating webhook may not return response.patchType'),
    },
    {
      name: 'validating: empty patchType is still present',
      phase: 'validating',
      body: v1Body({ uid: UID, allowed: true, patchType: '' }),
      failure: invalid('validating webhook may not return response.patchType'),
    },
  ];
  it.each(cases)('$name', ({ phase, body, failure }) => {
    expect(failureOf(verifyHookResponse(http(body), call(phase)))).toEqual(failure);
  });

  it.each([
    {
      name: 'validating allow',
      phase: 'validating' as Phase,
      response: { uid: UID, allowed: true },
      want: { allowed: true },
    },
    {
      name: 'validating deny with status, warnings and annotations',
      phase: 'validating' as Phase,
      response: {
        uid: UID,
        allowed: false,
        status: { code: 403, message: 'no' },
        warnings: ['w'],
        auditAnnotations: { k: 'v' },
      },
      want: { allowed: false, status: { code: 403, message: 'no' }, warnings: ['w'], auditAnnotations: { k: 'v' } },
    },
    {
      name: 'mutating patch is returned as decoded JSON text',
      phase: 'mutating' as Phase,
      response: { uid: UID, allowed: true, patch: PATCH64, patchType: 'JSONPatch' },
      want: { allowed: true, patch: PATCH, patchType: 'JSONPatch' },
    },
    {
      name: 'mutating unknown patchType passes (the chain rejects it)',
      phase: 'mutating' as Phase,
      response: { uid: UID, allowed: true, patch: PATCH64, patchType: 'MergePatch' },
      want: { allowed: true, patch: PATCH, patchType: 'MergePatch' },
    },
    {
      name: 'mutating undecodable JSON in the patch passes (the chain reports it)',
      phase: 'mutating' as Phase,
      response: { uid: UID, allowed: true, patch: encodeBase64Text('[{'), patchType: 'JSONPatch' },
      want: { allowed: true, patch: '[{', patchType: 'JSONPatch' },
    },
    {
      name: 'mutating without patch',
      phase: 'mutating' as Phase,
      response: { uid: UID, allowed: true },
      want: { allowed: true },
    },
    {
      name: 'mutating empty patch string and no patchType',
      phase: 'mutating' as Phase,
      response: { uid: UID, allowed: true, patch: '' },
      want: { allowed: true },
    },
    {
      name: 'unknown response fields are ignored',
      phase: 'validating' as Phase,
      response: { uid: UID, allowed: true, extra: 1 },
      want: { allowed: true },
    },
  ])('$name', ({ phase, response, want }) => {
    expect(answerOf(verifyHookResponse(http(v1Body(response)), call(phase)))).toEqual(want);
  });

  it('a denial keeps a patch it carries (the chain ignores it after allowed=false)', () => {
    const a = answerOf(
      verifyHookResponse(
        http(v1Body({ uid: UID, allowed: false, patch: PATCH64, patchType: 'JSONPatch' })),
        call('mutating'),
      ),
    );
    expect(a).toEqual({ allowed: false, patch: PATCH, patchType: 'JSONPatch' });
  });
});

describe('verifyHookResponse: members inside __proto__ are data, never the answer', () => {
  const head = '"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"';
  const allow = `{"uid": "${UID}", "allowed": true}`;
  const invalid = (reason: string) => ({
    kind: 'invalid-response',
    message: `received invalid webhook response: ${reason}`,
    code: 503,
  });
  // Text, not object literals: in a literal `__proto__:` sets the prototype; JSON.parse makes a member.
  it.each([
    {
      name: 'the whole response (JSON)',
      body: `{${head}, "__proto__": {"response": ${allow}}}`,
      failure: invalid('webhook response was absent'),
    },
    {
      name: 'the whole response (YAML)',
      body: `apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\n__proto__:\n  response: ${allow}\n`,
      failure: invalid('webhook response was absent'),
    },
    {
      name: 'apiVersion and kind',
      body: `{"__proto__": {${head}}, "response": ${allow}}`,
      failure: invalid('expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind='),
    },
    {
      name: 'response.uid',
      body: `{${head}, "response": {"allowed": true, "__proto__": {"uid": "${UID}"}}}`,
      failure: invalid(`expected response.uid="${UID}", got ""`),
    },
  ])('refuses an answer whose $name is only inside __proto__', ({ body, failure }) => {
    expect(failureOf(verifyHookResponse(http(body), call('validating')))).toEqual(failure);
  });

  it('reads allowed inside __proto__ as absent (a denial)', () => {
    const body = `{${head}, "response": {"uid": "${UID}", "__proto__": {"allowed": true}}}`;
    expect(answerOf(verifyHookResponse(http(body), call('validating')))).toEqual({ allowed: false });
  });

  it('keeps an audit annotation named __proto__ as an annotation', () => {
    const body = `{${head}, "response": {"uid": "${UID}", "allowed": true, "auditAnnotations": {"__proto__": "x", "k": "v"}}}`;
    const annotations = answerOf(verifyHookResponse(http(body), call('validating'))).auditAnnotations!;
    expect(Object.getPrototypeOf(annotations)).toBe(Object.prototype);
    expect(Object.entries(annotations)).toEqual([
      ['__proto__', 'x'],
      ['k', 'v'],
    ]);
  });
});

describe('verifyHookResponse: v1beta1 leniency', () => {
  it.each([
    {
      name: 'uid not checked',
      phase: 'validating' as Phase,
      body: v1beta1Body({ uid: 'whatever', allowed: true }),
      want: { allowed: true },
    },
    {
      name: 'apiVersion not checked',
      phase: 'validating' as Phase,
      body: v1Body({ allowed: true }),
      want: { allowed: true },
    },
    {
      name: 'apiVersion and kind may be missing',
      phase: 'validating' as Phase,
      body: JSON.stringify({ response: { allowed: true } }),
      want: { allowed: true },
    },
    {
      name: 'mutating patch without patchType is JSONPatch',
      phase: 'mutating' as Phase,
      body: v1beta1Body({ allowed: true, patch: PATCH64 }),
      want: { allowed: true, patch: PATCH, patchType: 'JSONPatch' },
    },
    {
      name: 'mutating patchType is pinned to JSONPatch',
      phase: 'mutating' as Phase,
      body: v1beta1Body({ allowed: true, patch: PATCH64, patchType: 'MergePatch' }),
      want: { allowed: true, patch: PATCH, patchType: 'JSONPatch' },
    },
    {
      name: 'mutating patchType without patch is fine',
      phase: 'mutating' as Phase,
      body: v1beta1Body({ allowed: true, patchType: 'JSONPatch' }),
      want: { allowed: true },
    },
    {
      name: 'validating patch is ignored',
      phase: 'validating' as Phase,
      body: v1beta1Body({ allowed: true, patch: PATCH64, patchType: 'JSONPatch' }),
      want: { allowed: true },
    },
    {
      name: 'denial with status',
      phase: 'validating' as Phase,
      body: v1beta1Body({ allowed: false, status: { reason: 'because' } }),
      want: { allowed: false, status: { reason: 'because' } },
    },
  ])('$name', ({ phase, body, want }) => {
    expect(answerOf(verifyHookResponse(http(body), call(phase, 'v1beta1')))).toEqual(want);
  });

  it('a missing response is still an error', () => {
    expect(failureOf(verifyHookResponse(http(v1beta1Body(undefined)), call('validating', 'v1beta1')))).toEqual({
      kind: 'invalid-response',
      message: 'received invalid webhook response: webhook response was absent',
      code: 503,
    });
  });

  it('HTTP and decode errors apply to v1beta1 too', () => {
    expect(failureOf(verifyHookResponse(http('x', 500, 'text/plain'), call('validating', 'v1beta1'))).kind).toBe(
      'http-status',
    );
    expect(
      failureOf(verifyHookResponse(http(v1beta1Body({ allowed: 'no' })), call('validating', 'v1beta1'))).kind,
    ).toBe('malformed');
  });
});

describe('transport and timeout helpers', () => {
  it.each([
    {
      name: 'connection refused',
      failure: transportFailure(URL_, 'dial tcp 10.0.0.1:443: connect: connection refused'),
      want: {
        kind: 'transport',
        message: `failed to call webhook: Post "${URL_}": dial tcp 10.0.0.1:443: connect: connection refused`,
        code: 503,
      },
    },
    {
      name: 'tls',
      failure: transportFailure(
        URL_,
        'tls: failed to verify certificate: x509: certificate signed by unknown authority',
      ),
      want: {
        kind: 'transport',
        message: `failed to call webhook: Post "${URL_}": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
        code: 503,
      },
    },
    {
      name: 'timeout',
      failure: timeoutFailure(URL_),
      want: {
        kind: 'timeout',
        message: `failed to call webhook: Post "${URL_}": context deadline exceeded`,
        code: 503,
      },
    },
    {
      name: 'url with a quote is Go-quoted',
      failure: timeoutFailure('https://a.example.com/"x"'),
      want: {
        kind: 'timeout',
        message: 'failed to call webhook: Post "https://a.example.com/\\"x\\"": context deadline exceeded',
        code: 503,
      },
    },
    {
      name: 'undecodable patch',
      failure: undecodablePatchFailure('unexpected end of JSON input'),
      want: {
        kind: 'undecodable-patch',
        message: 'received undecodable patch in webhook response: unexpected end of JSON input',
        code: 503,
      },
    },
    {
      name: 'unsupported patch type',
      failure: unsupportedPatchTypeFailure('MergePatch'),
      want: { kind: 'unsupported-patch-type', message: 'unsupported patch type "MergePatch"', code: 400 },
    },
  ])('$name', ({ failure, want }) => expect(failure).toEqual(want));
});

describe('verifyHookResponse: properties', () => {
  const phases = fc.constantFrom<Phase>('mutating', 'validating');
  const versions = fc.constantFrom<ReviewVersion>('v1', 'v1beta1');
  const statuses = fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constantFrom(200, 201, 204, 206));
  const contentTypes = fc.option(
    fc.oneof(fc.string(), fc.constantFrom('application/json', 'text/plain', 'text/html; charset=utf-8', '')),
    { nil: undefined },
  );

  function check(reply: HookReply): void {
    if (!reply.ok) {
      expect(reply.failure.message.length).toBeGreaterThan(0);
      expect(reply.failure.code).toBeGreaterThan(0);
    }
  }

  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.string(),
        statuses,
        contentTypes,
        phases,
        versions,
        (body, httpStatus, contentType, phase, version) => {
          check(
            verifyHookResponse(
              { httpStatus, body, url: URL_, ...(contentType === undefined ? {} : { contentType }) },
              call(phase, version),
            ),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), statuses, phases, versions, (value, httpStatus, phase, version) => {
        check(verifyHookResponse(http(JSON.stringify(value), httpStatus), call(phase, version)));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on review-shaped bodies with arbitrary response members', () => {
    const member = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    const response = fc.record(
      {
        uid: fc.oneof(fc.constant(UID), member),
        allowed: member,
        status: member,
        patch: fc.oneof(fc.constant(PATCH64), member),
        patchType: member,
        warnings: member,
        auditAnnotations: member,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.constantFrom('admission.k8s.io/v1', 'admission.k8s.io/v1beta1', 'v1'),
        response,
        phases,
        versions,
        (apiVersion, r, phase, version) => {
          check(
            verifyHookResponse(
              http(JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: r })),
              call(phase, version),
            ),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
