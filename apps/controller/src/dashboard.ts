/**
 * The read-only queue dashboard: bull-board on a Fastify listener of its own, on localhost by
 * default (`dashboard.host`, `dashboard.port`). Not on the health listener: that one may be opened
 * to the network for scraping, and the dashboard has no authentication, so it stays on loopback. Read-only is bull-board's `readOnlyMode`, enforced
 * on its API (retry, remove, pause, add answer an error), not only hidden in the UI.
 *
 * Redacted: a side-effect job shows which plugin, hook, effect kind and key, and which request and
 * object (as the logs do), never the effect payload or the gateway's id; a completed job's return
 * value shows the outcome and rule, not the plugin's free-text message. Failure reasons are the
 * controller's own lines (they name objects, never their contents).
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import Fastify from 'fastify';
import { isPlainObject } from '@hookgate/admission';

export const DASHBOARD_PATH = '/queues';

export interface Dashboard {
  /** `http://127.0.0.1:9465/queues` */
  readonly url: string;
  /** Shows a queue served from now on (a plugin registered at run time). */
  addQueue(queue: Queue): void;
  /** Stops showing a queue no longer served. */
  removeQueue(queue: Queue): void;
  close(): Promise<void>;
}

export async function startDashboard(
  queues: readonly Queue[],
  listen: { host: string; port: number },
): Promise<Dashboard> {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  const adapters = new Map<Queue, BullMQAdapter>();
  const adapterOf = (queue: Queue) => {
    const adapter = new BullMQAdapter(queue, { readOnlyMode: true, allowRetries: false });
    adapter.setFormatter('data', redactJobData);
    adapter.setFormatter('returnValue', redactReturnValue);
    adapters.set(queue, adapter);
    return adapter;
  };
  const board = createBullBoard({
    queues: queues.map(adapterOf),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Hookgate reconcile queues' } },
  });
  const app = Fastify({ logger: false });
  await app.register(serverAdapter.registerPlugin(), { prefix: DASHBOARD_PATH });
  await app.listen({ host: listen.host, port: listen.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host}:${port}${DASHBOARD_PATH}`,
    addQueue: (queue) => board.addQueue(adapterOf(queue)),
    removeQueue(queue) {
      const adapter = adapters.get(queue);
      if (adapter === undefined) return;
      adapters.delete(queue);
      board.removeQueue(adapter);
    },
    close: () => app.close(),
  };
}

/** What the dashboard shows of a job's data: the fields the logs carry, nothing of the payload or object. */
export function redactJobData(data: unknown): Record<string, unknown> {
  if (!isPlainObject(data)) return { redacted: true };
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 256) : undefined);
  const effect = isPlainObject(data['effect']) ? data['effect'] : {};
  const admission = isPlainObject(data['admission']) ? data['admission'] : {};
  const resource = isPlainObject(admission['resource']) ? admission['resource'] : {};
  const decision = isPlainObject(data['decision']) ? data['decision'] : {};
  return {
    plugin: text(data['plugin']),
    hook: text(data['hook']),
    effect: { kind: text(effect['kind']), key: text(effect['key']), payload: '[redacted]' },
    admission: {
      uid: text(admission['uid']),
      operation: text(admission['operation']),
      resource: [text(resource['resource']), text(resource['group'])].filter(Boolean).join('.'),
      namespace: text(admission['namespace']),
      name: text(admission['name']),
      phase: text(admission['phase']),
    },
    allowed: typeof decision['allowed'] === 'boolean' ? decision['allowed'] : undefined,
    time: typeof data['time'] === 'number' ? data['time'] : undefined,
  };
}

/** A reconcile's outcome and rule, or a resync run's counts; the plugin's message is left out. */
export function redactReturnValue(value: unknown): unknown {
  if (!isPlainObject(value)) return value === null || value === undefined ? value : '[redacted]';
  const kept: Record<string, unknown> = {};
  for (const field of ['outcome', 'rule', 'result', 'listed', 'young', 'kept', 'reconciled', 'pending', 'failed']) {
    const v = value[field];
    if (typeof v === 'string' || typeof v === 'number') kept[field] = v;
  }
  if ('message' in value) kept['message'] = '[redacted]';
  return kept;
}
