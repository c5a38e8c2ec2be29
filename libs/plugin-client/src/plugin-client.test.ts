/**
 * PluginClient against real SDK plugins over a real unix socket: Describe, the health probe, and
 * Reconcile (the controller's call) with its answer round-tripping both ways, deadlines,
 * cancellation, hook errors and a plugin that is not there.
 */
import * as grpc from '@grpc/grpc-js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, servePlugin, type PluginServer, type ReconcileRequest } from '@hookgate/plugin-sdk';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import type { ReconcileRequest as ReconcileMessage } from '@hookgate/proto';
import { createPluginClient, type PluginClient } from './plugin-client.js';

const seen: ReconcileRequest[] = [];
let release: () => void = () => undefined;

const quota = definePlugin({
  name: 'quota',
  hooks: { 'quota.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
  async reconcile(request) {
    seen.push(request);
    if (request.sideEffect.kind === 'broken') throw new Error('ledger unreachable');
    if (request.sideEffect.kind === 'slow') await new Promise<void>((resolve) => (release = resolve));
    return { done: false, message: `quota ${request.sideEffect.key} not released yet`, retryAfterMs: 1500 };
  },
});

const admitOnly = definePlugin({
  name: 'admit-only',
  hooks: { 'labels.example.com': { phase: 'mutating', mutate: () => undefined } },
});

const message = (kind = 'quota', overrides: Partial<ReconcileMessage> = {}): ReconcileMessage => ({
  hook: 'quota.example.com',
  sideEffect: { kind, key: 'shop/web-0', payload: Buffer.from('{"cpu":"2"}') },
  outcome: 'NOT_PERSISTED',
  object: Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0' } })),
  admission: {
    uid: 'apiserver-uid',
    operation: 'CREATE',
    group: '',
    version: 'v1',
    resource: 'pods',
    subResource: '',
    namespace: 'shop',
    name: 'web-0',
    allowed: false,
    dryRun: false,
  },
  attempt: 2,
  ...overrides,
});

const inSeconds = (s: number) => ({ deadline: Date.now() + s * 1000 });

describe('PluginClient → an SDK plugin over a unix socket', () => {
  let tmp: TempDir;
  let servers: PluginServer[];
  let client: PluginClient;
  let plain: PluginClient;

  beforeAll(async () => {
    tmp = await tempDir('hookgate-plugin-client-');
    const dir = tmp.dir;
    servers = await Promise.all([
      servePlugin(quota, { listen: `unix://${path.join(dir, 'quota.sock')}`, logger: false }),
      servePlugin(admitOnly, { listen: `unix://${path.join(dir, 'admit-only.sock')}`, logger: false }),
    ]);
    client = createPluginClient('quota', servers[0]!.target, { probeTimeoutMs: 2000 });
    plain = createPluginClient('admit-only', servers[1]!.target, { probeTimeoutMs: 2000 });
  }, 30_000);

  afterAll(async () => {
    client.close();
    plain.close();
    await Promise.all(servers.map((s) => s.shutdown(200)));
    await tmp.cleanup();
  });

  it('reads the capabilities from Describe, reconcile included', async () => {
    expect(await client.describe()).toMatchObject({ stream: true, applyPatch: true, reconcile: true });
    expect((await plain.describe()).reconcile).toBe(false);
    expect([...client.capabilities!.hooks]).toEqual([['quota.example.com', 'VALIDATING']]);
  });

  it('answers the health probe', async () => {
    expect(await client.checkHealth()).toBe('SERVING');
  });

  it('reconciles: the request reaches the handler whole and the answer comes back', async () => {
    seen.length = 0;
    const reply = await client.reconcile(message(), inSeconds(5));
    expect(reply).toEqual({
      ok: true,
      response: { done: false, message: 'quota shop/web-0 not released yet', retryAfterMs: 1500 },
    });
    expect(seen).toHaveLength(1);
    expect({
      ...seen[0]!,
      sideEffect: { ...seen[0]!.sideEffect, payload: seen[0]!.sideEffect.payload.toString() },
    }).toEqual({
      hook: 'quota.example.com',
      sideEffect: { kind: 'quota', key: 'shop/web-0', payload: '{"cpu":"2"}' },
      outcome: 'NOT_PERSISTED',
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0' } },
      admission: {
        uid: 'apiserver-uid',
        operation: 'CREATE',
        group: '',
        version: 'v1',
        resource: 'pods',
        subResource: '',
        namespace: 'shop',
        name: 'web-0',
        allowed: false,
        dryRun: false,
      },
      attempt: 2,
    });
  });

  it('reports a failing handler as the plugin’s answer (INTERNAL, not a transport failure), the breaker closed', async () => {
    const reply = await client.reconcile(message('broken'), inSeconds(5));
    expect(reply).toMatchObject({ ok: false, kind: 'rpc', code: grpc.status.INTERNAL, transport: false });
    expect(!reply.ok && reply.kind === 'rpc' && reply.detail).toContain('ledger unreachable');
    expect(client.breaker?.state).toBe('closed');
  });

  it('reports UNIMPLEMENTED for a plugin without a reconcile handler', async () => {
    const reply = await plain.reconcile(message(), inSeconds(5));
    expect(reply).toMatchObject({ ok: false, kind: 'rpc', code: grpc.status.UNIMPLEMENTED, transport: false });
  });

  it('times out at the deadline', async () => {
    const started = Date.now();
    const reply = await client.reconcile(message('slow'), { deadline: Date.now() + 200 });
    release();
    expect(reply).toEqual({ ok: false, kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = client.reconcile(message('slow'), { ...inSeconds(5), signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toEqual({ ok: false, kind: 'canceled' });
    release();
  });
});

describe('PluginClient.reconcile → no plugin', () => {
  it('fails as a transport failure, counted by the breaker until it opens and fails fast', async () => {
    const client = createPluginClient('gone', 'unix:///nonexistent/hookgate-plugin-client-gone.sock', {
      circuitBreaker: { failureThreshold: 2, cooldownMs: 60_000 },
      probeTimeoutMs: 500,
    });
    try {
      for (let i = 0; i < 2; i++) {
        expect(await client.reconcile(message(), inSeconds(2))).toMatchObject({
          ok: false,
          kind: 'rpc',
          code: grpc.status.UNAVAILABLE,
          transport: true,
        });
      }
      expect(await client.reconcile(message(), inSeconds(2))).toEqual({ ok: false, kind: 'circuit-open', failures: 2 });
    } finally {
      client.close();
    }
    expect(await client.reconcile(message(), inSeconds(2))).toMatchObject({ ok: false, kind: 'rpc', transport: true });
  });
});
