/**
 * The bridge against real sockets: a loopback http server and an https server with a certificate
 * from a private CA, answering by URL path. Asserts the exact request sent and each failure kind.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate } from '../tls/certificate-authority.js';
import { buildTestCall, compileTestHook } from '../testing/hook-fixtures.js';
import { createBridgeInvoker, type BridgeInvoker } from './bridge-invoker.js';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: { apiVersion?: string; kind?: string; request?: { uid?: string; dryRun?: boolean; options?: unknown } };
  socket: Socket;
}

function startServer(kind: 'http' | 'https', tls?: { keyPem: string; certPem: string }) {
  const seen: Seen[] = [];
  let retries = 0;
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Seen['body'];
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      contentType: req.headers['content-type'],
      body,
      socket: req.socket,
    });
    const uid = body.request?.uid;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    switch (path) {
      case '/allow':
        return json(200, {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid, allowed: true },
        });
      case '/text-500':
        return res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
      case '/huge':
        return res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.alloc(4096, 'x'));
      case '/retry-once':
        retries += 1;
        if (retries % 2 === 1) return res.writeHead(503, { 'retry-after': '0' }).end();
        return json(200, {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid, allowed: true },
        });
      case '/hang':
        return undefined;
      case '/close':
        return res.socket?.end();
      case '/reset':
        return res.socket?.resetAndDestroy();
      default:
        return json(404, {});
    }
  };
  const server: Server =
    kind === 'https' ? createHttpsServer({ key: tls!.keyPem, cert: tls!.certPem }, handler) : createHttpServer(handler);
  return {
    seen,
    server,
    async listen() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `${kind}://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const now = () => performance.now();

describe('bridge invoker', () => {
  const http = startServer('http');
  let https: ReturnType<typeof startServer>;
  let httpOrigin = '';
  let httpsOrigin = '';
  let caBundle = '';
  let otherCaBundle = '';
  let bridge: BridgeInvoker;

  beforeAll(async () => {
    const ca = await createCertificateAuthority(new Date(), 3600_000);
    const other = await createCertificateAuthority(new Date(), 3600_000);
    caBundle = Buffer.from(ca.certPem).toString('base64');
    otherCaBundle = Buffer.from(other.certPem).toString('base64');
    https = startServer('https', await issueServingCertificate(ca, new Date(), 3600_000));
    httpOrigin = await http.listen();
    httpsOrigin = await https.listen();
    bridge = createBridgeInvoker({ now, maxResponseBytes: 1024 });
  });
  afterAll(async () => {
    await bridge.close();
    await http.close();
    await https.close();
  });

  it('posts the review the apiserver would send, with ?timeout= and the call uid', async () => {
    const hook = compileTestHook('validating', {
      name: 'allow.example.com',
      clientConfig: { url: `${httpOrigin}/allow` },
      timeoutSeconds: 7,
    });
    const call = buildTestCall(hook, now(), { timeoutSeconds: 6.2 });
    const reply = await bridge.invoke(call, new AbortController().signal);
    expect(reply).toEqual({ ok: true, answer: { allowed: true } });
    const request = http.seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/allow?timeout=7s');
    expect(request.contentType).toBe('application/json');
    expect(request.body.apiVersion).toBe('admission.k8s.io/v1');
    expect(request.body.kind).toBe('AdmissionReview');
    expect(request.body.request?.uid).toBe(call.request.uid);
    expect(request.body.request?.dryRun).toBe(false);
  });

  it('keeps connections alive between calls', async () => {
    const hook = compileTestHook('validating', {
      name: 'allow.example.com',
      clientConfig: { url: `${httpOrigin}/allow` },
    });
    const before = http.seen.length;
    for (let i = 0; i < 6; i += 1) await bridge.invoke(buildTestCall(hook, now()), new AbortController().signal);
    const sockets = new Set(http.seen.slice(before).map((s) => s.socket));
    // undici may open a second connection while the first one drains; never one per call.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('retries a 503 that carries Retry-After, as client-go does', async () => {
    const hook = compileTestHook('validating', {
      name: 'retry.example.com',
      clientConfig: { url: `${httpOrigin}/retry-once` },
    });
    const reply = await bridge.invoke(buildTestCall(hook, now()), new AbortController().signal);
    expect(reply).toEqual({ ok: true, answer: { allowed: true } });
  });

  it('verifies https with the hook caBundle', async () => {
    const hook = compileTestHook('validating', {
      name: 'tls.example.com',
      clientConfig: { url: `${httpsOrigin}/allow`, caBundle },
    });
    const reply = await bridge.invoke(buildTestCall(hook, now()), new AbortController().signal);
    expect(reply).toEqual({ ok: true, answer: { allowed: true } });
  });

  const failureCases = [
    {
      name: 'a certificate from another CA is a transport failure',
      url: () => `${httpsOrigin}/allow`,
      ca: () => otherCaBundle,
      kind: 'transport',
      message: () =>
        `failed to call webhook: Post "${httpsOrigin}/allow?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    },
    {
      name: 'a caBundle without a certificate is a client failure',
      url: () => `${httpsOrigin}/allow`,
      ca: () => Buffer.from('not a pem').toString('base64'),
      kind: 'client',
      message: () => 'could not get REST client: unable to load root certificates: caBundle holds no PEM certificate',
    },
    {
      name: 'plain http to a remote host is a client failure',
      url: () => 'http://192.0.2.10/allow',
      ca: () => '',
      kind: 'client',
      message: () => 'could not get REST client: plain http is allowed only to loopback addresses, not "192.0.2.10"',
    },
    {
      name: 'a refused connection is a transport failure',
      url: () => 'http://127.0.0.1:1/allow',
      ca: () => '',
      kind: 'transport',
      message: () =>
        'failed to call webhook: Post "http://127.0.0.1:1/allow?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused',
    },
    {
      name: 'a hook that closes the connection without answering reads EOF, as in Go',
      url: () => `${httpOrigin}/close`,
      ca: () => '',
      kind: 'transport',
      message: () => `failed to call webhook: Post "${httpOrigin}/close?timeout=10s": EOF`,
    },
    {
      name: 'a hook that resets the connection',
      url: () => `${httpOrigin}/reset`,
      ca: () => '',
      kind: 'transport',
      message: () => `failed to call webhook: Post "${httpOrigin}/reset?timeout=10s": read: connection reset by peer`,
    },
    {
      name: 'a non-2xx answer is judged by verifyHookResponse',
      url: () => `${httpOrigin}/text-500`,
      ca: () => '',
      kind: 'http-status',
      message: () =>
        'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
    },
    {
      name: 'a body above the size bound is a transport failure',
      url: () => `${httpOrigin}/huge`,
      ca: () => '',
      kind: 'transport',
      message: () =>
        `failed to call webhook: Post "${httpOrigin}/huge?timeout=10s": response body larger than 1024 bytes`,
    },
  ];
  it.each(failureCases)('$name', async ({ url, ca, kind, message }) => {
    const caBundleValue = ca();
    const hook = compileTestHook('validating', {
      name: 'failing.example.com',
      clientConfig: { url: url(), ...(caBundleValue ? { caBundle: caBundleValue } : {}) },
    });
    const reply = await bridge.invoke(buildTestCall(hook, now()), new AbortController().signal);
    expect(reply.ok).toBe(false);
    if (!reply.ok)
      expect({ kind: reply.failure.kind, message: reply.failure.message }).toEqual({ kind, message: message() });
  });

  it('fails with a timeout when the call deadline passes', async () => {
    const hook = compileTestHook('validating', {
      name: 'hang.example.com',
      clientConfig: { url: `${httpOrigin}/hang` },
      timeoutSeconds: 1,
    });
    const reply = await bridge.invoke(
      buildTestCall(hook, now(), { deadline: now() + 150 }),
      new AbortController().signal,
    );
    expect(reply).toEqual({
      ok: false,
      failure: {
        kind: 'timeout',
        code: 503,
        message: `failed to call webhook: Post "${httpOrigin}/hang?timeout=1s": context deadline exceeded`,
      },
    });
  });

  it('stops at once when the apiserver hangs up', async () => {
    const hook = compileTestHook('validating', {
      name: 'hang.example.com',
      clientConfig: { url: `${httpOrigin}/hang` },
    });
    const controller = new AbortController();
    const pending = bridge.invoke(buildTestCall(hook, now()), controller.signal);
    setTimeout(() => controller.abort(), 50);
    const reply = await pending;
    expect(reply.ok).toBe(false);
    if (!reply.ok)
      expect(reply.failure.message).toBe(
        `failed to call webhook: Post "${httpOrigin}/hang?timeout=10s": context canceled`,
      );
  });
});
