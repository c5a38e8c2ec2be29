/** A tiny HTTP listener for GET /metrics, when a plugin asks for one. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type client from 'prom-client';
import { parseListen } from './listen.js';

export interface MetricsListener {
  readonly address: string;
  close(): Promise<void>;
}

export async function startMetricsListener(listen: string, registry: client.Registry): Promise<MetricsListener> {
  const address = parseListen(listen);
  if (address.kind !== 'tcp') throw new Error(`metrics listen address ${JSON.stringify(listen)} must be host:port`);
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end('not found: try GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: Error) => res.writeHead(500).end(`metrics collection failed: ${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host || '127.0.0.1', () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return {
    address: `${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
