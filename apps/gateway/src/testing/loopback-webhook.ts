/**
 * A loopback http webhook for the gateway's unit tests: the last path segment picks one of the
 * shared scripted behaviours of libs/admission (respondAsWebhook), so the gateway is tested against
 * the same fake webhook as the chain. Records the `?timeout=` and uid of every call.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { respondAsWebhook } from '@hookgate/admission/testing';
import type { AdmissionReview } from '@hookgate/admission';

export interface LoopbackWebhook {
  readonly origin: string;
  readonly calls: { behaviour: string; timeout: string | null; uid: string; apiVersion: string }[];
  close(): Promise<void>;
}

export async function startLoopbackWebhook(): Promise<LoopbackWebhook> {
  const calls: LoopbackWebhook['calls'] = [];
  const pending = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const behaviour = url.pathname.split('/').at(-1) ?? '';
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdmissionReview;
      calls.push({
        behaviour,
        timeout: url.searchParams.get('timeout'),
        uid: review.request?.uid ?? '',
        apiVersion: review.apiVersion,
      });
      const reply = respondAsWebhook(behaviour, review);
      if (reply.kind === 'hang') {
        pending.add(res);
        return;
      }
      const headers = reply.response.contentType === undefined ? {} : { 'content-type': reply.response.contentType };
      res.writeHead(reply.response.status, headers).end(reply.response.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    async close() {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
