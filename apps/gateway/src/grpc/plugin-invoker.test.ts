/**
 * pluginInvoker against real plugins over real gRPC (unix sockets and TCP): SDK plugins on the
 * multiplexed stream, a plain plugin (no Describe, no stream) on unary Admit, deadlines,
 * cancellation, stream reopen after a plugin restart, and the circuit breaker.
 */
import * as grpc from '@grpc/grpc-js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, servePlugin, type PluginServer } from '@hookgate/plugin-sdk';
import { tempDir } from '@hookgate/plugin-sdk/testing';
import { AdmissionPluginService } from '@hookgate/proto';
import type { AdmitRequest__Output, AdmitResponse } from '@hookgate/proto';
import type { HookReply } from '@hookgate/admission';
import { createPluginClient, type PluginClient } from '@hookgate/plugin-client';
import { pluginInvoker } from './plugin-invoker.js';
import { callFor, gate, hookFor, podRequest, receivedReview, receivedStanza } from './test/fixtures.js';

const held = { gate: gate(), started: 0 };
const seen: { labels?: unknown; uid?: string }[] = [];

const sdkPlugin = definePlugin({
  name: 'sdk',
  hooks: {
    allow: { phase: 'validating', validate: () => ({ allowed: true }) },
    deny: {
      phase: 'validating',
      validate: () => ({ allowed: false, message: 'pods in shop need an owner', code: 403 }),
    },
    annotate: {
      phase: 'mutating',
      mutate(req) {
        const obj = req.object!;
        obj.metadata = { ...obj.metadata, annotations: { owner: 'team-a' } };
        req.reportSideEffect('quota', `${req.namespace}/${req.name}`);
        return obj;
      },
    },
    throw: {
      phase: 'validating',
      validate: () => {
        throw new Error('database unreachable');
      },
    },
    held: {
      phase: 'validating',
      validate: async () => {
        held.started++;
        await held.gate.promise;
        return { allowed: true };
      },
    },
    echo: {
      phase: 'mutating',
      mutate: (req) => void seen.push({ labels: req.object?.metadata?.labels, uid: req.uid }),
    },
  },
});

const url = (plugin: string, hook: string): string => `plugin://${plugin}/${hook}?timeout=10s`;
const never = new AbortController().signal;

function startHeld(): void {
  held.gate = gate();
}

/** Strips Buffers and undefined so that replies compare as plain data. */
function plain(reply: HookReply): unknown {
  return JSON.parse(JSON.stringify(reply));
}

const decisionCases: {
  name: string;
  hook: string;
  phase: 'mutating' | 'validating';
  want: (uid: string) => unknown;
}[] = [
  { name: 'allow', hook: 'allow', phase: 'validating', want: () => ({ ok: true, answer: { allowed: true } }) },
  {
    name: 'deny',
    hook: 'deny',
    phase: 'validating',
    want: () => ({
      ok: true,
      answer: { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'pods in shop need an owner' } },
    }),
  },
  {
    name: 'patch with a side effect',
    hook: 'annotate',
    phase: 'mutating',
    want: () => ({
      ok: true,
      answer: {
        allowed: true,
        patch: '[{"op":"add","path":"/metadata/annotations","value":{"owner":"team-a"}}]',
        sideEffects: [{ kind: 'quota', key: 'shop/web-0' }],
      },
    }),
  },
  {
    name: 'a throwing hook is a transport failure with the plugin message',
    hook: 'throw',
    phase: 'validating',
    want: () => ({
      ok: false,
      failure: {
        kind: 'transport',
        code: 503,
        message: `failed to call webhook: Post "${url('sdk', 'throw')}": rpc error: code = Internal desc = hook "throw" failed: database unreachable`,
      },
    }),
  },
  {
    name: 'an unknown hook is a transport failure naming it',
    hook: 'nope',
    phase: 'validating',
    want: () => ({
      ok: false,
      failure: {
        kind: 'transport',
        code: 503,
        message: `failed to call webhook: Post "${url('sdk', 'nope')}": rpc error: code = NotFound desc = plugin "sdk" has no hook "nope" (it serves "allow", "deny", "annotate", "throw", "held", "echo"); check the webhook name in the configuration`,
      },
    }),
  },
];

for (const transport of ['unix', 'tcp'] as const) {
  for (const mode of ['stream', 'unary'] as const) {
    describe(`pluginInvoker → SDK plugin over ${transport}, ${mode}`, () => {
      let server: PluginServer;
      let client: PluginClient;
      let cleanup = async (): Promise<void> => {};

      beforeAll(async () => {
        let listen = '127.0.0.1:0';
        if (transport === 'unix') {
          const tmp = await tempDir();
          cleanup = tmp.cleanup;
          listen = `unix://${path.join(tmp.dir, 'sdk.sock')}`;
        }
        server = await servePlugin(sdkPlugin, { listen, logger: false });
        client = createPluginClient('sdk', server.target, {
          transport: mode === 'unary' ? 'unary' : 'auto',
          circuitBreaker: false,
        });
      });
      afterAll(async () => {
        held.gate.release();
        client.close();
        await server.shutdown(500);
        await cleanup();
      });

      for (const c of decisionCases) {
        it(c.name, async () => {
          const invoke = pluginInvoker(new Map([['sdk', client]]));
          const call = callFor(hookFor(c.hook, c.phase, 'sdk'));
          expect(plain(await invoke(call, never))).toEqual(c.want(call.request.uid));
        });
      }

      it('forwards the received review plus the accumulated patch; the plugin sees the patched object and the call uid', async () => {
        const received = receivedReview();
        const invoke = pluginInvoker(new Map([['sdk', client]]), { received });
        const patch = [{ op: 'add', path: '/metadata/labels/team', value: 'core' }];
        const call = callFor(hookFor('echo', 'mutating', 'sdk'), {
          patchFromOriginal: patch,
          request: {
            ...received.request,
            object: {
              ...(received.request.object as object),
              metadata: { name: 'web-0', namespace: 'shop', labels: { app: 'web', team: 'core' } },
            },
          },
        });
        seen.length = 0;
        expect(await invoke(call, never)).toEqual({ ok: true, answer: { allowed: true } });
        expect(seen).toEqual([{ labels: { app: 'web', team: 'core' }, uid: call.request.uid }]);
      });

      it('fails a hook that does not answer in time with the apiserver timeout text, and keeps working', async () => {
        startHeld();
        const invoke = pluginInvoker(new Map([['sdk', client]]));
        const reply = await invoke(
          callFor(hookFor('held', 'validating', 'sdk'), { deadline: Date.now() + 150 }),
          never,
        );
        expect(reply).toEqual({
          ok: false,
          failure: {
            kind: 'timeout',
            code: 503,
            message: `failed to call webhook: Post "${url('sdk', 'held')}": context deadline exceeded`,
          },
        });
        held.gate.release();
        expect(await invoke(callFor(hookFor('allow', 'validating', 'sdk')), never)).toEqual({
          ok: true,
          answer: { allowed: true },
        });
      });

      it('cancels a call when the signal aborts', async () => {
        startHeld();
        const before = held.started;
        const abort = new AbortController();
        const invoke = pluginInvoker(new Map([['sdk', client]]));
        const pending = invoke(callFor(hookFor('held', 'validating', 'sdk')), abort.signal);
        await expect
          .poll(() => held.started > before, { timeout: 5_000, message: 'the held hook to start' })
          .toBe(true);
        abort.abort();
        expect(await pending).toEqual({
          ok: false,
          failure: {
            kind: 'transport',
            code: 503,
            message: `failed to call webhook: Post "${url('sdk', 'held')}": context canceled`,
          },
        });
        held.gate.release();
      });

      it(`uses the ${mode === 'stream' ? 'long-lived stream, answers out of order' : 'unary call'}`, async () => {
        startHeld();
        const before = held.started;
        const invoke = pluginInvoker(new Map([['sdk', client]]));
        const slow = invoke(callFor(hookFor('held', 'validating', 'sdk')), never);
        await expect
          .poll(() => held.started > before, { timeout: 5_000, message: 'the held hook to start' })
          .toBe(true);
        const fast = await Promise.all(
          [1, 2, 3].map(() => invoke(callFor(hookFor('allow', 'validating', 'sdk')), never)),
        );
        expect(fast.every((r) => r.ok)).toBe(true);
        expect(client.status()).toMatchObject({ streamOpen: mode === 'stream', inFlight: mode === 'stream' ? 1 : 0 });
        held.gate.release();
        expect(await slow).toEqual({ ok: true, answer: { allowed: true } });
      });

      it('answers health checks', async () => {
        expect(await client.checkHealth()).toBe('SERVING');
      });
    });
  }
}

describe('pluginInvoker → a plain plugin (no Describe, no stream)', () => {
  const received: AdmitRequest__Output[] = [];
  let server: grpc.Server;
  let client: PluginClient;
  let cleanup = async (): Promise<void> => {};

  beforeAll(async () => {
    const tmp = await tempDir();
    cleanup = tmp.cleanup;
    // What a minimal plugin in another language serves: Admit only.
    server = new grpc.Server();
    server.addService(AdmissionPluginService, {
      Admit: (
        call: grpc.ServerUnaryCall<AdmitRequest__Output, AdmitResponse>,
        callback: grpc.sendUnaryData<AdmitResponse>,
      ) => {
        received.push(call.request);
        if (call.request.hook === 'slow') return void setTimeout(() => callback(null, { allowed: true }), 2000).unref();
        callback(null, { allowed: true, uid: call.request.uid });
      },
    } as grpc.UntypedServiceImplementation);
    const sock = path.join(tmp.dir, 'plain.sock');
    await new Promise<number>((resolve, reject) =>
      server.bindAsync(`unix:${sock}`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    client = createPluginClient('plain', `unix://${sock}`, { circuitBreaker: false });
  });
  afterAll(async () => {
    client.close();
    server.forceShutdown();
    await cleanup();
  });

  it('falls back to unary Admit and forwards the received stanza bytes while unchanged', async () => {
    const stanza = receivedStanza();
    const invoke = pluginInvoker(new Map([['plain', client]]), { received: stanza });
    const call = callFor(hookFor('h', 'validating', 'plain'));
    expect(await invoke(call, never)).toEqual({ ok: true, answer: { allowed: true } });
    const last = received.at(-1)!;
    expect(last.request.equals(stanza.bytes as Buffer)).toBe(true);
    expect(last.baseRequest.length).toBe(0);
    expect(last.uid).toBe(call.request.uid);
    expect(client.capabilities).toMatchObject({ stream: false, applyPatch: false });
  });

  it('sends the whole patched request once the object changed', async () => {
    const stanza = receivedStanza();
    const invoke = pluginInvoker(new Map([['plain', client]]), { received: stanza });
    const patched = podRequest({
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', labels: { team: 'core' } } },
    });
    const call = callFor(hookFor('h', 'mutating', 'plain'), {
      request: patched,
      patchFromOriginal: [{ op: 'add', path: '/metadata/labels/team', value: 'core' }],
    });
    await invoke(call, never);
    expect(JSON.parse(received.at(-1)!.request.toString())).toEqual(call.request);
  });

  it('times out with a gRPC deadline', async () => {
    const invoke = pluginInvoker(new Map([['plain', client]]));
    const reply = await invoke(callFor(hookFor('slow', 'validating', 'plain'), { deadline: Date.now() + 100 }), never);
    expect(reply).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
  });
});

describe("pluginInvoker: messages above gRPC's default 4 MiB", () => {
  const bigPod = () =>
    podRequest({
      object: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web-0', annotations: { blob: 'x'.repeat(5 * 1024 * 1024) } },
      },
    });

  /** The SDK plugin on a socket of its own, a described client for it, everything stopped afterwards. */
  async function withPlugin(
    serveOptions: Partial<Parameters<typeof servePlugin>[1]>,
    clientOptions: Parameters<typeof createPluginClient>[2],
    body: (client: PluginClient) => Promise<void>,
  ): Promise<void> {
    const tmp = await tempDir();
    const server = await servePlugin(sdkPlugin, {
      listen: `unix://${path.join(tmp.dir, 'big.sock')}`,
      logger: false,
      ...serveOptions,
    });
    const client = createPluginClient('sdk', server.target, clientOptions);
    try {
      await client.describe();
      await body(client);
    } finally {
      held.gate.release();
      client.close();
      await server.shutdown(500);
      await tmp.cleanup();
    }
  }

  it('reach an SDK plugin, which accepts what the gateway sends', async () => {
    await withPlugin({}, { circuitBreaker: false }, async (client) => {
      const invoke = pluginInvoker(new Map([['sdk', client]]));
      expect(plain(await invoke(callFor(hookFor('allow', 'validating', 'sdk'), { request: bigPod() }), never))).toEqual(
        { ok: true, answer: { allowed: true } },
      );
    });
  });

  it('fail alone at a plugin that keeps the 4 MiB limit: calls in flight on its stream go on, the breaker stays closed', async () => {
    const limited = { serverOptions: { 'grpc.max_receive_message_length': 4 * 1024 * 1024 } };
    await withPlugin(limited, { circuitBreaker: { failureThreshold: 1 } }, async (client) => {
      startHeld();
      const before = held.started;
      const invoke = pluginInvoker(new Map([['sdk', client]]));
      const pending = invoke(callFor(hookFor('held', 'validating', 'sdk')), never);
      await expect.poll(() => held.started > before, { timeout: 5_000, message: 'the held hook to start' }).toBe(true);
      const big = await invoke(callFor(hookFor('allow', 'validating', 'sdk'), { request: bigPod() }), never);
      expect(big).toMatchObject({
        ok: false,
        failure: { kind: 'transport', message: expect.stringContaining('ResourceExhausted') },
      });
      held.gate.release();
      expect(await pending).toEqual({ ok: true, answer: { allowed: true } });
      expect(client.breaker?.state).toBe('closed');
    });
  });
});

describe('pluginInvoker → a plugin that claims a stream it does not serve', () => {
  it('falls back to unary Admit for good, without losing the call', async () => {
    const tmp = await tempDir();
    const server = new grpc.Server();
    let admits = 0;
    server.addService(AdmissionPluginService, {
      Describe: (_call: unknown, callback: grpc.sendUnaryData<object>) =>
        callback(null, { plugin: 'liar', admitStream: true }),
      Admit: (_call: unknown, callback: grpc.sendUnaryData<AdmitResponse>) => {
        admits++;
        callback(null, { allowed: true });
      },
    } as grpc.UntypedServiceImplementation);
    const sock = path.join(tmp.dir, 'liar.sock');
    await new Promise<number>((resolve, reject) =>
      server.bindAsync(`unix:${sock}`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    const client = createPluginClient('liar', `unix://${sock}`, { circuitBreaker: false });
    try {
      const invoke = pluginInvoker(new Map([['liar', client]]));
      await client.describe();
      expect(client.capabilities?.stream).toBe(true);
      for (let i = 0; i < 2; i++)
        expect(await invoke(callFor(hookFor('h', 'validating', 'liar')), never)).toEqual({
          ok: true,
          answer: { allowed: true },
        });
      expect(admits).toBe(2);
      expect(client.capabilities?.stream).toBe(false);
    } finally {
      client.close();
      server.forceShutdown();
      await tmp.cleanup();
    }
  });
});

describe('pluginInvoker: stream reopen and circuit breaker', () => {
  it('fails messages in flight when the plugin dies, and reopens the stream once it is back', async () => {
    const tmp = await tempDir();
    const target = `unix://${path.join(tmp.dir, 'restart.sock')}`;
    let server = await servePlugin(sdkPlugin, { listen: target, logger: false });
    const client = createPluginClient('sdk', target, { circuitBreaker: false });
    const invoke = pluginInvoker(new Map([['sdk', client]]));
    try {
      expect(await invoke(callFor(hookFor('allow', 'validating', 'sdk')), never)).toEqual({
        ok: true,
        answer: { allowed: true },
      });
      startHeld();
      const before = held.started;
      const inFlight = invoke(callFor(hookFor('held', 'validating', 'sdk')), never);
      await expect.poll(() => held.started > before, { timeout: 5_000, message: 'the held hook to start' }).toBe(true);
      await server.shutdown(0); // cut: the held call never answers
      const reply = await inFlight;
      expect(reply).toMatchObject({ ok: false, failure: { kind: 'transport', code: 503 } });
      expect(reply.ok ? '' : reply.failure.message).toMatch(
        /^failed to call webhook: Post "plugin:\/\/sdk\/held\?timeout=10s": rpc error: code = \w+ desc = admit stream failed: /,
      );
      held.gate.release();

      server = await servePlugin(sdkPlugin, { listen: target, logger: false });
      await expect
        .poll(async () => (await invoke(callFor(hookFor('allow', 'validating', 'sdk')), never)).ok, {
          timeout: 5_000,
          message: 'a call to succeed after the restart',
        })
        .toBe(true);
      expect(client.status()).toMatchObject({ streamOpen: true, circuit: 'disabled' });
    } finally {
      client.close();
      await server.shutdown(100);
      await tmp.cleanup();
    }
  });

  it('opens after consecutive failures, fails at once, and closes when a probe finds the plugin back', async () => {
    const tmp = await tempDir();
    const target = `unix://${path.join(tmp.dir, 'late.sock')}`;
    const transitions: string[] = [];
    const client = createPluginClient('late', target, {
      circuitBreaker: { failureThreshold: 2, cooldownMs: 50, maxCooldownMs: 100 },
      onCircuitStateChange: (_plugin, state, previous) => transitions.push(`${previous}→${state}`),
    });
    const invoke = pluginInvoker(new Map([['late', client]]));
    const call = (): ReturnType<typeof invoke> => invoke(callFor(hookFor('allow', 'validating', 'late')), never);
    let server: PluginServer | undefined;
    try {
      for (let i = 0; i < 2; i++) {
        const reply = await call();
        expect(reply.ok ? '' : reply.failure.message).toContain('rpc error: code = Unavailable');
      }
      expect(client.breaker?.state).toBe('open');
      expect(await call()).toEqual({
        ok: false,
        failure: {
          kind: 'transport',
          code: 503,
          message: `failed to call webhook: Post "${url('late', 'allow')}": circuit open for plugin "late" after 2 consecutive failures`,
        },
      });

      server = await servePlugin(
        definePlugin({ name: 'late', hooks: { allow: { phase: 'validating', validate: () => ({ allowed: true }) } } }),
        { listen: target, logger: false },
      );
      await expect
        .poll(() => client.breaker?.state === 'closed', { timeout: 5_000, message: 'the circuit to close' })
        .toBe(true);
      expect(await call()).toEqual({ ok: true, answer: { allowed: true } });
      expect(transitions[0]).toBe('closed→open');
      expect(transitions.at(-1)).toMatch(/→closed$/);
    } finally {
      client.close();
      await server?.shutdown(100);
      await tmp.cleanup();
    }
  });
});

describe('pluginInvoker: a plugin that hangs', () => {
  /** Three calls to a hook that never answers; `ownTimeoutMs` is the hook's timeoutSeconds, `deadlineMs` the time the call gets. */
  async function hangThrice(ownTimeoutMs: number, deadlineMs: number): Promise<string | undefined> {
    const tmp = await tempDir();
    const target = `unix://${path.join(tmp.dir, 'hang.sock')}`;
    const server = await servePlugin(sdkPlugin, { listen: target, logger: false });
    const client = createPluginClient('sdk', target, {
      circuitBreaker: { failureThreshold: 3, cooldownMs: 60_000, maxCooldownMs: 60_000 },
    });
    const invoke = pluginInvoker(new Map([['sdk', client]]));
    const hook = { ...hookFor('held', 'validating', 'sdk'), timeoutSeconds: ownTimeoutMs / 1000 };
    startHeld();
    try {
      for (let i = 0; i < 3; i++) {
        const reply = await invoke(callFor(hook, { deadline: Date.now() + deadlineMs }), never);
        expect(reply).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
      }
      return client.breaker?.state;
    } finally {
      held.gate.release();
      client.close();
      await server.shutdown(100);
      await tmp.cleanup();
    }
  }

  it('opens the circuit after consecutive timeouts of its own (each counts, though timeouts share one outcome)', async () => {
    expect(await hangThrice(150, 150)).toBe('open');
  });

  it('does not hold it against the plugin when the request budget, not the hook timeout, ran out', async () => {
    expect(await hangThrice(10_000, 150)).toBe('closed');
  });
});

describe('pluginInvoker: calls that never leave the gateway', () => {
  const client = createPluginClient('idle', 'unix:///nonexistent/hookgate-test.sock', { circuitBreaker: false });
  afterAll(() => client.close());
  const cases: { name: string; plugin: string; deadline?: number; want: unknown }[] = [
    {
      name: 'an unknown plugin is a client failure',
      plugin: 'ghost',
      want: {
        ok: false,
        failure: {
          kind: 'client',
          code: 500,
          message:
            'could not get REST client: plugin "ghost" is not configured; declare it under plugins in the GatewayConfiguration or register it',
        },
      },
    },
    {
      name: 'a deadline already passed is a timeout',
      plugin: 'idle',
      deadline: Date.now() - 1,
      want: {
        ok: false,
        failure: {
          kind: 'timeout',
          code: 503,
          message: `failed to call webhook: Post "${url('idle', 'allow')}": context deadline exceeded`,
        },
      },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const invoke = pluginInvoker(new Map([['idle', client]]));
      expect(await invoke(callFor(hookFor('allow', 'validating', c.plugin), { deadline: c.deadline }), never)).toEqual(
        c.want,
      );
    });
  }
});
