/**
 * The self-registration client against a Registry over real gRPC on a unix socket. The gateway's
 * Registry lives in apps/gateway (a lib may not import an app), so this Registry only records what
 * it receives and answers as told; apps/gateway/src/registry/registry.e2e.test.ts runs this client
 * against the real one.
 */
import * as grpc from '@grpc/grpc-js';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryService, type RegisterRequest__Output, type RegistryHandlers } from '@hookgate/proto';
import { tempDir } from '../testing/temp-dir.js';
import { backoffDelay } from './backoff.js';
import {
  registerWithGateway,
  RegistrationRefusedError,
  type GatewayRegistration,
  type RegisterWithGatewayOptions,
} from './register-with-gateway.js';
import { SelfRegistration } from './self-registration.js';

const CONFIGURATION =
  'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: labels}\n';

interface Answer {
  readonly leaseSeconds?: number;
  readonly refuse?: { code: grpc.status; details: string };
}

class RecordingRegistry {
  readonly registers: RegisterRequest__Output[] = [];
  readonly deregisters: string[] = [];
  #server: grpc.Server | undefined;
  constructor(
    readonly socket: string,
    public answer: Answer = {},
  ) {}

  async start(): Promise<this> {
    const handlers: RegistryHandlers = {
      Register: (call, callback) => {
        this.registers.push(call.request);
        if (this.answer.refuse) return callback(this.answer.refuse);
        callback(null, { leaseSeconds: this.answer.leaseSeconds ?? 30, hooks: ['labels/labels.example.com'] });
      },
      Deregister: (call, callback) => {
        this.deregisters.push(call.request.plugin);
        callback(null, { hooks: ['labels/labels.example.com'] });
      },
    };
    const server = new grpc.Server();
    server.addService(RegistryService, handlers);
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(`unix:${this.socket}`, grpc.ServerCredentials.createInsecure(), (e) =>
        e ? reject(e) : resolve(),
      ),
    );
    this.#server = server;
    return this;
  }

  /** A gateway that stops abruptly: connections are cut. */
  stop(): void {
    this.#server?.forceShutdown();
    this.#server = undefined;
  }
}

describe('registerWithGateway', () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup(answer: Answer = {}, startRegistry = true) {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const registry = new RecordingRegistry(path.join(tmp.dir, 'registry.sock'), answer);
    if (startRegistry) await registry.start();
    cleanups.push(() => registry.stop());
    const register = (options: Partial<RegisterWithGatewayOptions> = {}): GatewayRegistration => {
      const registration = registerWithGateway({
        socket: registry.socket,
        plugin: 'labels',
        target: 'unix:///run/hookgate/labels.sock',
        configurations: [CONFIGURATION],
        retry: { initialMs: 20, maxMs: 100 },
        logger: false,
        ...options,
      });
      cleanups.push(() => registration.close());
      return registration;
    };
    return { registry, register };
  }

  it('registers at start with the configurations as bytes (objects as JSON)', async () => {
    const { registry, register } = await setup({ leaseSeconds: 45 });
    const object = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'm' },
    };
    const registration = register({
      configurations: [CONFIGURATION, Buffer.from('kind: X\n'), object],
      leaseSeconds: 60,
    });
    expect(await registration.ready).toEqual({ leaseSeconds: 45, hooks: ['labels/labels.example.com'] });
    expect(registration.state).toBe('registered');
    expect(registry.registers).toEqual([
      {
        plugin: 'labels',
        target: 'unix:///run/hookgate/labels.sock',
        configurations: [Buffer.from(CONFIGURATION), Buffer.from('kind: X\n'), Buffer.from(JSON.stringify(object))],
        leaseSeconds: 60,
        tls: null,
      },
    ]);
  });

  it('sends the CA bundle and server name a TCP target is verified with; none for a target without tls', async () => {
    const { registry, register } = await setup();
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    await register({ target: '10.0.0.5:7001', tls: { ca, serverName: 'labels.plugins' } }).ready;
    await register({ target: '127.0.0.1:7001' }).ready;
    expect(registry.registers.map((r) => [r.target, r.tls])).toEqual([
      ['10.0.0.5:7001', { caPem: Buffer.from(ca), serverName: 'labels.plugins' }],
      ['127.0.0.1:7001', null],
    ]);
  });

  it('renews at a third of the lease the gateway granted', async () => {
    const { registry, register } = await setup({ leaseSeconds: 1 });
    const registration = register({ leaseSeconds: 600 });
    await registration.ready;
    await expect.poll(() => registry.registers.length >= 3, { timeout: 3_000, message: 'two renewals' }).toBe(true);
    expect(registry.registers.every((r) => r.leaseSeconds === 600)).toBe(true);
  });

  it('keeps trying while the gateway is not up, and registers once it is', async () => {
    const { registry, register } = await setup({}, false);
    const failures: string[] = [];
    const registration = register({
      onFailed: (error, refused) => failures.push(`${grpc.status[error.code]} refused=${refused}`),
    });
    await expect.poll(() => failures.length >= 2, { timeout: 3_000, message: 'a few failed attempts' }).toBe(true);
    expect(failures[0]).toBe('UNAVAILABLE refused=false');
    expect(registration.state).toBe('registering');
    await registry.start();
    await registration.ready;
    expect(registration.state).toBe('registered');
  });

  it('registers again at once when the gateway restarts, not at the next renewal', async () => {
    const { registry, register } = await setup({ leaseSeconds: 3600 });
    const registration = register();
    await registration.ready;
    registry.stop();
    const restarted = await new RecordingRegistry(registry.socket).start();
    cleanups.push(() => restarted.stop());
    await expect
      .poll(() => restarted.registers.length === 1, {
        timeout: 3_000,
        message: 'a registration with the restarted gateway',
      })
      .toBe(true);
    expect(restarted.registers[0]?.plugin).toBe('labels');
  });

  it('a refusal rejects ready with the gateway’s reasons and is retried slowly', async () => {
    const details =
      'registration of plugin "labels" refused, 1 problem:\n  - configurations[0] (document 1): YAML syntax error at line 1: bad';
    const { registry, register } = await setup({ refuse: { code: grpc.status.INVALID_ARGUMENT, details } });
    const registration = register();
    const refusal = await registration.ready.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(RegistrationRefusedError);
    expect(refusal).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, message: details });
    expect(registration.state).toBe('refused');
    // Fixed on the gateway side (say, a conflicting static configuration removed): the retry gets through.
    registry.answer = {};
    await expect
      .poll(() => registration.state === 'registered', { timeout: 3_000, message: 'the retried registration' })
      .toBe(true);
  });

  const closings = [
    {
      name: 'close() keeps the registration (Fail hooks fail closed while the plugin is away)',
      deregister: undefined,
      deregisters: [],
    },
    { name: 'close({ deregister: true }) removes it', deregister: true, deregisters: ['labels'] },
  ];
  for (const c of closings) {
    it(c.name, async () => {
      const { registry, register } = await setup({ leaseSeconds: 1 });
      const registration = register();
      await registration.ready;
      await registration.close(c.deregister === undefined ? undefined : { deregister: c.deregister });
      expect(registration.state).toBe('closed');
      expect(registry.deregisters).toEqual(c.deregisters);
      const count = registry.registers.length;
      // Past the renewal point: no renewal after close.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(registry.registers).toHaveLength(count);
    });
  }

  it('deregister() returns the hooks removed', async () => {
    const { registry, register } = await setup();
    const registration = register();
    await registration.ready;
    expect(await registration.deregister()).toEqual(['labels/labels.example.com']);
    expect(registry.deregisters).toEqual(['labels']);
  });
});

describe('SelfRegistration (servePlugin’s register option)', () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const logger = { info: () => {}, warn: () => {}, error: () => {} };

  it('start() resolves after the first attempt, successful or not, with the state to show for it', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const socket = path.join(tmp.dir, 'registry.sock');
    const self = new SelfRegistration(
      'labels',
      'unix:///run/labels.sock',
      { registry: `unix://${socket}`, configurations: [CONFIGURATION], retry: { initialMs: 20, maxMs: 50 } },
      logger,
    );
    cleanups.push(() => self.stop());
    await self.start();
    expect(self.state.registered).toBe(false);
    expect(self.state.lastError).toMatch(/^UNAVAILABLE: /);

    const registry = await new RecordingRegistry(socket, { leaseSeconds: 12 }).start();
    cleanups.push(() => registry.stop());
    await expect.poll(() => self.state.registered, { timeout: 3_000, message: 'the registration' }).toBe(true);
    expect(self.state).toEqual({
      registered: true,
      hooks: ['labels/labels.example.com'],
      leaseSeconds: 12,
      lastError: undefined,
    });
    expect(registry.registers[0]?.leaseSeconds).toBe(30);
  });

  const shutdowns = [
    { name: 'stop() keeps the registration by default', deregisterOnShutdown: undefined, deregisters: [] },
    { name: 'stop() deregisters with deregisterOnShutdown', deregisterOnShutdown: true, deregisters: ['labels'] },
  ];
  for (const c of shutdowns) {
    it(c.name, async () => {
      const tmp = await tempDir();
      cleanups.push(tmp.cleanup);
      const registry = await new RecordingRegistry(path.join(tmp.dir, 'registry.sock')).start();
      cleanups.push(() => registry.stop());
      const self = new SelfRegistration(
        'labels',
        'unix:///run/labels.sock',
        {
          registry: registry.socket,
          configurations: [CONFIGURATION],
          ...(c.deregisterOnShutdown ? { deregisterOnShutdown: true } : {}),
        },
        logger,
      );
      await self.start();
      await self.stop();
      expect(registry.deregisters).toEqual(c.deregisters);
    });
  }
});

describe('backoffDelay', () => {
  const cases = [
    { name: 'first retry: the initial delay', failures: 1, expected: 250 },
    { name: 'doubles per failure', failures: 3, expected: 1000 },
    { name: 'capped at the maximum', failures: 20, expected: 10_000 },
    { name: 'after a refusal: the maximum', failures: Number.MAX_SAFE_INTEGER, expected: 10_000 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      // random 0.5 → jitter factor exactly 1; the bounds are ±20 %.
      expect(backoffDelay(c.failures, {}, () => 0.5)).toBe(c.expected);
      expect(backoffDelay(c.failures, {}, () => 0)).toBe(Math.round(c.expected * 0.8));
      expect(backoffDelay(c.failures, {}, () => 1)).toBe(Math.round(c.expected * 1.2));
    });
  }
});
