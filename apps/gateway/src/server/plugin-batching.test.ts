/**
 * Per-plugin batching through the whole admission route (inject → chain → gRPC → SDK plugins over
 * real unix sockets): a plugin that declares admit_batch receives the validating hooks of one review
 * in ONE message, and every hook keeps its own timeout, failure policy, warnings, annotations and
 * metrics; a plugin without the capability receives one message per hook and answers the same.
 */
import * as grpc from '@grpc/grpc-js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionReviewOf, podAdmissionRequest } from '@hookgate/admission/testing';
import { createPluginClient, type PluginClient } from '@hookgate/plugin-client';
import { definePlugin, servePlugin, type PluginServer } from '@hookgate/plugin-sdk';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness.js';

const POD_RULE = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };

let release: () => void = () => undefined;
let held = new Promise<void>((resolve) => (release = resolve));

const checks = (name: string) =>
  definePlugin({
    name,
    hooks: {
      'owner.example.com': {
        phase: 'validating',
        validate: (req) => {
          req.annotate('checked', 'owner');
          return { allowed: true, warnings: ['owner: no team label'] };
        },
      },
      'image.example.com': {
        phase: 'validating',
        validate: () => ({ allowed: false, message: 'images must come from registry.example.com', code: 403 }),
      },
      'quota.example.com': { phase: 'validating', validate: () => ({ allowed: true, warnings: ['quota: 80%'] }) },
      'slow.example.com': {
        phase: 'validating',
        validate: async () => {
          await held;
          return { allowed: true };
        },
      },
      'broken.example.com': {
        phase: 'validating',
        validate: () => {
          throw new Error('database unreachable');
        },
      },
    },
  });

/** Counts the messages a plugin server receives, per method. */
function messageCounter(): { readonly counts: Map<string, number>; readonly interceptor: grpc.ServerInterceptor } {
  const counts = new Map<string, number>();
  const interceptor: grpc.ServerInterceptor = (method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMessage: (message: unknown, forward: (message: unknown) => void) => {
            const name = method.path.split('/').at(-1)!;
            counts.set(name, (counts.get(name) ?? 0) + 1);
            forward(message);
          },
        }),
    });
  return { counts, interceptor };
}

interface HookSpec {
  readonly name: string;
  readonly failurePolicy?: 'Fail' | 'Ignore';
  readonly timeoutSeconds?: number;
}

function validatingConfig(plugin: string, hooks: readonly HookSpec[]) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: `${plugin}-checks` },
    webhooks: hooks.map((h) => ({
      name: h.name,
      clientConfig: { plugin },
      rules: [POD_RULE],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      failurePolicy: h.failurePolicy ?? 'Fail',
      timeoutSeconds: h.timeoutSeconds ?? 10,
    })),
  };
}

const review = () =>
  admissionReviewOf(podAdmissionRequest({ uid: 'e911857d-c318-11e8-bbad-025000000001' }), 'admission.k8s.io/v1');

interface Setup {
  readonly server: PluginServer;
  readonly client: PluginClient;
  readonly counts: Map<string, number>;
}

describe('validating hooks of one plugin, batched', () => {
  let tmp: TempDir;
  let batching: Setup;
  let plain: Setup;
  const gateways: TestGateway[] = [];

  const start = async (name: string, admitBatch: boolean): Promise<Setup> => {
    const counter = messageCounter();
    const server = await servePlugin(checks(name), {
      listen: `unix://${path.join(tmp.dir, `${name}.sock`)}`,
      logger: false,
      admitBatch,
      serverOptions: { interceptors: [counter.interceptor] },
    });
    const client = createPluginClient(name, server.target);
    await client.describe();
    return { server, client, counts: counter.counts };
  };

  const gatewayFor = (setup: Setup, hooks: readonly HookSpec[]): TestGateway => {
    const gateway = startTestGateway(
      [validatingConfig(setup.client.name, hooks)],
      {},
      undefined,
      new Map([[setup.client.name, setup.client]]),
    );
    gateways.push(gateway);
    return gateway;
  };

  /** POST /validate; the answer and how many AdmitStream messages the plugin received for it. */
  const validate = async (setup: Setup, gateway: TestGateway) => {
    const before = setup.counts.get('AdmitStream') ?? 0;
    const res = await gateway.app.inject({ method: 'POST', url: '/validate?timeout=10s', payload: review() });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ response: Record<string, unknown> }>();
    return { response: body.response, messages: (setup.counts.get('AdmitStream') ?? 0) - before };
  };

  beforeAll(async () => {
    tmp = await tempDir('hookgate-batching-');
    batching = await start('batching', true);
    plain = await start('plain', false);
    expect(batching.client.capabilities?.batch).toBe(true);
    expect(plain.client.capabilities?.batch).toBe(false);
  }, 30_000);

  afterAll(async () => {
    release();
    await Promise.all(gateways.map((g) => g.close()));
    for (const s of [batching, plain]) s.client.close();
    await Promise.all([batching.server.shutdown(500), plain.server.shutdown(500)]);
    await tmp.cleanup();
  });

  const allowing: HookSpec[] = [{ name: 'owner.example.com' }, { name: 'quota.example.com' }];

  it('sends N matching validating hooks in one message; each answer is recorded as its own hook', async () => {
    const gateway = gatewayFor(batching, allowing);
    const { response, messages } = await validate(batching, gateway);
    expect(messages).toBe(1);
    expect(response).toMatchObject({ allowed: true });
    expect([...(response.warnings as string[])].sort()).toEqual(['owner: no team label', 'quota: 80%']);
    expect(response.auditAnnotations).toEqual({ 'owner.example.com_checked': 'owner' });
    const metrics = await gateway.registry.metrics();
    for (const hook of ['owner.example.com', 'quota.example.com']) {
      expect(metrics).toMatch(
        new RegExp(
          `hookgate_admission_webhook_admission_duration_seconds_count\\{name="${hook.replace(/\./g, '\\.')}"[^}]*\\} 1`,
        ),
      );
    }
  });

  it('answers the same, one message per hook, for a plugin that does not declare admit_batch', async () => {
    const batched = await validate(batching, gatewayFor(batching, [...allowing, { name: 'image.example.com' }]));
    const unbatched = await validate(plain, gatewayFor(plain, [...allowing, { name: 'image.example.com' }]));
    expect([batched.messages, unbatched.messages]).toEqual([1, 3]);
    const comparable = (r: Record<string, unknown>) => ({
      ...r,
      warnings: [...((r.warnings as string[]) ?? [])].sort(),
    });
    expect(comparable(unbatched.response)).toEqual(comparable(batched.response));
    expect(batched.response).toMatchObject({
      allowed: false,
      status: {
        code: 403,
        message: 'admission webhook "image.example.com" denied the request: images must come from registry.example.com',
      },
    });
  });

  it('times out a hook of the batch alone, by its own timeout and failure policy', async () => {
    held = new Promise<void>((resolve) => (release = resolve));
    const gateway = gatewayFor(batching, [
      ...allowing,
      { name: 'slow.example.com', timeoutSeconds: 1, failurePolicy: 'Ignore' },
    ]);
    const { response, messages } = await validate(batching, gateway);
    release();
    expect(messages).toBe(1);
    expect(response).toMatchObject({ allowed: true });
    // The others' answers are kept; the slow one failed open (its annotation), not the batch.
    expect([...(response.warnings as string[])].sort()).toEqual(['owner: no team label', 'quota: 80%']);
    expect(response.auditAnnotations).toMatchObject({
      'owner.example.com_checked': 'owner',
      'failed-open.validating_round_0_index_2': 'slow.example.com',
    });
    const failOpen = gateway.logs.find((l) => l.decision === 'fail-open');
    expect(failOpen).toMatchObject({ hook: 'slow.example.com' });
    expect(String(failOpen?.reason)).toContain('context deadline exceeded');
  });

  it('decides each failing hook of a batch by its own failure policy', async () => {
    const ignore = gatewayFor(batching, [...allowing, { name: 'broken.example.com', failurePolicy: 'Ignore' }]);
    const ignored = await validate(batching, ignore);
    expect(ignored.messages).toBe(1);
    expect(ignored.response).toMatchObject({ allowed: true });
    expect(ignored.response.auditAnnotations).toMatchObject({
      'failed-open.validating_round_0_index_2': 'broken.example.com',
    });

    const fail = gatewayFor(batching, [
      { name: 'broken.example.com', failurePolicy: 'Fail' },
      { name: 'owner.example.com', failurePolicy: 'Ignore' },
    ]);
    const failed = await validate(batching, fail);
    expect(failed.messages).toBe(1);
    expect(failed.response).toMatchObject({ allowed: false, status: { code: 500 } });
    expect(String((failed.response.status as { message: string }).message)).toBe(
      'Internal error occurred: failed calling webhook "broken.example.com": failed to call webhook: Post "plugin://batching/broken.example.com?timeout=10s": rpc error: code = Internal desc = hook "broken.example.com" failed: database unreachable',
    );
    expect(failed.response.warnings).toEqual(['owner: no team label']);
  });
});
