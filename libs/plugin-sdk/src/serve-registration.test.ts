/**
 * servePlugin's `register` option (SelfRegistration) against a Registry server. The gateway's
 * Registry lives in apps/gateway; this in-test server only records what it receives, so the SDK
 * side is checked on its own (registration/register-with-gateway.test.ts covers the client's
 * backoff and refusals, test/e2e the real gateway).
 */
import * as grpc from '@grpc/grpc-js';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryService, type RegisterRequest__Output, type RegistryHandlers } from '@hookgate/proto';
import { definePlugin } from './define-plugin.js';
import { servePlugin, type PluginServer } from './serve.js';
import { tempDir } from './testing/temp-dir.js';

const plugin = definePlugin({
  name: 'labels',
  hooks: { 'labels.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
});
const configuration =
  'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: labels}\n';

async function startRegistry(
  socket: string,
  calls: { register: RegisterRequest__Output[]; deregister: string[] },
): Promise<grpc.Server> {
  const server = new grpc.Server();
  const handlers: RegistryHandlers = {
    Register: (call, callback) => {
      calls.register.push(call.request);
      callback(null, { leaseSeconds: 3, hooks: ['labels/labels.example.com'] });
    },
    Deregister: (call, callback) => {
      calls.deregister.push(call.request.plugin);
      callback(null, { hooks: ['labels/labels.example.com'] });
    },
  };
  server.addService(RegistryService, handlers);
  await new Promise<number>((resolve, reject) =>
    server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return server;
}

describe('servePlugin registers with the gateway', () => {
  const toStop: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const stop of toStop.splice(0).reverse()) await stop();
  });

  it('registers at start, renews at a third of the lease, deregisters on purpose', async () => {
    const tmp = await tempDir();
    toStop.push(tmp.cleanup);
    const calls = { register: [] as RegisterRequest__Output[], deregister: [] as string[] };
    const registry = await startRegistry(path.join(tmp.dir, 'registry.sock'), calls);
    toStop.push(() => registry.forceShutdown());
    const server: PluginServer = await servePlugin(plugin, {
      listen: `unix://${path.join(tmp.dir, 'labels.sock')}`,
      logger: false,
      register: {
        registry: `unix://${path.join(tmp.dir, 'registry.sock')}`,
        configurations: [configuration],
        leaseSeconds: 10,
      },
    });
    toStop.push(() => server.shutdown(100));

    expect(server.registration?.state).toEqual({
      registered: true,
      hooks: ['labels/labels.example.com'],
      leaseSeconds: 3,
      lastError: undefined,
    });
    expect(calls.register[0]).toEqual({
      plugin: 'labels',
      target: server.target,
      configurations: [Buffer.from(configuration)],
      leaseSeconds: 10,
      tls: null,
    });
    await expect.poll(() => calls.register.length >= 2, { timeout: 3_000, message: 'a lease renewal' }).toBe(true);
    expect(await server.registration?.deregister()).toEqual(['labels/labels.example.com']);
    expect(calls.deregister).toEqual(['labels']);
  });

  it('keeps trying while the gateway is not up yet', async () => {
    const tmp = await tempDir();
    toStop.push(tmp.cleanup);
    const socket = path.join(tmp.dir, 'registry.sock');
    const server = await servePlugin(plugin, {
      listen: '127.0.0.1:0',
      logger: false,
      register: { registry: `unix://${socket}`, configurations: [configuration], retry: { initialMs: 20, maxMs: 200 } },
    });
    toStop.push(() => server.shutdown(100));
    expect(server.registration?.state.registered).toBe(false);
    expect(server.registration?.state.lastError).toMatch(/^UNAVAILABLE: /);

    const calls = { register: [] as RegisterRequest__Output[], deregister: [] as string[] };
    const registry = await startRegistry(socket, calls);
    toStop.push(() => registry.forceShutdown());
    await expect
      .poll(() => server.registration?.state.registered === true, {
        timeout: 3_000,
        message: 'the registration to succeed',
      })
      .toBe(true);
    expect(calls.register[0]?.target).toBe(server.target);
  });

  const shutdowns = [
    { name: 'shutdown keeps the registration by default', deregisterOnShutdown: false, deregisters: [] },
    { name: 'shutdown deregisters with deregisterOnShutdown', deregisterOnShutdown: true, deregisters: ['labels'] },
  ];
  it.each(shutdowns)('$name', async ({ deregisterOnShutdown, deregisters }) => {
    const tmp = await tempDir();
    toStop.push(tmp.cleanup);
    const calls = { register: [] as RegisterRequest__Output[], deregister: [] as string[] };
    const registry = await startRegistry(path.join(tmp.dir, 'registry.sock'), calls);
    toStop.push(() => registry.forceShutdown());
    const server = await servePlugin(plugin, {
      listen: `unix://${path.join(tmp.dir, 'labels.sock')}`,
      logger: false,
      register: {
        registry: path.join(tmp.dir, 'registry.sock'),
        configurations: [configuration],
        deregisterOnShutdown,
      },
    });
    expect(server.registration?.state.registered).toBe(true);
    await server.shutdown(100);
    expect(calls.deregister).toEqual(deregisters);
  });
});
