/**
 * PluginClient.admitBatch over real gRPC on a unix socket, against a raw AdmissionPlugin server that
 * counts the messages it receives: one message for the calls of a batch-capable plugin, one per call
 * otherwise, and each call of a batch timed out, answered and failed on its own.
 */
import * as grpc from '@grpc/grpc-js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { AdmissionPluginService } from '@hookgate/proto';
import type { AdmissionPluginHandlers, AdmitRequest, AdmitRequest__Output, AdmitResponse } from '@hookgate/proto';
import { createPluginClient, type BatchCall } from './plugin-client.js';

interface CountingServer {
  readonly target: string;
  /** Every AdmitStream message received, as received. */
  readonly messages: AdmitRequest__Output[];
  stop(): Promise<void>;
}

/** `silent`: hooks the server never answers (to time out); `broken`: hooks answered with an in-band error. */
async function countingServer(socket: string, batch: boolean): Promise<CountingServer> {
  const messages: AdmitRequest__Output[] = [];
  const answer = (id: number, hook: string, uid: string): AdmitResponse | undefined => {
    if (hook === 'silent') return undefined;
    if (hook === 'broken') return { id, uid, error: { code: grpc.status.INTERNAL, message: 'broken on purpose' } };
    return { id, uid, allowed: hook !== 'deny', warnings: [`${hook} saw ${uid}`] };
  };
  const handlers: Partial<AdmissionPluginHandlers> = {
    Describe: (_call, callback) =>
      callback(null, { plugin: 'counting', admitStream: true, applyPatch: true, admitBatch: batch }),
    AdmitStream: (call) => {
      call.on('data', (message: AdmitRequest__Output) => {
        messages.push(message);
        const calls = message.batch.length > 0 ? message.batch : [message];
        for (const c of calls) {
          const reply = answer(c.id, c.hook, c.uid);
          if (reply !== undefined) call.write(reply);
        }
      });
      call.on('end', () => call.end());
    },
  };
  const server = new grpc.Server();
  server.addService(AdmissionPluginService, handlers as AdmissionPluginHandlers);
  await new Promise<number>((resolve, reject) =>
    server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (e, port) =>
      e ? reject(e) : resolve(port),
    ),
  );
  return {
    target: `unix://${socket}`,
    messages,
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

const shared = (): AdmitRequest => ({ phase: 'VALIDATING', request: Buffer.from('{"uid":"apiserver-uid"}') });
const call = (hook: string, timeoutMs = 5000): BatchCall => ({
  hook,
  round: 0,
  uid: `uid-${hook}`,
  timeoutMs,
  reviewVersion: 'v1',
});
const never = new AbortController().signal;

describe('PluginClient.admitBatch', () => {
  let tmp: TempDir;
  let batching: CountingServer;
  let plain: CountingServer;

  beforeAll(async () => {
    tmp = await tempDir('hookgate-admit-batch-');
    batching = await countingServer(path.join(tmp.dir, 'batch.sock'), true);
    plain = await countingServer(path.join(tmp.dir, 'plain.sock'), false);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([batching.stop(), plain.stop()]);
    await tmp.cleanup();
  });

  it('sends the calls to a batch-capable plugin in one message and resolves each with its own answer', async () => {
    const client = createPluginClient('counting', batching.target);
    try {
      expect((await client.describe()).batch).toBe(true);
      const before = batching.messages.length;
      const outcomes = await Promise.all(client.admitBatch(shared, [call('a'), call('deny'), call('b')], never));
      expect(batching.messages.length - before).toBe(1);
      const sent = batching.messages.at(-1)!;
      expect(sent.request.toString()).toBe('{"uid":"apiserver-uid"}');
      expect(sent.hook).toBe('');
      expect(sent.batch.map((c) => [c.hook, c.uid, c.reviewVersion, c.timeoutMs])).toEqual([
        ['a', 'uid-a', 'v1', 5000],
        ['deny', 'uid-deny', 'v1', 5000],
        ['b', 'uid-b', 'v1', 5000],
      ]);
      expect(outcomes.map((o) => (o.ok ? [o.response.allowed, o.response.warnings[0]] : o.kind))).toEqual([
        [true, 'a saw uid-a'],
        [false, 'deny saw uid-deny'],
        [true, 'b saw uid-b'],
      ]);
    } finally {
      client.close();
    }
  });

  it('times out a call whose answer does not come, alone; the others of the batch are answered', async () => {
    const client = createPluginClient('counting', batching.target);
    try {
      await client.describe();
      const [silent, fine, broken] = client.admitBatch(
        shared,
        [call('silent', 150), call('fine'), call('broken')],
        never,
      );
      expect(await fine).toMatchObject({ ok: true, response: { allowed: true } });
      expect(await broken).toMatchObject({ ok: true, response: { error: { message: 'broken on purpose' } } });
      expect(await silent).toEqual({ ok: false, kind: 'timeout' });
      // One timeout is one failure on the breaker, not a broken stream: the circuit stays closed.
      expect(client.status()).toMatchObject({ circuit: 'closed', streamOpen: true, inFlight: 0 });
    } finally {
      client.close();
    }
  });

  it('sends one message per call to a plugin that does not declare admit_batch', async () => {
    const client = createPluginClient('counting', plain.target);
    try {
      expect((await client.describe()).batch).toBe(false);
      const before = plain.messages.length;
      const outcomes = await Promise.all(client.admitBatch(shared, [call('a'), call('b')], never));
      const sent = plain.messages.slice(before);
      expect(sent.map((m) => [m.hook, m.uid, m.batch.length])).toEqual([
        ['a', 'uid-a', 0],
        ['b', 'uid-b', 0],
      ]);
      expect(outcomes.every((o) => o.ok && o.response.allowed)).toBe(true);
    } finally {
      client.close();
    }
  });

  it('cancels every call of a batch when the signal aborts', async () => {
    const client = createPluginClient('counting', batching.target);
    try {
      await client.describe();
      const controller = new AbortController();
      const answers = client.admitBatch(shared, [call('silent'), call('silent')], controller.signal);
      controller.abort();
      expect(await Promise.all(answers)).toEqual([
        { ok: false, kind: 'canceled' },
        { ok: false, kind: 'canceled' },
      ]);
    } finally {
      client.close();
    }
  });
});
