/**
 * Dynamic registration through the gateway process: a plugin that is in no configuration file
 * registers its hooks over the Registry's unix socket (real gRPC), answers through both workers,
 * is killed with SIGKILL and its failurePolicy Fail hook fails closed (first as an unreachable
 * plugin, then with the lease message) instead of vanishing, comes back and registers again; name
 * conflicts are refused visibly (a second plugin, a static reload); the registration survives a
 * gateway restart; deregistering on purpose (an operator's Deregister, a plugin's shutdown)
 * removes the hooks.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { newRegistryClient } from '@hookgate/proto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdmissionClient, decodePatch } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { reloadConfig, rewriteConfig, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { fetchMetrics, sampleValue } from '../src/metrics-text.js';
import { startPlugin, type PluginProcess } from '../src/plugin-process.js';
import { podCreateReview } from '../src/pod-review.js';

const HOOK = 'team-label.registered.test';
const NO_TEAM =
  'admission webhook "team-label.registered.test" denied the request: pod default/web has no team label; add metadata.labels.team';
const unlabelled = () => podCreateReview();
const labelled = () =>
  podCreateReview({
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web', team: 'shop' } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    },
  });
/** No static hooks: whatever the gateway calls came from the Registry. */
/** Room in the gateway's registration for the hooks the plugins register (registration.reserve). */
const RESERVE = {
  registration: {
    reserve: (['Mutating', 'Validating'] as const).flatMap((type) =>
      (['Fail', 'Ignore'] as const).map((failurePolicy) => ({
        type,
        failurePolicy,
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
      })),
    ),
  },
};
const CONFIG = gatewayConfigYaml([], { workers: 2, extra: RESERVE });
/** What other processes do in their own time (a registration reaching every worker, a lease running out). */
const WAIT = { timeout: 20_000, interval: 100 };

describe('plugins registered through the gateway Registry', () => {
  let dir: string;
  let stateDir: string;
  let pluginSocket: string;
  let gateway: GatewayProcess;
  let client: AdmissionClient;
  let plugin: PluginProcess | undefined;
  const started: PluginProcess[] = [];

  const startRegisteringPlugin = async (...extra: string[]): Promise<PluginProcess> => {
    const process_ = await startPlugin('registering-plugin.ts', [
      `unix://${pluginSocket}`,
      gateway.registrySocket,
      ...extra,
    ]);
    started.push(process_);
    return process_;
  };
  const validate = async (review: unknown) =>
    (await client.post('/validate', review, { timeout: '10s' })).review.response;
  const mutate = async (review: unknown) => (await client.post('/mutate', review, { timeout: '10s' })).review.response;
  /** Both workers answer round-robin: a check must pass on consecutive requests to be sure every worker has it. */
  const onEveryWorker = async <T>(check: () => Promise<T>): Promise<T> => {
    await check();
    return check();
  };
  const metric = async (name: string, labels: Record<string, string>) =>
    sampleValue(await fetchMetrics(gateway.metricsUrl), name, labels);
  const savedRegistrations = async () =>
    (
      JSON.parse(await readFile(join(stateDir, 'registrations.json'), 'utf8')) as {
        registrations: { plugin: string }[];
      }
    ).registrations.map((r) => r.plugin);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-registry-e2e-'));
    stateDir = join(dir, 'state');
    pluginSocket = join(dir, 'team-labels.sock');
    gateway = await startGateway({ config: CONFIG, stateDir });
    client = new AdmissionClient(gateway.admissionUrl);
  });
  afterAll(async () => {
    await client?.close();
    await Promise.all(started.map((p) => p.stop()));
    await gateway?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves nothing before a plugin registers', async () => {
    expect(await validate(unlabelled())).toEqual({ uid: expect.any(String), allowed: true });
    expect(await metric('hookgate_registry_registrations', { lease: 'active' })).toBe(0);
  });

  it('serves the hooks of a plugin that registered itself, on every worker', async () => {
    plugin = await startRegisteringPlugin();
    const registration = await plugin.waitForOutput(/registration (.+)/);
    expect(JSON.parse(registration[1]!)).toEqual({
      registered: true,
      hooks: ['team-labels-mutating/owner.registered.test', `team-labels-validating/${HOOK}`],
      leaseSeconds: 5,
    });
    // Waits for the registered hook on every worker.
    await vi.waitFor(
      () =>
        onEveryWorker(async () => {
          expect((await validate(unlabelled()))?.status?.message).toBe(NO_TEAM);
        }),
      WAIT,
    );
    expect(await onEveryWorker(() => validate(labelled()))).toMatchObject({ allowed: true });
    const mutated = await onEveryWorker(() => mutate(labelled()));
    expect(decodePatch(mutated?.patch)).toEqual([
      { op: 'add', path: '/metadata/labels/registered-by', value: 'team-labels' },
    ]);
    expect(await gateway.waitForLog((l) => l.msg === 'plugin registered')).toMatchObject({
      plugin: 'team-labels',
      target: `unix://${pluginSocket}`,
      leaseSeconds: 5,
    });
    expect(await metric('hookgate_registry_registrations', { lease: 'active' })).toBe(1);
    // Saved in the state directory (written asynchronously, after the change).
    // Waits for the registration in registrations.json.
    await vi.waitFor(async () => expect(await savedRegistrations()).toEqual(['team-labels']), WAIT);
  });

  it('keeps the lease renewed while the plugin runs', async () => {
    // Renewals come every lease/3; after more than one lease the hooks are still answered by the plugin.
    await gateway.waitForLog((l) => l.msg === 'registration renewed' && l['plugin'] === 'team-labels');
    await new Promise((r) => setTimeout(r, 6000));
    expect((await onEveryWorker(() => validate(unlabelled())))?.status?.message).toBe(NO_TEAM);
    expect(
      gateway.logs.some(
        (l) =>
          l.msg ===
          'plugin lease expired; its failurePolicy Fail hooks now fail closed until it registers again or is deregistered on purpose, its Ignore hooks are removed',
      ),
    ).toBe(false);
  });

  it('refuses a second plugin that takes a registered webhook name, and says so', async () => {
    const intruderSocket = join(dir, 'intruder.sock');
    const intruder = await startPlugin('registering-plugin.ts', [
      `unix://${intruderSocket}`,
      gateway.registrySocket,
      '--name',
      'intruder',
    ]);
    started.push(intruder);
    const state = JSON.parse((await intruder.waitForOutput(/registration (.+)/))[1]!) as {
      registered: boolean;
      lastError: string;
    };
    expect(state.registered).toBe(false);
    expect(state.lastError).toMatch(/^ALREADY_EXISTS: /);
    expect(state.lastError).toContain(
      `webhook "${HOOK}" of ValidatingWebhookConfiguration "intruder-validating" in the registration of plugin "intruder"`,
    );
    expect(state.lastError).toContain('in the registration of plugin "team-labels"');
    const refused = await gateway.waitForLog((l) => l.msg === 'registration refused' && l['plugin'] === 'intruder');
    expect(refused).toMatchObject({ level: 'warn', refusal: 'conflict' });
    expect(
      await metric('hookgate_registry_refusals_total', { operation: 'register', reason: 'conflict' }),
    ).toBeGreaterThanOrEqual(1);
    await intruder.stop();
    // The first registration is untouched.
    expect((await validate(unlabelled()))?.status?.message).toBe(NO_TEAM);
  });

  it('refuses a configuration reload whose static hooks take a registered name, keeping the last good one', async () => {
    const clashing = gatewayConfigYaml(
      [
        webhookConfiguration('validating', 'static-policy', [
          { name: HOOK, clientConfig: { url: 'http://127.0.0.1:9/validate' } },
        ]),
      ],
      { workers: 2, extra: RESERVE },
    );
    await rewriteConfig(gateway, clashing);
    gateway.signal('SIGHUP');
    await gateway.waitForLog(
      (l) => l.msg === 'configuration reload refused: still serving the last good configuration',
    );
    const conflict = gateway.logs.find(
      (l) =>
        l.level === 'error' &&
        String(l.msg).includes(
          `webhook "${HOOK}" of ValidatingWebhookConfiguration "team-labels-validating" in the registration of plugin "team-labels"`,
        ),
    );
    expect(conflict?.msg).toContain('the static configuration');
    expect(await metric('hookgate_config_last_reload_successful', {})).toBe(0);
    expect((await onEveryWorker(() => validate(unlabelled())))?.status?.message).toBe(NO_TEAM);
    await rewriteConfig(gateway, CONFIG);
  });

  it('merges a reloaded static configuration with the registered hooks', async () => {
    const withStatic = gatewayConfigYaml(
      [
        webhookConfiguration('validating', 'static-policy', [
          { name: 'static.example.com', clientConfig: { url: 'http://127.0.0.1:9/validate' }, failurePolicy: 'Ignore' },
        ]),
      ],
      { workers: 2, extra: RESERVE },
    );
    await reloadConfig(gateway, withStatic);
    const both = await onEveryWorker(() => validate(labelled()));
    // The registered hook allows; the static one (nothing listens there) fails open under Ignore.
    expect(both).toMatchObject({
      allowed: true,
      auditAnnotations: { 'failed-open.validating_round_0_index_0': 'static.example.com' },
    });
    expect((await validate(unlabelled()))?.status?.message).toBe(NO_TEAM);
    await reloadConfig(gateway, CONFIG);
    expect(await onEveryWorker(() => validate(labelled()))).toEqual({ uid: expect.any(String), allowed: true });
  });

  it('fails the Fail hook closed when the plugin is killed, instead of dropping it', async () => {
    plugin!.kill('SIGKILL');
    await plugin!.exited;
    const down = await validate(unlabelled());
    expect(down?.allowed).toBe(false);
    expect(down?.status?.message).toMatch(
      new RegExp(
        `failed calling webhook "${HOOK}": failed to call webhook: Post "plugin://team-labels/${HOOK}\\?timeout=\\d+s"`,
      ),
    );
    // Even a pod the plugin would allow: nobody is there to say so.
    expect((await validate(labelled()))?.allowed).toBe(false);
  });

  it('after the lease runs out, fails it closed with the lease message; the Ignore hook is dropped', async () => {
    await gateway.waitForLog(
      (l) =>
        l.msg ===
        'plugin lease expired; its failurePolicy Fail hooks now fail closed until it registers again or is deregistered on purpose, its Ignore hooks are removed',
      20_000,
    );
    // Waits for the lease message on every worker.
    const expired = await vi.waitFor(
      () =>
        onEveryWorker(async () => {
          const response = await validate(labelled());
          expect(response?.status?.message).toContain('registration lease expired');
          return response;
        }),
      WAIT,
    );
    expect(expired).toMatchObject({ allowed: false, status: { code: 500 } });
    expect(expired?.status?.message).toMatch(
      new RegExp(
        `^Internal error occurred: failed calling webhook "${HOOK}": failed to call webhook: Post "plugin://team-labels/${HOOK}\\?timeout=\\d+s": ` +
          'plugin "team-labels" is gone: its registration lease expired at \\S+ \\(\\d+s ago\\) and it has not registered again; ' +
          `the hook fails closed until the plugin registers again \\(restart it\\) or is deregistered on purpose \\(Registry.Deregister on the gateway registry at ${gateway.registrySocket}\\)$`,
      ),
    );
    expect(await onEveryWorker(() => mutate(labelled()))).toEqual({ uid: expect.any(String), allowed: true });
    expect(await metric('hookgate_registry_registrations', { lease: 'expired' })).toBe(1);
  });

  it('serves the plugin again once it restarts and registers again', async () => {
    plugin = await startRegisteringPlugin();
    // Waits for the restarted plugin to answer on every worker.
    await vi.waitFor(
      () =>
        onEveryWorker(async () => {
          expect(await validate(labelled())).toMatchObject({ allowed: true });
        }),
      WAIT,
    );
    expect((await validate(unlabelled()))?.status?.message).toBe(NO_TEAM);
    expect(decodePatch((await mutate(labelled()))?.patch)).toEqual([
      { op: 'add', path: '/metadata/labels/registered-by', value: 'team-labels' },
    ]);
    expect(await metric('hookgate_registry_registrations', { lease: 'active' })).toBe(1);
  });

  it('keeps the registration across a gateway restart, even with the plugin gone meanwhile', async () => {
    plugin!.kill('SIGKILL');
    await plugin!.exited;
    await gateway.stop();
    expect(await savedRegistrations()).toEqual(['team-labels']);
    gateway = await startGateway({ config: CONFIG, stateDir });
    await client.close();
    client = new AdmissionClient(gateway.admissionUrl);
    expect(gateway.logs.find((l) => l.msg === 'hookgate serving')).toMatchObject({ registrations: 1 });
    // Restored from the state directory: the hook is there at once, failing closed without its plugin.
    const restored = await onEveryWorker(() => validate(labelled()));
    expect(restored?.allowed).toBe(false);
    expect(restored?.status?.message).toContain(`failed calling webhook "${HOOK}"`);

    plugin = await startRegisteringPlugin();
    // Waits for the plugin to answer through the restarted gateway.
    await vi.waitFor(
      () =>
        onEveryWorker(async () => {
          expect(await validate(labelled())).toMatchObject({ allowed: true });
        }),
      WAIT,
    );
  });

  it('removes the hooks of a dead plugin deregistered on purpose by an operator', async () => {
    plugin!.kill('SIGKILL');
    await plugin!.exited;
    expect((await validate(labelled()))?.allowed).toBe(false);
    const registry = newRegistryClient(`unix://${gateway.registrySocket}`, grpc.credentials.createInsecure());
    try {
      const removed = await new Promise<string[]>((resolve, reject) =>
        registry.Deregister({ plugin: 'team-labels' }, { deadline: Date.now() + 5000 }, (error, reply) =>
          error ? reject(error) : resolve(reply!.hooks),
        ),
      );
      expect(removed).toEqual(['team-labels-mutating/owner.registered.test', `team-labels-validating/${HOOK}`]);
    } finally {
      registry.close();
    }
    // Waits for the hooks to be gone on every worker.
    await vi.waitFor(
      () =>
        onEveryWorker(async () => {
          expect(await validate(unlabelled())).toEqual({ uid: expect.any(String), allowed: true });
        }),
      WAIT,
    );
    // Waits for the deregistration in registrations.json.
    await vi.waitFor(async () => expect(await savedRegistrations()).toEqual([]), WAIT);
    expect(await metric('hookgate_registry_registrations', { lease: 'active' })).toBe(0);
  });

  it('removes the hooks of a plugin that deregisters when it shuts down', async () => {
    plugin = await startRegisteringPlugin('--deregister-on-shutdown');
    // Waits for the registered hook.
    await vi.waitFor(
      () =>
        onEveryWorker(async () => {
          expect((await validate(unlabelled()))?.status?.message).toBe(NO_TEAM);
        }),
      WAIT,
    );
    await plugin.stop();
    expect(await plugin.exited).toBe(0);
    await gateway.waitForLog(
      (l) => l.msg === 'plugin deregistered; its hooks are removed' && l['plugin'] === 'team-labels',
    );
    // Waits for the hooks to be gone on every worker.
    await vi.waitFor(
      () =>
        onEveryWorker(async () => {
          expect(await validate(unlabelled())).toEqual({ uid: expect.any(String), allowed: true });
        }),
      WAIT,
    );
  });

  it('kept serving throughout: no worker crashed', () => {
    expect(gateway.logs.filter((l) => l.msg === 'gateway worker exited unexpectedly; starting a replacement')).toEqual(
      [],
    );
    expect(gateway.logs.filter((l) => String(l.msg).startsWith('a worker could not apply'))).toEqual([]);
  });
});
