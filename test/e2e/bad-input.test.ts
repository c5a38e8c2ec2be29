/**
 * Bad input never crashes the gateway: malformed requests get a 400 with a message that says what
 * is wrong, hooks that answer garbage are calling errors, and after a burst of random bodies the
 * same worker processes still serve valid reviews.
 */
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient } from '../src/admission-client.js';
import { createRulesFor, gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startGateway, type GatewayProcess } from '@hookgate/devtools';
import { podCreateReview } from '../src/pod-review.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';

const review = podCreateReview();
const json = (value: unknown) => JSON.stringify(value);

/** JSON text of the review with `members` of its request only inside a `__proto__` member (a literal would set the prototype). */
function membersOnlyInProto(members: readonly string[]): string {
  const request = review.request as unknown as Record<string, unknown>;
  const kept = Object.fromEntries(Object.entries(request).filter(([key]) => !members.includes(key)));
  const hidden = Object.fromEntries(members.map((key) => [key, request[key]]));
  return json({ ...review, request: kept }).replace(/\}\}$/, `,"__proto__":${json(hidden)}}}`);
}

const BAD_REQUESTS = [
  { name: 'malformed JSON', body: '{"apiVersion": "admission.k8s.io/v1",', message: /request body is not valid JSON/ },
  { name: 'an empty body', body: '', message: /request body is empty/ },
  { name: 'a JSON string', body: '"AdmissionReview"', message: /must be a JSON object \(an AdmissionReview\)/ },
  {
    name: 'an unknown review version',
    body: json({ ...review, apiVersion: 'admission.k8s.io/v2' }),
    message: /apiVersion: unsupported "admission.k8s.io\/v2"/,
  },
  {
    name: 'another kind',
    body: json({ ...review, kind: 'TokenReview' }),
    message: /kind: must be "AdmissionReview", got "TokenReview"/,
  },
  {
    name: 'no request',
    body: json({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }),
    message: /request: is missing/,
  },
  {
    name: 'a missing uid',
    body: json({ ...review, request: { ...review.request, uid: undefined } }),
    message: /request.uid: is required/,
  },
  {
    name: 'an unknown operation',
    body: json({ ...review, request: { ...review.request, operation: 'PATCH' } }),
    message: /request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got "PATCH"/,
  },
  {
    name: 'an object that is a string',
    body: json({ ...review, request: { ...review.request, object: 'pod' } }),
    message: /request.object: must be a JSON object or null/,
  },
  // Hostile shapes: required members only inside `__proto__` must never count as present.
  {
    name: 'a request only inside __proto__',
    body: `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","__proto__":{"request":${json(review.request)}}}`,
    message: /request: is missing/,
  },
  {
    name: 'request.kind only inside __proto__',
    body: membersOnlyInProto(['kind']),
    message: /request.kind: is required/,
  },
  {
    name: 'request.resource only inside __proto__',
    body: membersOnlyInProto(['resource']),
    message: /request.resource: is required/,
  },
  {
    name: 'object metadata that is a list',
    body: json({ ...review, request: { ...review.request, object: { metadata: ['web'] } } }),
    message: /request.object.metadata: must be an object, got an array/,
  },
  {
    name: 'object labels that are a string',
    body: json({ ...review, request: { ...review.request, object: { metadata: { labels: 'app=web' } } } }),
    message: /request.object.metadata.labels: must be a map of strings, got a string/,
  },
  {
    name: 'an oldObject annotation that is a number',
    body: json({
      ...review,
      request: { ...review.request, operation: 'UPDATE', oldObject: { metadata: { annotations: { replicas: 3 } } } },
    }),
    message: /request.oldObject.metadata.annotations\[replicas\]: must be a string, got a number/,
  },
  { name: 'deeply nested JSON', body: `${'['.repeat(200_000)}${']'.repeat(200_000)}`, message: /./ },
  {
    name: 'a text/plain body',
    body: json(review),
    contentType: 'text/plain',
    message: /unsupported content type: send the AdmissionReview as application\/json/,
  },
  { name: 'no content type', body: json(review), contentType: '', message: /content type/ },
];

describe('bad input', () => {
  let webhook: TestWebhookServer;
  let gateway: GatewayProcess;
  let client: AdmissionClient;

  beforeAll(async () => {
    webhook = await startWebhookServer();
    gateway = await startGateway({
      config: gatewayConfigYaml([
        webhookConfiguration('validating', 'checks', [
          {
            name: 'allow.example.com',
            clientConfig: { url: `${webhook.origin}/allow` },
            rules: createRulesFor('pods'),
          },
          {
            name: 'garbage.example.com',
            clientConfig: { url: `${webhook.origin}/invalidResp` },
            rules: createRulesFor('secrets'),
            failurePolicy: 'Ignore',
          },
          {
            name: 'huge.example.com',
            clientConfig: { url: `${webhook.origin}/huge` },
            rules: createRulesFor('configmaps'),
          },
          {
            name: 'reset.example.com',
            clientConfig: { url: `${webhook.origin}/reset` },
            rules: createRulesFor('services'),
          },
        ]),
      ]),
    });
    client = new AdmissionClient(gateway.admissionUrl);
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await webhook?.close();
  });

  it.each(BAD_REQUESTS)('answers 400 to $name', async ({ body, message, contentType }) => {
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    const answer = await client.post('/validate', body, { headers });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).message).toMatch(message);
  });

  it('answers 400 to a body above the limit before reading it', async () => {
    // The gateway answers from Content-Length and closes the connection without reading the
    // upload, so a client that keeps writing may see EPIPE first. Like an apiserver, this client
    // sends the headers and the start of the body, then reads the answer.
    const declared = 9 * 1024 * 1024;
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${gateway.admissionUrl}/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(declared) },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
          req.destroy();
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      });
      req.write(json(review).slice(0, -1));
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).message).toMatch(/larger than the configured limit/);
  });

  const garbage = [
    {
      name: 'a body that is not an AdmissionReview (Ignore)',
      resource: ['secrets', 'Secret'],
      allowed: true,
      message: undefined,
    },
    {
      name: 'a 12 MiB answer (Fail)',
      resource: ['configmaps', 'ConfigMap'],
      allowed: false,
      message:
        /failed calling webhook "huge.example.com": failed to call webhook: Post ".*\/huge\?timeout=10s": response body larger than/,
    },
    {
      name: 'a connection closed without an answer (Fail)',
      resource: ['services', 'Service'],
      allowed: false,
      message: /failed calling webhook "reset.example.com": failed to call webhook: Post ".*\/reset\?timeout=10s": /,
    },
  ];
  it.each(garbage)('treats $name from a hook as a calling error', async ({ resource, allowed, message }) => {
    const body = podCreateReview({
      kind: { group: '', version: 'v1', kind: resource[1] },
      resource: { group: '', version: 'v1', resource: resource[0] },
    });
    const { status, review: answer } = await client.post('/validate', body, { timeout: '10s' });
    expect(status).toBe(200);
    expect(answer.response?.allowed).toBe(allowed);
    if (message) expect(answer.response?.status?.message).toMatch(message);
  });

  it('answers 400 or an admission decision to any random body, and keeps serving', async () => {
    const bodies = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 4 }),
      fc
        .record({
          apiVersion: fc.constantFrom('admission.k8s.io/v1', 'admission.k8s.io/v1beta1'),
          kind: fc.constant('AdmissionReview'),
          request: fc.anything({ maxDepth: 3 }),
        })
        .map(json),
      fc
        .record({
          uid: fc.string(),
          operation: fc.string(),
          kind: fc.anything({ maxDepth: 2 }),
          resource: fc.anything({ maxDepth: 2 }),
          object: fc.anything({ maxDepth: 2 }),
        })
        .map((request) => json({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await client.post('/validate', body);
        return answer.status === 400 || answer.status === 200;
      }),
      { numRuns: 150 },
    );
    expect((await client.post('/validate', review)).review.response?.allowed).toBe(true);
    expect(gateway.logs.filter((l) => l.msg === 'gateway worker exited unexpectedly; starting a replacement')).toEqual(
      [],
    );
    expect(gateway.logs.filter((l) => l.level === 'error' && String(l.msg).startsWith('internal error'))).toEqual([]);
  });
});
