/**
 * The baseline: the same hooks as plain AdmissionReview webhooks, the way most webhooks are written
 * today (node:http, keep-alive, JSON in and out, the patch computed by diffing the decoded object).
 * One process per hook index and phase, serving the no-op and the realistic hook at `/<hook name>`;
 * over https with --tls-cert/--tls-key (the existing webhooks of the bridge scenario).
 *
 *   node --import tsx webhook-main.ts --phase validating --index 2     (prints {"ready":true,"port":N})
 *   node --import tsx webhook-main.ts --phase mutating --index 0 --tls-cert c.pem --tls-key k.pem
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { parseArgs } from 'node:util';
import fastJsonPatch from 'fast-json-patch';
import { benchHook, type BenchHook, type HookPhase, type JsonObject } from '../hooks/bench-hooks.js';
import { announceReady, exitWithParent } from './exit-with-parent.js';

const { values } = parseArgs({
  options: {
    phase: { type: 'string' },
    index: { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
  },
});
const phase = values.phase as HookPhase;
const index = Number(values.index);
if ((phase !== 'mutating' && phase !== 'validating') || !Number.isInteger(index)) {
  process.stderr.write(
    'usage: webhook-main.ts --phase mutating|validating --index N [--tls-cert FILE --tls-key FILE]\n',
  );
  process.exit(2);
}

interface ReviewIn {
  apiVersion?: string;
  request?: { uid?: string; object?: JsonObject | null };
}

const hooks = new Map<string, BenchHook>(
  [benchHook('noop', phase, index), benchHook('realistic', phase, index)].map((h) => [`/${h.name}`, h]),
);

function answer(hook: BenchHook, review: ReviewIn): Record<string, unknown> {
  const uid = review.request?.uid ?? '';
  const object = review.request?.object ?? undefined;
  if (object === undefined) return { uid, allowed: true };
  if (hook.phase === 'validating') {
    const message = hook.validate?.(object);
    return message === undefined
      ? { uid, allowed: true }
      : { uid, allowed: false, status: { code: 403, reason: 'Forbidden', message } };
  }
  if (hook.mutate === undefined) return { uid, allowed: true };
  const changed = structuredClone(object);
  hook.mutate(changed);
  const patch = fastJsonPatch.compare(object, changed);
  if (patch.length === 0) return { uid, allowed: true };
  return { uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '').split('?')[0] ?? '';
  const hook = req.method === 'POST' ? hooks.get(path) : undefined;
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (hook === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no hook at ${path}\n`);
      return;
    }
    let review: ReviewIn;
    try {
      review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReviewIn;
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed AdmissionReview\n');
      return;
    }
    const body = JSON.stringify({
      apiVersion: review.apiVersion ?? 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: answer(hook, review),
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
}

const certFile = values['tls-cert'];
const keyFile = values['tls-key'];
const server =
  certFile !== undefined && keyFile !== undefined
    ? createHttpsServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, handle)
    : createServer(handle);
server.keepAliveTimeout = 120_000; // longer than the client's, so the client always closes first
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  announceReady({ port: typeof address === 'object' && address !== null ? address.port : 0 });
});
exitWithParent(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
