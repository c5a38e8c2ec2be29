/** The Registry over real gRPC on a real unix socket in a temp dir. */
import * as grpc from '@grpc/grpc-js';
import { spawn } from 'node:child_process';
import { lstat, readdir, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  newRegistryClient,
  type RegistryClient,
  type RegisterResponse__Output,
  type DeregisterResponse__Output,
} from '@hookgate/proto';
import { startLeaseSweeper } from './lease-sweeper.js';
import { RegistrationStore } from './registration-store.js';
import { startRegistryServer, type RegistryServer } from './registry-server.js';
import { startRegistry } from './start-registry.js';
import { tempDir } from '@hookgate/plugin-sdk/testing';
import { configuration, manualClock, payload, staticSources, webhook } from './test/fixtures.js';

const STATIC = staticSources(
  [{ name: 'quota', target: '127.0.0.1:7001' }],
  [configuration('quota', [webhook('quota.example.com', 'quota')])],
);
const LABELS = payload(configuration('labels', [webhook('required.labels.example.com', 'labels')]));

type Reply<T> = { error: grpc.ServiceError | null; reply: T | undefined };

function register(
  client: RegistryClient,
  plugin: string,
  configurations: string[],
  leaseSeconds = 30,
): Promise<Reply<RegisterResponse__Output>> {
  return new Promise((resolve) => {
    client.Register(
      {
        plugin,
        target: `unix:///run/hookgate/${plugin}.sock`,
        configurations: configurations.map((c) => Buffer.from(c)),
        leaseSeconds,
      },
      { deadline: Date.now() + 5000 },
      (error, reply) => resolve({ error, reply }),
    );
  });
}

function deregister(client: RegistryClient, plugin: string): Promise<Reply<DeregisterResponse__Output>> {
  return new Promise((resolve) =>
    client.Deregister({ plugin }, { deadline: Date.now() + 5000 }, (error, reply) => resolve({ error, reply })),
  );
}

describe('Registry gRPC server', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serve(options: { mode?: 0o600 | 0o660; store?: RegistrationStore } = {}) {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const socket = path.join(tmp.dir, 'run', 'registry.sock');
    const store = options.store ?? new RegistrationStore({ static: STATIC });
    const server = await startRegistryServer({ socket, store, ...(options.mode ? { mode: options.mode } : {}) });
    cleanups.push(() => server.close());
    const client = newRegistryClient(`unix://${socket}`, grpc.credentials.createInsecure());
    cleanups.push(() => client.close());
    return { socket, store, server, client, dir: tmp.dir };
  }

  const modes = [
    { name: 'default: the gateway user only', mode: undefined, expected: 0o600 },
    { name: '0660: the gateway group too', mode: 0o660 as const, expected: 0o660 },
  ];
  for (const c of modes) {
    it(`binds only a unix socket with file mode ${c.name}`, async () => {
      const { socket } = await serve(c.mode ? { mode: c.mode } : {});
      const info = await lstat(socket);
      expect(info.isSocket()).toBe(true);
      expect(info.mode & 0o777).toBe(c.expected);
      // Its directory is created for it, and no temporary binding directory is left behind.
      expect(await readdir(path.dirname(socket))).toEqual(['registry.sock']);
    });
  }

  it('registers, renews and deregisters a plugin', async () => {
    const { client, store } = await serve();
    const first = await register(client, 'labels', [LABELS], 20);
    expect(first.error).toBeNull();
    expect(first.reply).toEqual({ leaseSeconds: 20, hooks: ['labels/required.labels.example.com'] });
    const generation = store.generation;
    expect((await register(client, 'labels', [LABELS], 20)).error).toBeNull();
    expect(store.generation).toBe(generation);
    const removed = await deregister(client, 'labels');
    expect(removed).toEqual({ error: null, reply: { hooks: ['labels/required.labels.example.com'] } });
    expect(store.snapshot().registrations).toEqual([]);
  });

  const refusals = [
    {
      name: 'invalid configuration: INVALID_ARGUMENT with every problem',
      call: (c: RegistryClient) =>
        register(c, 'labels', [
          payload(configuration('labels', [{ ...webhook('x', 'labels'), failurePolicy: 'Never' }])),
        ]),
      code: grpc.status.INVALID_ARGUMENT,
      details: [
        'registration of plugin "labels" refused, 2 problems:',
        '  - configurations[0] (document 1, ValidatingWebhookConfiguration "labels"): webhooks[0].name: Invalid value: "x": should be a domain with at least three segments separated by dots',
        '  - configurations[0] (document 1, ValidatingWebhookConfiguration "labels"): webhooks[0].failurePolicy: Unsupported value: "Never": supported values: "Fail", "Ignore"',
      ].join('\n'),
    },
    {
      name: 'name conflict with the static configuration: ALREADY_EXISTS naming both sources',
      call: (c: RegistryClient) =>
        register(c, 'labels', [payload(configuration('quota', [webhook('labels.example.com', 'labels')]))]),
      code: grpc.status.ALREADY_EXISTS,
      details: [
        'registration of plugin "labels" refused: it conflicts with hooks already served:',
        '  - ValidatingWebhookConfiguration "quota" in the registration of plugin "labels" has the same name as ValidatingWebhookConfiguration "quota" in the static configuration: ' +
          'configuration names must be unique across the static configuration and registrations; rename one of them',
      ].join('\n'),
    },
    {
      name: 'a static plugin: FAILED_PRECONDITION',
      call: (c: RegistryClient) => register(c, 'quota', []),
      code: grpc.status.FAILED_PRECONDITION,
      details: expect.stringMatching(
        /^registration of plugin "quota" refused:\n {2}- plugin "quota" is declared under plugins in the GatewayConfiguration/,
      ),
    },
    {
      name: 'deregistering an unknown plugin: NOT_FOUND',
      call: (c: RegistryClient) => deregister(c, 'nobody'),
      code: grpc.status.NOT_FOUND,
      details:
        'deregistration of plugin "nobody" refused:\n  - plugin "nobody" is not registered (no plugin is registered)',
    },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name}`, async () => {
      const { client } = await serve();
      const { error } = await c.call(client);
      expect({ code: error?.code, details: error?.details }).toEqual({ code: c.code, details: c.details });
    });
  }

  it('removes a socket file left by a gateway that died', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const socket = path.join(tmp.dir, 'registry.sock');
    // A real process binds the socket and is killed without cleaning up.
    const child = spawn(
      process.execPath,
      ['-e', `require('net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanups.push(() => void (child.exitCode === null && child.kill('SIGKILL')));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect((await lstat(socket)).isSocket()).toBe(true);

    const server = await startRegistryServer({ socket, store: new RegistrationStore() });
    cleanups.push(() => server.close());
    const client = newRegistryClient(`unix://${socket}`, grpc.credentials.createInsecure());
    cleanups.push(() => client.close());
    expect((await register(client, 'labels', [LABELS])).error).toBeNull();
  });

  const occupied = [
    {
      name: 'another live process serves on the socket',
      occupy: async (socket: string) => {
        const other = net.createServer();
        await new Promise<void>((resolve) => other.listen(socket, resolve));
        cleanups.push(() => new Promise<void>((resolve) => other.close(() => resolve())));
      },
      error:
        /another process \(probably a running gateway\) serves the registry on .*registry\.sock; stop it, or set registry\.socket to another path/,
    },
    {
      name: 'the path is a regular file',
      occupy: (socket: string) => writeFile(socket, 'not a socket'),
      error:
        /registry socket .*registry\.sock exists and is not a socket; remove it or set registry\.socket to another path/,
    },
  ];
  for (const c of occupied) {
    it(`refuses to start when ${c.name}`, async () => {
      const tmp = await tempDir();
      cleanups.push(tmp.cleanup);
      const socket = path.join(tmp.dir, 'registry.sock');
      await c.occupy(socket);
      await expect(startRegistryServer({ socket, store: new RegistrationStore() })).rejects.toThrow(c.error);
      expect(await lstat(socket).then(() => true)).toBe(true);
    });
  }

  it('removes its socket on close, so the next gateway starts cleanly', async () => {
    const { socket, server } = await serve();
    await server.close();
    await expect(lstat(socket)).rejects.toMatchObject({ code: 'ENOENT' });
    const next: RegistryServer = await startRegistryServer({ socket, store: new RegistrationStore() });
    cleanups.push(() => next.close());
  });

  it('the lease sweeper applies an expiry when it falls due', async () => {
    const store = new RegistrationStore({ minLeaseSeconds: 1 });
    const sweeper = startLeaseSweeper(store);
    cleanups.push(() => sweeper.stop());
    store.register({ plugin: 'labels', target: 'unix:///run/l.sock', configurations: [LABELS], leaseSeconds: 1 });
    await expect
      .poll(() => store.snapshot().registrations[0]?.lease === 'expired', {
        timeout: 5_000,
        message: 'the lease to expire',
      })
      .toBe(true);
    expect(store.snapshot().registrations[0]?.served.map((c) => c.name)).toEqual(['labels']);
  });
});

describe('startRegistry with a state file', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps registrations across a gateway restart; a lease that ran out meanwhile fails closed', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const socket = path.join(tmp.dir, 'registry.sock');
    const stateFile = path.join(tmp.dir, 'registrations.json');
    const clock = manualClock();

    const first = await startRegistry({
      store: new RegistrationStore({ now: clock.now }),
      socket,
      stateFile,
      now: clock.now,
    });
    const client = newRegistryClient(`unix://${socket}`, grpc.credentials.createInsecure());
    expect((await register(client, 'labels', [LABELS], 30)).error).toBeNull();
    client.close();
    await first.close();
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600);

    // Back within the lease: active. Back after it: the Fail hook is served, expired.
    for (const [advanceMs, lease] of [
      [10_000, 'active'],
      [60_000, 'expired'],
    ] as const) {
      clock.advance(advanceMs);
      const store = new RegistrationStore({ now: clock.now });
      const again = await startRegistry({ store, socket, stateFile, now: clock.now });
      expect(store.snapshot().registrations.map((r) => [r.plugin, r.lease, r.served.map((c) => c.name)])).toEqual([
        ['labels', lease, ['labels']],
      ]);
      await again.close();
    }
  });

  it('refuses a corrupt state file rather than silently forgetting Fail hooks', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const stateFile = path.join(tmp.dir, 'registrations.json');
    await writeFile(stateFile, '{"format": "something else"}');
    await expect(
      startRegistry({ store: new RegistrationStore(), socket: path.join(tmp.dir, 'r.sock'), stateFile }),
    ).rejects.toThrow(
      /registry state file .*registrations\.json is not a hookgate\.dev\/registrations\/v1 document: fix it, or delete it/,
    );
  });
});
