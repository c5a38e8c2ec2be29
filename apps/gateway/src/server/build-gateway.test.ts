/**
 * The admission routes through inject, with hooks served by a real loopback webhook (the shared
 * scripted behaviours) through the real bridge: decisions, patches, messages, bad input, deadlines.
 */
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionRequest } from '@hookgate/admission';
import { admissionReviewOf, podAdmissionRequest } from '@hookgate/admission/testing';
import { startLoopbackWebhook, type LoopbackWebhook } from '../testing/loopback-webhook.js';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness.js';

const POD_RULE = { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };

function webhookConfig(
  kind: 'Mutating' | 'Validating',
  name: string,
  hooks: { name: string; url: string; failurePolicy?: string; timeoutSeconds?: number }[],
) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: hooks.map((h) => ({
      name: h.name,
      clientConfig: { url: h.url },
      rules: [POD_RULE],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      failurePolicy: h.failurePolicy ?? 'Fail',
      timeoutSeconds: h.timeoutSeconds ?? 10,
    })),
  };
}

function review(apiVersion = 'admission.k8s.io/v1', overrides: Partial<AdmissionRequest> = {}) {
  return admissionReviewOf(
    podAdmissionRequest({ uid: 'e911857d-c318-11e8-bbad-025000000001', ...overrides }),
    apiVersion,
  );
}

/** A review whose request carries `members` only inside a `__proto__` member (JSON text: a literal would set the prototype). */
function withMembersInProto(members: readonly string[]): string {
  const request = review().request as unknown as Record<string, unknown>;
  const kept = Object.fromEntries(Object.entries(request).filter(([key]) => !members.includes(key)));
  const hidden = Object.fromEntries(members.map((key) => [key, request[key]]));
  const stanza = `${JSON.stringify(kept).slice(0, -1)},"__proto__":${JSON.stringify(hidden)}}`;
  return `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":${stanza}}`;
}

const decode = (patch: string | undefined) =>
  patch ? JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) : undefined;

describe('buildGateway', () => {
  let webhook: LoopbackWebhook;
  let gateway: TestGateway;

  beforeAll(async () => {
    webhook = await startLoopbackWebhook();
    const url = (b: string) => `${webhook.origin}/${b}`;
    gateway = startTestGateway([
      webhookConfig('Mutating', 'a-mutators', [
        { name: 'add-label.example.com', url: url('addLabel') },
        { name: 'hookgate-label.example.com', url: url('patch-add-label') },
      ]),
      webhookConfig('Validating', 'validators', [
        { name: 'allow.example.com', url: url('allow') },
        { name: 'warn.example.com', url: url('allowWithWarnings') },
      ]),
    ]);
  });
  afterAll(async () => {
    await gateway.close();
    await webhook.close();
  });

  it('runs mutating hooks in order and returns one combined patch', async () => {
    const res = await gateway.app.inject({ method: 'POST', url: '/mutate?timeout=10s', payload: review() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.apiVersion).toBe('admission.k8s.io/v1');
    expect(body.response.uid).toBe('e911857d-c318-11e8-bbad-025000000001');
    expect(body.response.allowed).toBe(true);
    expect(body.response.patchType).toBe('JSONPatch');
    expect(decode(body.response.patch)).toEqual([
      { op: 'add', path: '/metadata/labels/added', value: 'test' },
      { op: 'add', path: '/metadata/labels/hookgate', value: 'added' },
    ]);
  });

  it('sends each hook call a fresh uid and ?timeout= from the request budget', async () => {
    const before = webhook.calls.length;
    await gateway.app.inject({ method: 'POST', url: '/validate?timeout=5s', payload: review() });
    const calls = webhook.calls.slice(before);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.uid).not.toBe('e911857d-c318-11e8-bbad-025000000001');
      // 5 s minus the 500 ms safety margin, rounded up: min(hook 10 s, 4.5 s) → 5s.
      expect(call.timeout).toBe('5s');
    }
    expect(new Set(calls.map((c) => c.uid)).size).toBe(2);
  });

  it('passes warnings through deduplicated and re-encodes audit annotations', async () => {
    const res = await gateway.app.inject({ method: 'POST', url: '/validate', payload: review() });
    const body = res.json();
    expect(body.response.allowed).toBe(true);
    expect(body.response.warnings).toEqual(['first warning', 'second warning']);
    expect(body.response.auditAnnotations).toEqual({ 'allow.example.com_key1': 'value1' });
  });

  it('answers in the version received (v1beta1)', async () => {
    const res = await gateway.app.inject({
      method: 'POST',
      url: '/validate',
      payload: review('admission.k8s.io/v1beta1'),
    });
    expect(res.json().apiVersion).toBe('admission.k8s.io/v1beta1');
  });

  it('answers a review no hook matches without calling any hook', async () => {
    const before = webhook.calls.length;
    const res = await gateway.app.inject({
      method: 'POST',
      url: '/validate',
      payload: review('admission.k8s.io/v1', {
        kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      }),
    });
    expect(res.json().response).toEqual({ uid: 'e911857d-c318-11e8-bbad-025000000001', allowed: true });
    expect(webhook.calls.length).toBe(before);
  });

  const badRequests = [
    {
      name: 'malformed JSON',
      payload: '{"apiVersion": "admission.k8s.io/v1", ',
      contentType: 'application/json',
      message: /request body is not valid JSON/,
    },
    { name: 'empty body', payload: '', contentType: 'application/json', message: /request body is empty/ },
    {
      name: 'unknown review version',
      payload: JSON.stringify(review('admission.k8s.io/v2')),
      contentType: 'application/json',
      message: /apiVersion: unsupported "admission.k8s.io\/v2"/,
    },
    {
      name: 'missing uid',
      payload: JSON.stringify(review('admission.k8s.io/v1', { uid: '' })),
      contentType: 'application/json',
      message: /request.uid: is required/,
    },
    {
      name: 'missing request',
      payload: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }),
      contentType: 'application/json',
      message: /request: is missing/,
    },
    { name: 'a JSON array', payload: '[]', contentType: 'application/json', message: /must be a JSON object/ },
    {
      name: 'wrong content type',
      payload: JSON.stringify(review()),
      contentType: 'text/plain',
      message: /unsupported content type/,
    },
    {
      name: 'a charset other than UTF-8',
      payload: JSON.stringify(review()),
      contentType: 'application/json; charset=latin1',
      message: /unsupported charset "latin1": send the AdmissionReview as UTF-8 JSON/,
    },
    // Text, not object literals: in a literal `__proto__:` sets the prototype; JSON.parse makes a member.
    {
      name: 'a request only inside __proto__',
      payload: `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","__proto__":{"request":${JSON.stringify(review().request)}}}`,
      contentType: 'application/json',
      message: /request: is missing/,
    },
    {
      name: 'request.kind and request.resource only inside __proto__',
      payload: withMembersInProto(['kind', 'resource']),
      contentType: 'application/json',
      message: /request.kind: is required/,
    },
    {
      name: 'object metadata that is not an object',
      payload: JSON.stringify(review('admission.k8s.io/v1', { object: { metadata: 'web' } })),
      contentType: 'application/json',
      message: /^invalid AdmissionReview: request.object.metadata: must be an object, got a string$/,
    },
    {
      name: 'oldObject labels that are not a map of strings',
      payload: JSON.stringify(
        review('admission.k8s.io/v1', { operation: 'UPDATE', oldObject: { metadata: { labels: { app: 1 } } } }),
      ),
      contentType: 'application/json',
      message: /^invalid AdmissionReview: request.oldObject.metadata.labels\[app\]: must be a string, got a number$/,
    },
    {
      name: 'oversized body',
      payload: JSON.stringify(review('admission.k8s.io/v1', { object: { data: 'x'.repeat(9 * 1024 * 1024) } })),
      contentType: 'application/json',
      message: /larger than the configured limit/,
    },
  ];
  it.each(badRequests)('answers 400 for $name', async ({ payload, contentType, message }) => {
    const res = await gateway.app.inject({
      method: 'POST',
      url: '/validate',
      payload,
      headers: { 'content-type': contentType },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    // A metav1.Status, so that the apiserver shows this message rather than a generic one (§15).
    expect(res.json()).toMatchObject({
      apiVersion: 'v1',
      kind: 'Status',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      details: { causes: [{ reason: 'HG_ERR_GATEWAY_BAD_REQUEST' }] },
    });
  });

  it('accepts an explicit UTF-8 charset', async () => {
    const res = await gateway.app.inject({
      method: 'POST',
      url: '/validate',
      payload: JSON.stringify(review()),
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    {
      method: 'GET' as const,
      url: '/mutate',
      code: 405,
      message:
        'GET /mutate is not allowed: the gateway serves POST /mutate and POST /validate (and /mutate/fail, /mutate/ignore, /validate/fail, /validate/ignore for its registration)',
    },
    {
      method: 'PUT' as const,
      url: '/validate?timeout=10s',
      code: 405,
      message:
        'PUT /validate is not allowed: the gateway serves POST /mutate and POST /validate (and /mutate/fail, /mutate/ignore, /validate/fail, /validate/ignore for its registration)',
    },
    {
      method: 'POST' as const,
      url: '/admit',
      code: 404,
      message:
        'no endpoint "/admit": the gateway serves POST /mutate and POST /validate (and /mutate/fail, /mutate/ignore, /validate/fail, /validate/ignore for its registration)',
    },
  ])('answers $code with a Status for $method $url', async ({ method, url, code, message }) => {
    const res = await gateway.app.inject({ method, url });
    expect(res.statusCode).toBe(code);
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', code, message });
  });

  it('names a JSON syntax error without quoting the body (it may be a Secret)', async () => {
    const secret =
      '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"object":{"kind":"Secret","data":{"password":UzNjcjN0VjRsdWU=}}}}';
    const res = await gateway.app.inject({
      method: 'POST',
      url: '/validate',
      payload: secret,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('request body is not valid JSON: invalid character looking for beginning of value');
    expect(JSON.stringify(gateway.logs)).not.toContain('UzNj');
  });

  it('logs the decision trace at debug level without object contents', async () => {
    await gateway.app.inject({ method: 'POST', url: '/mutate', payload: review() });
    const line = gateway.logs.findLast((l) => l['msg'] === 'admission decision');
    expect(line).toMatchObject({
      phase: 'mutating',
      operation: 'CREATE',
      resource: 'v1/pods',
      namespace: 'default',
      objectName: 'web',
      allowed: true,
      mutated: true,
    });
    const trace = (line?.['trace'] as Record<string, unknown>[]).map(({ ms: _ms, ...rest }) => rest);
    expect(trace).toEqual([
      { hook: 'add-label.example.com', round: 0, outcome: 'allowed', mutated: true, code: 200 },
      { hook: 'hookgate-label.example.com', round: 0, outcome: 'allowed', mutated: true, code: 200 },
      { hook: 'add-label.example.com', round: 1, skipped: 'not-reinvoked' },
      { hook: 'hookgate-label.example.com', round: 1, skipped: 'not-reinvoked' },
    ]);
    expect(JSON.stringify(gateway.logs)).not.toContain('"labels"');
  });

  it('records per-hook and per-request metrics', async () => {
    const text = await gateway.registry.metrics();
    expect(text).toMatch(
      /hookgate_admission_webhook_request_total\{name="add-label.example.com",type="admit",operation="CREATE",code="200",rejected="false"\} \d+/,
    );
    expect(text).toMatch(
      /hookgate_admission_requests_total\{type="validating",operation="CREATE",outcome="allowed"\} \d+/,
    );
  });
});

describe('buildGateway failure handling', () => {
  let webhook: LoopbackWebhook;
  let gateway: TestGateway;
  const url = (b: string) => `${webhook.origin}/${b}`;

  beforeAll(async () => {
    webhook = await startLoopbackWebhook();
    gateway = startTestGateway([]);
  });
  afterAll(async () => {
    await gateway.close();
    await webhook.close();
  });

  const cases = [
    {
      name: 'a denial names the hook',
      hook: { name: 'deny.example.com', behaviour: 'disallowReason' },
      expected: {
        allowed: false,
        status: { code: 403, message: 'admission webhook "deny.example.com" denied the request: you shall not pass' },
      },
    },
    {
      name: 'a wrong uid fails closed under Fail',
      hook: { name: 'uid.example.com', behaviour: 'wrongUid' },
      expected: { allowed: false, status: { code: 500, reason: 'InternalError' } },
    },
    {
      name: 'an internal error is ignored under Ignore',
      hook: { name: 'broken.example.com', behaviour: 'internalErr', failurePolicy: 'Ignore' },
      expected: { allowed: true },
    },
  ];
  it.each(cases)('$name', async ({ hook, expected }) => {
    gateway.swap([
      webhookConfig('Validating', 'v', [
        {
          name: hook.name,
          url: url(hook.behaviour),
          ...(hook.failurePolicy ? { failurePolicy: hook.failurePolicy } : {}),
        },
      ]),
    ]);
    const res = await gateway.app.inject({ method: 'POST', url: '/validate', payload: review() });
    expect(res.json().response).toMatchObject(expected);
  });

  it('fails a hanging hook by its own policy before the apiserver timeout', async () => {
    gateway.swap([
      webhookConfig('Validating', 'v', [{ name: 'hang.example.com', url: url('timeout'), timeoutSeconds: 30 }]),
    ]);
    const res = await gateway.app.inject({ method: 'POST', url: '/validate?timeout=1s', payload: review() });
    const status = res.json().response.status;
    expect(status.code).toBe(500);
    expect(status.message).toBe(
      `Internal error occurred: failed calling webhook "hang.example.com": failed to call webhook: Post "${url('timeout')}?timeout=1s": context deadline exceeded`,
    );
  });

  it('keeps the hook set a request started with across a reload', async () => {
    gateway.swap([
      webhookConfig('Validating', 'v', [
        { name: 'slow.example.com', url: url('timeout'), timeoutSeconds: 1, failurePolicy: 'Ignore' },
      ]),
    ]);
    const pending = gateway.app.inject({ method: 'POST', url: '/validate', payload: review() });
    await new Promise((r) => setTimeout(r, 100));
    gateway.swap([webhookConfig('Validating', 'v', [{ name: 'deny.example.com', url: url('disallow') }])]);
    expect((await pending).json().response.allowed).toBe(true);
    expect(
      (await gateway.app.inject({ method: 'POST', url: '/validate', payload: review() })).json().response.allowed,
    ).toBe(false);
  });
});

describe('buildGateway bearer-token authentication', () => {
  let gateway: TestGateway;
  beforeAll(() => {
    gateway = startTestGateway([], { bearerTokens: () => ['s3cret-token'] });
  });
  afterAll(() => gateway.close());

  const cases = [
    { name: 'no token', headers: {}, status: 401 },
    { name: 'a wrong token', headers: { authorization: 'Bearer nope' }, status: 401 },
    { name: 'the configured token', headers: { authorization: 'Bearer s3cret-token' }, status: 200 },
  ];
  it.each(cases)('$name → $status', async ({ headers, status }) => {
    const res = await gateway.app.inject({ method: 'POST', url: '/validate', payload: review(), headers });
    expect(res.statusCode).toBe(status);
  });
});

describe('buildGateway slow and silent clients', () => {
  let gateway: TestGateway;
  let port = 0;

  beforeAll(async () => {
    gateway = startTestGateway([], { requestTimeoutMs: 300, idleConnectionTimeoutMs: 600 });
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    port = (gateway.app.server.address() as AddressInfo).port;
  });
  afterAll(() => gateway.close());

  /** Opens a connection, writes `text`, and resolves with what came back once the server closed it. */
  const send = (text: string) =>
    new Promise<{ answer: string }>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => socket.write(text));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('close', () => resolve({ answer }));
      socket.on('error', reject);
    });

  it('frees the connection when a body stops arriving', async () => {
    const { answer } = await send(
      'POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"apiVersion":',
    );
    // Closed by the idle timeout (or answered 408 by the request timeout, which Node checks periodically).
    expect(answer === '' || answer.startsWith('HTTP/1.1 408 ')).toBe(true);
  });

  it('answers malformed HTTP with a 400 Status', async () => {
    const { answer } = await send('NOT-HTTP\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ kind: 'Status', code: 400, message: 'the request is not valid HTTP/1.1' });
  });

  it('closes a connection that never sends a request', async () => {
    const { answer } = await send('');
    expect(answer).toBe('');
  });
});
