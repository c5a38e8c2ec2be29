/**
 * The health and metrics listener every Hookgate process can open: GET /metrics (Prometheus text
 * from a MetricsSource), /livez and /readyz. Separate from the process's own traffic (admission,
 * gRPC) so that scraping can be opened to the network while the rest stays on loopback.
 * Plain node:http: a plugin opening it loads no web framework.
 *
 *   const listener = await startHealthListener({ host: '127.0.0.1', port: 9090, metrics, notReadyReason });
 *   listener.url; // http://127.0.0.1:9090 (with host 'localhost', also listening on [::1]:9090)
 *   await listener.close();
 */
import http from 'node:http';
import type { MetricsSource } from './cluster-metrics.js';
import { addressesOf, listenOnAddresses } from './listen-on-addresses.js';

export interface HealthListenerOptions {
  /** An address, or a name: every address it resolves to is bound (`localhost`: 127.0.0.1 and ::1). */
  readonly host: string;
  /** 0: an ephemeral port (read it back from `port`). */
  readonly port: number;
  readonly metrics: MetricsSource;
  /**
   * Why the process is not ready yet (undefined when ready): configuration not loaded, listener not
   * accepting, shutting down. Always ready when absent.
   */
  readonly notReadyReason?: () => string | undefined;
  /** Why the process is not alive (undefined when alive): /livez answers 503 with it. Always alive when absent. */
  readonly notLiveReason?: () => string | undefined;
  /** Lines of state an operator should see on /readyz whatever its status (a break-glass switch that is on). */
  readonly readyDetails?: () => readonly string[];
}

export interface HealthListener {
  /** The port bound (the one asked for, or the ephemeral one), the same on every address. */
  readonly port: number;
  /** host:port of the first address bound, with brackets around an IPv6 host. */
  readonly address: string;
  /** host:port of every address bound. */
  readonly addresses: readonly string[];
  readonly url: string;
  /**
   * Stops accepting and ends idle keep-alive connections; requests still in flight get CLOSE_GRACE_MS,
   * then their connections are cut. Resolves once every server is closed.
   */
  close(): Promise<void>;
}

const TEXT = 'text/plain; charset=utf-8';
const PATHS = ['/metrics', '/livez', '/readyz'];

// Node's defaults (headers 60 s, request 300 s, checked every 30 s) would let a slow or stuck client
// hold a connection, and close(), for minutes. Health clients send a few header bytes at once: the
// kubelet's probes time out after 1 s by default, Prometheus gives up a scrape after its default
// scrape_timeout of 10 s, and a /metrics answer takes at most prom-client's 5 s wait for workers.
const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** How often Node checks the two timeouts above (default 30 s, which would make them meaningless). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/** In-flight answers at close: /livez and /readyz answer at once; a cut scrape is retried by Prometheus. */
const CLOSE_GRACE_MS = 1_000;

export async function startHealthListener(options: HealthListenerOptions): Promise<HealthListener> {
  const createServer = () =>
    http.createServer(
      {
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      },
      (request, response) => {
        answer(options, request, response).catch((error: unknown) => answerInternalError(response, error));
      },
    );
  const bound = await listenOnAddresses(
    { host: options.host, addresses: await addressesOf(options.host), port: options.port },
    createServer,
  );
  const addresses = bound.addresses.map((a) => `${a.includes(':') ? `[${a}]` : a}:${bound.port}`);
  let closing: Promise<void> | undefined;
  return {
    port: bound.port,
    address: addresses[0] ?? '',
    addresses,
    url: `http://${addresses[0]}`,
    close() {
      closing ??= Promise.all(bound.servers.map(closeWithinGrace)).then(() => undefined);
      return closing;
    },
  };
}

function closeWithinGrace(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** A last net: whatever throws while answering (a readiness check, say) is a 500, never an unhandled rejection. */
function answerInternalError(response: http.ServerResponse, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  try {
    if (response.headersSent) return void response.destroy();
    const body = `internal error: ${message}\n`;
    response.writeHead(500, { 'content-type': TEXT, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  } catch {
    response.destroy();
  }
}

async function answer(
  options: HealthListenerOptions,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  const method = request.method ?? 'GET';
  const send = (status: number, contentType: string, body: string) => {
    response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    response.end(method === 'HEAD' ? undefined : body);
  };
  if ((method !== 'GET' && method !== 'HEAD') || !PATHS.includes(path ?? '')) {
    return send(404, TEXT, `not found: ${method} ${path}; this listener serves GET ${PATHS.join(', ')}\n`);
  }
  if (path === '/livez') {
    const reason = options.notLiveReason?.();
    return reason === undefined ? send(200, TEXT, 'ok') : send(503, TEXT, `not alive: ${reason}`);
  }
  if (path === '/readyz') {
    const reason = options.notReadyReason?.();
    const details = (options.readyDetails?.() ?? []).map((line) => `\n${line}`).join('');
    return reason === undefined ? send(200, TEXT, `ok${details}`) : send(503, TEXT, `not ready: ${reason}${details}`);
  }
  try {
    const text = await options.metrics.collect();
    send(200, options.metrics.contentType, text);
  } catch (error) {
    send(500, TEXT, `metrics unavailable: ${(error as Error).message}`);
  }
}
