/**
 * The health and metrics listener every Hookgate process can open: GET /metrics (Prometheus text
 * from a MetricsSource), /livez and /readyz. Separate from the process's own traffic (admission,
 * gRPC) so that scraping can be opened to the network while the rest stays on loopback.
 * Plain node:http: a plugin opening it loads no web framework.
 *
 *   const listener = await startHealthListener({ host: '127.0.0.1', port: 9090, metrics, notReadyReason });
 *   listener.url; // http://127.0.0.1:9090
 *   await listener.close();
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsSource } from './cluster-metrics.js';

export interface HealthListenerOptions {
  readonly host: string;
  /** 0: an ephemeral port (read it back from `port`). */
  readonly port: number;
  readonly metrics: MetricsSource;
  /**
   * Why the process is not ready yet (undefined when ready): configuration not loaded, listener not
   * accepting, shutting down. Always ready when absent.
   */
  readonly notReadyReason?: () => string | undefined;
}

export interface HealthListener {
  /** The port bound (the one asked for, or the ephemeral one). */
  readonly port: number;
  /** host:port, with brackets around an IPv6 host. */
  readonly address: string;
  readonly url: string;
  /** Stops accepting, ends idle keep-alive connections, and resolves once the server is closed. */
  close(): Promise<void>;
}

const TEXT = 'text/plain; charset=utf-8';
const PATHS = ['/metrics', '/livez', '/readyz'];

export async function startHealthListener(options: HealthListenerOptions): Promise<HealthListener> {
  const server = http.createServer((request, response) => void answer(options, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const address = `${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
  let closing: Promise<void> | undefined;
  return {
    port: bound.port,
    address,
    url: `http://${address}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return closing;
    },
  };
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
  if (path === '/livez') return send(200, TEXT, 'ok');
  if (path === '/readyz') {
    const reason = options.notReadyReason?.();
    return reason === undefined ? send(200, TEXT, 'ok') : send(503, TEXT, `not ready: ${reason}`);
  }
  try {
    const text = await options.metrics.collect();
    send(200, options.metrics.contentType, text);
  } catch (error) {
    send(500, TEXT, `metrics unavailable: ${(error as Error).message}`);
  }
}
