/**
 * Admission answers written past fastify's reply, seen on the wire: fastify's status line and
 * headers (the same as its own replies), the body JSON.stringify would make, keep-alive, and
 * `Connection: close` once a graceful close began.
 */
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionReviewOf, podAdmissionRequest } from '@hookgate/admission/testing';
import { startLoopbackWebhook, type LoopbackWebhook } from '../testing/loopback-webhook.js';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness.js';

const UID = '6c3a1f4e-0b1d-4d1c-9a53-2f0e8e5b7c11';
const BODY = JSON.stringify(admissionReviewOf(podAdmissionRequest({ uid: UID }), 'admission.k8s.io/v1'));

function validating(hooks: { name: string; url: string; failurePolicy: string; timeoutSeconds: number }[]) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'v' },
    webhooks: hooks.map((h) => ({
      ...h,
      clientConfig: { url: h.url },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    })),
  };
}

interface Answer {
  readonly status: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** One POST on its own connection; the answer parsed from the raw bytes. */
function post(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () =>
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`,
      ),
    );
    let raw = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [status = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const body = raw.subarray(end + 4);
      if (body.length < Number(headers['content-length'])) return;
      socket.destroy();
      resolve({ status, headers, body: body.toString('utf8') });
    });
    socket.on('error', reject);
  });
}

describe('writeReview', () => {
  let webhook: LoopbackWebhook;
  let gateway: TestGateway;
  let port = 0;

  beforeAll(async () => {
    webhook = await startLoopbackWebhook();
    gateway = startTestGateway([
      validating([
        { name: 'slow.example.com', url: `${webhook.origin}/timeout`, failurePolicy: 'Ignore', timeoutSeconds: 1 },
      ]),
    ]);
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    port = (gateway.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await gateway.close();
    await webhook.close();
  });

  it('answers with fastify’s status line and headers, and the body JSON.stringify makes', async () => {
    const answer = await post(port, '/mutate');
    const expected = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: UID, allowed: true },
    });
    expect(answer.status).toBe('HTTP/1.1 200 OK');
    expect(answer.body).toBe(expected);
    expect(Object.keys(answer.headers).sort()).toEqual([
      'connection',
      'content-length',
      'content-type',
      'date',
      'keep-alive',
    ]);
    expect(answer.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(expected)),
      connection: 'keep-alive',
    });
    // fastify's own replies (a 404 here) carry the same headers.
    const notFound = await post(port, '/nowhere');
    expect(Object.keys(notFound.headers).sort()).toEqual(Object.keys(answer.headers).sort());
    expect(notFound.headers['content-type']).toBe(answer.headers['content-type']);
  });

  it('closes the connection with an answer written during a graceful close', async () => {
    // The hook hangs until its 1 s timeout (failed open): the close begins while the review is in flight.
    const pending = post(port, '/validate');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = gateway.app.close();
    const answer = await pending;
    await closed;
    expect(answer.status).toBe('HTTP/1.1 200 OK');
    expect(answer.headers['connection']).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ response: { uid: UID, allowed: true } });
  });
});
