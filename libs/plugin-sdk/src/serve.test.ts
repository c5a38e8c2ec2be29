/** servePlugin over real gRPC: unix socket and TCP, unary and stream, health, describe, reconcile, shutdown. */
import * as grpc from '@grpc/grpc-js';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdmitResponse__Output,
  HealthCheckResponse__Output,
  ReconcileResponse__Output,
  DescribeResponse__Output,
} from '@hookgate/proto';
import { definePlugin } from './define-plugin.js';
import { servePlugin, type PluginServer } from './serve.js';
import {
  admitMessage,
  gate,
  parsePatch,
  podRequest,
  rawClients,
  unaryAdmit,
  type RawClients,
} from '../test/fixtures.js';
import { tempDir } from './testing/temp-dir.js';

let slowGate = gate();
let slowCalls = 0;

const plugin = definePlugin({
  name: 'sdk-test',
  hooks: {
    allow: { phase: 'validating', validate: () => ({ allowed: true }) },
    deny: {
      phase: 'validating',
      validate: () => ({ allowed: false, message: 'pods in shop need an owner', code: 403 }),
    },
    patch: {
      phase: 'mutating',
      mutate(req) {
        const obj = req.object!;
        obj.metadata = { ...obj.metadata, annotations: { owner: 'team-a' } };
        return obj;
      },
    },
    throw: {
      phase: 'validating',
      validate: () => {
        throw new Error('database unreachable');
      },
    },
    slow: {
      phase: 'validating',
      validate: async () => {
        slowCalls++;
        await slowGate.promise;
        return { allowed: true, warnings: ['slow'] };
      },
    },
  },
  reconcile: (req) =>
    req.outcome === 'NOT_PERSISTED'
      ? { done: true, message: `released ${req.sideEffect.key}` }
      : { done: false, retryAfterMs: 250, message: `attempt ${req.attempt}` },
});

const pod = podRequest();

for (const transport of ['unix', 'tcp'] as const) {
  describe(`servePlugin over ${transport}`, () => {
    let server: PluginServer;
    let clients: RawClients;
    let cleanup: () => Promise<void> = async () => {};

    beforeAll(async () => {
      let listen = '127.0.0.1:0';
      if (transport === 'unix') {
        const tmp = await tempDir();
        cleanup = tmp.cleanup;
        listen = `unix://${path.join(tmp.dir, 'plugin.sock')}`;
      }
      server = await servePlugin(plugin, { listen, logger: false, metrics: { listen: '127.0.0.1:0' } });
      clients = rawClients(server.target);
    });
    afterAll(async () => {
      clients.close();
      await server.shutdown(1000);
      await cleanup();
    });

    const unary: {
      name: string;
      hook: string;
      phase: 'MUTATING' | 'VALIDATING';
      want: Partial<AdmitResponse__Output>;
      patch?: unknown;
    }[] = [
      { name: 'allow', hook: 'allow', phase: 'VALIDATING', want: { allowed: true, uid: pod.uid } },
      {
        name: 'deny',
        hook: 'deny',
        phase: 'VALIDATING',
        want: { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'pods in shop need an owner' } },
      },
      {
        name: 'patch',
        hook: 'patch',
        phase: 'MUTATING',
        want: { allowed: true },
        patch: [{ op: 'add', path: '/metadata/annotations', value: { owner: 'team-a' } }],
      },
    ];
    for (const c of unary) {
      it(`unary Admit: ${c.name}`, async () => {
        const response = await unaryAdmit(clients.plugin, admitMessage(c.hook, c.phase, pod));
        expect(response).toMatchObject(c.want);
        expect(parsePatch(response)).toEqual(c.patch);
        expect(response.error).toBeNull();
      });
    }

    const failures: { name: string; hook: string; code: grpc.status; text: string }[] = [
      {
        name: 'a throwing handler is INTERNAL naming the hook',
        hook: 'throw',
        code: grpc.status.INTERNAL,
        text: 'hook "throw" failed: database unreachable',
      },
      {
        name: 'an unknown hook is NOT_FOUND',
        hook: 'missing',
        code: grpc.status.NOT_FOUND,
        text: 'plugin "sdk-test" has no hook "missing"',
      },
    ];
    for (const c of failures) {
      it(`unary Admit: ${c.name}`, async () => {
        const error = await unaryAdmit(clients.plugin, admitMessage(c.hook, 'VALIDATING', pod)).then(
          () => undefined,
          (e: grpc.ServiceError) => e,
        );
        expect(error?.code).toBe(c.code);
        expect(error?.details).toContain(c.text);
      });
    }

    it('AdmitStream: multiplexes by id, answers out of order, reports hook errors in-band', async () => {
      const call = clients.plugin.AdmitStream();
      const answers: AdmitResponse__Output[] = [];
      call.on('data', (r: AdmitResponse__Output) => answers.push(r));
      const ended = new Promise<void>((resolve, reject) => {
        call.on('end', resolve);
        call.on('error', reject);
      });
      slowGate = gate();
      const before = slowCalls;
      call.write(admitMessage('slow', 'VALIDATING', pod, { id: 1 }));
      await expect.poll(() => slowCalls > before, { timeout: 3_000, message: 'the slow hook to start' }).toBe(true);
      call.write(admitMessage('allow', 'VALIDATING', pod, { id: 2 }));
      call.write(admitMessage('throw', 'VALIDATING', pod, { id: 3 }));
      call.write(admitMessage('patch', 'MUTATING', pod, { id: 4 }));
      call.write(admitMessage('missing', 'VALIDATING', pod, { id: 5 }));
      await expect.poll(() => answers.length === 4, { timeout: 3_000, message: 'four fast answers' }).toBe(true);
      slowGate.release();
      call.end();
      await ended;
      expect(answers.map((a) => a.id)).toEqual([2, 3, 4, 5, 1]);
      const byId = new Map(answers.map((a) => [a.id, a]));
      expect(byId.get(1)).toMatchObject({ allowed: true, warnings: ['slow'], error: null });
      expect(byId.get(2)).toMatchObject({ allowed: true, error: null });
      expect(byId.get(3)?.error).toEqual({
        code: grpc.status.INTERNAL,
        message: 'hook "throw" failed: database unreachable',
      });
      expect(parsePatch(byId.get(4)!)).toEqual([
        { op: 'add', path: '/metadata/annotations', value: { owner: 'team-a' } },
      ]);
      expect(byId.get(5)?.error?.code).toBe(grpc.status.NOT_FOUND);
    });

    it('AdmitStream: a batch runs its hooks concurrently and answers each entry on its own, by its id and uid', async () => {
      const call = clients.plugin.AdmitStream();
      const answers: AdmitResponse__Output[] = [];
      call.on('data', (r: AdmitResponse__Output) => answers.push(r));
      const ended = new Promise<void>((resolve, reject) => {
        call.on('end', resolve);
        call.on('error', reject);
      });
      slowGate = gate();
      const entry = (id: number, hook: string) => ({
        id,
        hook,
        uid: `uid-${id}`,
        timeoutMs: 1000,
        reviewVersion: 'v1',
      });
      // The shared request carries the apiserver's uid; each entry's uid is the one that counts.
      call.write({
        phase: 'VALIDATING',
        request: Buffer.from(JSON.stringify(pod)),
        batch: [entry(11, 'slow'), entry(12, 'allow'), entry(13, 'deny'), entry(14, 'throw'), entry(15, 'missing')],
      });
      // The slow hook holds its own answer only: the four others arrive while it waits.
      await expect
        .poll(() => answers.length === 4, { timeout: 3_000, message: 'four answers before the slow one' })
        .toBe(true);
      expect(answers.map((a) => a.id)).not.toContain(11);
      slowGate.release();
      call.end();
      await ended;
      const byId = new Map(answers.map((a) => [a.id, a]));
      expect([...byId.keys()].sort()).toEqual([11, 12, 13, 14, 15]);
      expect(byId.get(11)).toMatchObject({ allowed: true, warnings: ['slow'], uid: 'uid-11', error: null });
      expect(byId.get(12)).toMatchObject({ allowed: true, uid: 'uid-12', error: null });
      expect(byId.get(13)).toMatchObject({ allowed: false, uid: 'uid-13', status: { code: 403 } });
      expect(byId.get(14)?.error).toEqual({
        code: grpc.status.INTERNAL,
        message: 'hook "throw" failed: database unreachable',
      });
      expect(byId.get(15)?.error?.code).toBe(grpc.status.NOT_FOUND);
    });

    it('Describe lists the hooks and the capabilities', async () => {
      const reply = await new Promise<DescribeResponse__Output>((resolve, reject) =>
        clients.plugin.Describe({}, (e, r) => (e ? reject(e) : resolve(r!))),
      );
      expect(reply).toMatchObject({
        plugin: 'sdk-test',
        admitStream: true,
        applyPatch: true,
        reconcile: true,
        admitBatch: true,
      });
      expect(reply.hooks).toContainEqual({ name: 'patch', phase: 'MUTATING' });
      expect(reply.hooks).toContainEqual({ name: 'allow', phase: 'VALIDATING' });
    });

    const reconciles: { name: string; outcome: string; want: Partial<ReconcileResponse__Output> }[] = [
      {
        name: 'not persisted: done',
        outcome: 'NOT_PERSISTED',
        want: { done: true, message: 'released shop/web-0', retryAfterMs: 0 },
      },
      {
        name: 'persisted: retry later',
        outcome: 'PERSISTED',
        want: { done: false, message: 'attempt 2', retryAfterMs: 250 },
      },
    ];
    for (const c of reconciles) {
      it(`Reconcile: ${c.name}`, async () => {
        const reply = await new Promise<ReconcileResponse__Output>((resolve, reject) =>
          clients.plugin.Reconcile(
            {
              hook: 'patch',
              sideEffect: { kind: 'quota', key: 'shop/web-0' },
              outcome: c.outcome as 'PERSISTED',
              attempt: 2,
            },
            (e, r) => (e ? reject(e) : resolve(r!)),
          ),
        );
        expect(reply).toMatchObject(c.want);
      });
    }

    const checks: { name: string; service: string; want: string | number }[] = [
      { name: 'the server', service: '', want: 'SERVING' },
      { name: 'the plugin service', service: 'hookgate.plugin.v1.AdmissionPlugin', want: 'SERVING' },
      { name: 'an unknown service', service: 'nope', want: grpc.status.NOT_FOUND },
    ];
    for (const c of checks) {
      it(`health Check: ${c.name}`, async () => {
        const got = await new Promise<string | number>((resolve) =>
          clients.health.Check({ service: c.service }, (e, r: HealthCheckResponse__Output | undefined) =>
            resolve(e ? e.code : r!.status),
          ),
        );
        expect(got).toBe(c.want);
      });
    }

    it('serves metrics when asked', async () => {
      const text = await (await fetch(`http://${server.metricsAddress}/metrics`)).text();
      expect(text).toContain(
        'hookgate_plugin_admit_duration_seconds_count{plugin="sdk-test",hook="allow",outcome="allowed"}',
      );
      expect(text).toContain(
        'hookgate_plugin_admit_duration_seconds_count{plugin="sdk-test",hook="throw",outcome="error"}',
      );
    });
  });
}

describe('servePlugin shutdown', () => {
  it('answers in-flight stream messages, ends the stream, tells Watch NOT_SERVING, then stops', async () => {
    const tmp = await tempDir();
    const held = gate();
    let started = 0;
    const p = definePlugin({
      name: 'draining',
      hooks: {
        hold: { phase: 'validating', validate: async () => (started++, await held.promise, { allowed: true }) },
      },
    });
    const server = await servePlugin(p, { listen: `unix://${path.join(tmp.dir, 'p.sock')}`, logger: false });
    const clients = rawClients(server.target);
    try {
      const statuses: string[] = [];
      const watch = clients.health.Watch({ service: '' });
      watch.on('data', (r: HealthCheckResponse__Output) => statuses.push(r.status));
      watch.on('error', () => undefined);
      await expect.poll(() => statuses.length === 1, { timeout: 3_000, message: 'the first Watch status' }).toBe(true);

      const call = clients.plugin.AdmitStream();
      const answers: AdmitResponse__Output[] = [];
      call.on('data', (r: AdmitResponse__Output) => answers.push(r));
      const streamEnded = new Promise<void>((resolve) => call.on('end', resolve));
      call.on('error', () => undefined);
      call.write(admitMessage('hold', 'VALIDATING', pod, { id: 9 }));
      await expect.poll(() => started === 1, { timeout: 3_000, message: 'the held hook to start' }).toBe(true);

      const stopped = server.shutdown(5000);
      await expect
        .poll(() => statuses.includes('NOT_SERVING'), { timeout: 3_000, message: 'NOT_SERVING on Watch' })
        .toBe(true);
      held.release();
      await streamEnded;
      await stopped;
      expect(answers.map((a) => [a.id, a.allowed])).toEqual([[9, true]]);
      expect(statuses).toEqual(['SERVING', 'NOT_SERVING']);
    } finally {
      clients.close();
      await server.shutdown(100);
      await tmp.cleanup();
    }
  });
  it('answers /readyz 503 with the reason while draining, ok while serving', async () => {
    const held = gate();
    let started = 0;
    const p = definePlugin({
      name: 'draining-ready',
      hooks: {
        hold: { phase: 'validating', validate: async () => (started++, await held.promise, { allowed: true }) },
      },
    });
    const server = await servePlugin(p, { listen: '127.0.0.1:0', logger: false, metrics: { listen: '127.0.0.1:0' } });
    const clients = rawClients(server.target);
    const readyz = async () => {
      const res = await fetch(`http://${server.metricsAddress}/readyz`);
      return { status: res.status, body: await res.text() };
    };
    try {
      expect(await readyz()).toEqual({ status: 200, body: 'ok' });
      const answered = unaryAdmit(clients.plugin, admitMessage('hold', 'VALIDATING', pod));
      await expect.poll(() => started === 1, { timeout: 3_000, message: 'the held hook to start' }).toBe(true);
      const stopped = server.shutdown(5000);
      await expect.poll(readyz, { timeout: 3_000, message: '/readyz while draining' }).toEqual({
        status: 503,
        body: 'not ready: draining: the plugin is shutting down and answers only the calls in flight',
      });
      held.release();
      await answered;
      await stopped;
    } finally {
      held.release();
      clients.close();
      await server.shutdown(100);
    }
  });

  it('rejects naming the port when the metrics port is taken, and frees its gRPC port', async () => {
    const taken = await servePlugin(plugin, {
      listen: '127.0.0.1:0',
      logger: false,
      metrics: { listen: '127.0.0.1:0' },
    });
    try {
      const grpcPort = await freePort();
      const failure = await servePlugin(plugin, {
        listen: `127.0.0.1:${grpcPort}`,
        logger: false,
        metrics: { listen: taken.metricsAddress! },
      }).catch((e: unknown) => e);
      const port = taken.metricsAddress!.split(':').at(-1);
      expect(failure).toMatchObject({
        code: 'EADDRINUSE',
        message: `metrics listener (metrics.listen "${taken.metricsAddress!}"): cannot listen on 127.0.0.1 port ${port}: EADDRINUSE`,
      });
      expect(await freePort(grpcPort)).toBe(grpcPort);
    } finally {
      await taken.shutdown(100);
    }
  });
});

/** A port free on 127.0.0.1 right now (`port` 0: any); rejects when `port` is taken. */
function freePort(port = 0): Promise<number> {
  const probe = net.createServer();
  return new Promise<number>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => {
      const bound = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(bound));
    });
  });
}
