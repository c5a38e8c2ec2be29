/**
 * A real AdmissionReview webhook (http or https) for the bridge tests, like the apiserver's
 * testing/webhook_server.go: the URL path's last segment picks the behaviour, from the shared
 * scripted behaviours of libs/admission (respondAsWebhook) plus a few transport-level ones here.
 * Every call is recorded (behaviour, `?timeout=`, content type, review version, uid, labels).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { AdmissionReview } from '@hookgate/admission';
import { respondAsWebhook } from '@hookgate/admission/testing';
import type { TestCertificate } from './test-certificates.js';

export interface RecordedCall {
  readonly behaviour: string;
  readonly timeoutParam: string | null;
  readonly method: string;
  readonly contentType: string | undefined;
  readonly apiVersion: string;
  readonly uid: string;
  readonly dryRun: boolean | undefined;
  readonly objectLabels: Record<string, unknown>;
}

type Reply = { status: number; contentType?: string; body: string | Buffer } | 'hang';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Behaviours about the transport rather than admission semantics. */
const TRANSPORT_BEHAVIOURS: Readonly<Record<string, (review: AdmissionReview, url: URL) => Reply | Promise<Reply>>> = {
  /** Answers allow after `?ms=` (default 1500) milliseconds. */
  slow: async (review, url) => {
    await sleep(Number(url.searchParams.get('ms') ?? '1500'));
    return fromScripted(respondAsWebhook('noop', review));
  },
  /** A 12 MiB answer: above the bridge's response bound. */
  huge: () => ({ status: 200, contentType: 'application/json', body: Buffer.alloc(12 * 1024 * 1024, 0x20) }),
  /** A non-2xx answer carrying a metav1.Status. */
  statusError: () => ({
    status: 422,
    contentType: 'application/json',
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'Status',
      status: 'Failure',
      message: 'the webhook says no via a Status',
      reason: 'Invalid',
      code: 422,
    }),
  }),
  /** Closes the connection without answering. */
  reset: () => 'hang',
};

function fromScripted(reply: ReturnType<typeof respondAsWebhook>): Reply {
  if (reply.kind === 'hang') return 'hang';
  return {
    status: reply.response.status,
    ...(reply.response.contentType ? { contentType: reply.response.contentType } : {}),
    body: reply.response.body,
  };
}

export interface TestWebhookServer {
  /** `https://127.0.0.1:<port>` or `http://127.0.0.1:<port>` (the host it listens on). */
  readonly origin: string;
  readonly port: number;
  readonly calls: RecordedCall[];
  callsTo(behaviour: string): RecordedCall[];
  /** Calls per behaviour since the last reset. */
  invocations(): Record<string, number>;
  reset(): void;
  close(): Promise<void>;
}

/** `host`: the loopback address to listen on (127.0.0.x stands in for a Service's ClusterIP); 127.0.0.1 by default. */
export async function startWebhookServer(
  tls?: TestCertificate,
  { host = '127.0.0.1' }: { host?: string } = {},
): Promise<TestWebhookServer> {
  const calls: RecordedCall[] = [];
  const hanging = new Set<ServerResponse>();
  const handler = (req: IncomingMessage, res: ServerResponse) => void handle(req, res, calls, hanging);
  const server: Server = tls
    ? createHttpsServer({ cert: tls.certPem, key: tls.keyPem }, handler)
    : createHttpServer(handler);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    calls,
    callsTo: (behaviour) => calls.filter((c) => c.behaviour === behaviour),
    invocations: () => {
      const counts: Record<string, number> = {};
      for (const c of calls) counts[c.behaviour] = (counts[c.behaviour] ?? 0) + 1;
      return counts;
    },
    reset: () => void calls.splice(0, calls.length),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  calls: RecordedCall[],
  hanging: Set<ServerResponse>,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const url = new URL(req.url ?? '/', 'http://webhook');
  const behaviour = url.pathname.split('/').at(-1) ?? '';
  const review = parseReview(Buffer.concat(chunks));
  const object = review.request?.object as { metadata?: { labels?: Record<string, unknown> } } | null | undefined;
  calls.push({
    behaviour,
    timeoutParam: url.searchParams.get('timeout'),
    method: req.method ?? '',
    contentType: req.headers['content-type'],
    apiVersion: review.apiVersion ?? '',
    uid: review.request?.uid ?? '',
    dryRun: review.request?.dryRun,
    objectLabels: { ...(object?.metadata?.labels ?? {}) },
  });
  const transport = TRANSPORT_BEHAVIOURS[behaviour];
  const reply = transport ? await transport(review, url) : fromScripted(respondAsWebhook(behaviour, review));
  if (reply === 'hang') {
    if (behaviour === 'reset') return void res.socket?.destroy();
    hanging.add(res);
    res.once('close', () => hanging.delete(res));
    return;
  }
  res.writeHead(reply.status, reply.contentType ? { 'content-type': reply.contentType } : {}).end(reply.body);
}

function parseReview(bytes: Buffer): AdmissionReview {
  try {
    return JSON.parse(bytes.toString('utf8')) as AdmissionReview;
  } catch {
    return { apiVersion: '', kind: 'AdmissionReview' };
  }
}
