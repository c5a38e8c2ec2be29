/**
 * The Registry as the primary runs it, over its real unix socket: registrations reach the change
 * listener (renewals too) and the state file, refusals and leases show in the metrics, a reload
 * whose static side takes a registered name becomes configuration errors, a socket another
 * gateway serves is refused, and registry.disabled serves nothing.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createMetricsRegistry } from '@hookgate/observability';
import { newRegistryClient, type RegistryClient } from '@hookgate/proto';
import type { RegistryChange } from '../registry/index.js';
import { openPrimaryRegistry, REGISTRATIONS_FILE, type PrimaryRegistry } from './primary-registry.js';
import { tempDir } from '@hookgate/plugin-sdk/testing';
import { loadTestConfiguration, validatingConfiguration } from './test/configurations.js';

const log = createLogger({ component: 'test', level: 'silent' });
const HOOK = 'team.example.com';

describe('the primary Registry', () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(gateway: Record<string, unknown> = {}, logger = log) {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const loaded = await loadTestConfiguration(tmp.dir, gateway);
    const metrics = createMetricsRegistry();
    const registry: PrimaryRegistry = await openPrimaryRegistry(loaded, logger, metrics);
    cleanups.push(() => registry.close());
    const client: RegistryClient = newRegistryClient(
      `unix://${loaded.gateway.registry.socket}`,
      grpc.credentials.createInsecure(),
    );
    cleanups.push(() => client.close());
    const register = (plugin: string, webhook = HOOK) =>
      new Promise<{ error: grpc.ServiceError | null; hooks: string[] }>((resolve) =>
        client.Register(
          {
            plugin,
            target: `unix:///run/${plugin}.sock`,
            configurations: [Buffer.from(JSON.stringify(validatingConfiguration(`${plugin}-config`, webhook, plugin)))],
            leaseSeconds: 30,
          },
          { deadline: Date.now() + 5000 },
          (error, reply) => resolve({ error, hooks: reply?.hooks ?? [] }),
        ),
      );
    return { tmp, loaded, metrics, registry, register };
  }

  it('tells every change to its listeners, renewals included, and saves the registrations', async () => {
    const { loaded, registry, register } = await open();
    const changes: RegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    expect(await register('team')).toEqual({ error: null, hooks: [`team-config/${HOOK}`] });
    expect(await register('team')).toEqual({ error: null, hooks: [`team-config/${HOOK}`] });
    expect(changes.map((c) => [c.reason, c.hooksChanged])).toEqual([
      ['register', true],
      ['renew', false],
    ]);
    expect(registry.snapshot().registrations.map((r) => r.plugin)).toEqual(['team']);
    await registry.close();
    const saved = JSON.parse(await readFile(path.join(loaded.gateway.stateDir, REGISTRATIONS_FILE), 'utf8')) as {
      registrations: { plugin: string }[];
    };
    expect(saved.registrations.map((r) => r.plugin)).toEqual(['team']);
  });

  it('counts refusals and registrations in its metrics', async () => {
    const { metrics, register } = await open();
    await register('team');
    const refused = await register('intruder');
    expect(refused.error?.code).toBe(grpc.status.ALREADY_EXISTS);
    const text = await metrics.metrics();
    expect(text).toContain('hookgate_registry_refusals_total{operation="register",reason="conflict"} 1');
    expect(text).toContain('hookgate_registry_registrations{lease="active"} 1');
    expect(text).toContain('hookgate_registry_registrations{lease="expired"} 0');
  });

  it("refuses a hook the gateway's registration does not cover, and follows the static configuration", async () => {
    const { tmp, registry, register, metrics } = await open({ registration: {} });
    const refused = await register('team');
    expect(refused.error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(refused.error?.details).toBe(
      `registration of plugin "team" refused: the apiserver would never send some of its hooks' requests to the gateway:\n` +
        `  - webhook "${HOOK}" rules[0] reaches requests the gateway's registration does not send it (2 request shape(s), ` +
        `e.g. CREATE v1 pods (cluster-scoped); CREATE v1 pods (namespaced)): add the rule to registration.reserve ` +
        '(type Validating, failurePolicy Fail) in the GatewayConfiguration, apply the output of `hookgate print-webhooks`, then register again',
    );
    expect(await metrics.metrics()).toContain(
      'hookgate_registry_refusals_total{operation="register",reason="outside-registration"} 1',
    );
    // A static Fail hook on pods puts them inside the registration: the same registration is accepted.
    const withPods = await loadTestConfiguration(tmp.dir, { registration: {} }, [
      validatingConfiguration('static-config', 'static.example.com', { url: 'https://policy.example.com/validate' }),
    ]);
    expect(registry.checkStatic(withPods, '/etc/hookgate')).toEqual({ ok: true, value: undefined });
    expect(await register('team')).toEqual({ error: null, hooks: [`team-config/${HOOK}`] });
  });

  it('turns a reload whose static side takes a registered name into configuration errors, and accepts one that does not', async () => {
    const { tmp, registry, register } = await open();
    await register('team');
    const clashing = await loadTestConfiguration(tmp.dir, {}, [
      validatingConfiguration('static-config', HOOK, { url: 'https://policy.example.com/validate' }),
    ]);
    const refused = registry.checkStatic(clashing, '/etc/hookgate');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toEqual([
      {
        // Where the static side of the conflict is.
        file: clashing.sources[1]!.file,
        document: 2,
        object: 'ValidatingWebhookConfiguration "static-config"',
        field: '',
        rule: 'FieldValueDuplicate',
        message: expect.stringContaining(
          `webhook "${HOOK}" of ValidatingWebhookConfiguration "team-config" in the registration of plugin "team" has the same name as a webhook of ValidatingWebhookConfiguration "static-config" in the static configuration`,
        ),
      },
    ]);
    const fine = await loadTestConfiguration(tmp.dir, { plugins: [{ name: 'other', target: '127.0.0.1:7001' }] });
    expect(registry.checkStatic(fine, '/etc/hookgate')).toEqual({ ok: true, value: undefined });
  });

  it('refuses to start on a socket another gateway serves', async () => {
    const { loaded } = await open();
    await expect(openPrimaryRegistry(loaded, log, createMetricsRegistry())).rejects.toThrow(
      /another process \(probably a running gateway\) serves the registry/,
    );
  });

  it('serves nothing with registry.disabled', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const loaded = await loadTestConfiguration(tmp.dir, { registry: { disabled: true } });
    const metrics = createMetricsRegistry();
    const registry = await openPrimaryRegistry(loaded, log, metrics);
    expect(registry.snapshot()).toEqual({ generation: 0, registrations: [] });
    await expect(readFile(loaded.gateway.registry.socket)).rejects.toThrow(/ENOENT/);
    expect(await metrics.metrics()).toContain('hookgate_registry_registrations{lease="active"} 0');
    await registry.close();
  });

  it('logs as component registry, the field written once on each line', async () => {
    const raw: string[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _e, done) => (raw.push(...chunk.toString().split('\n').filter(Boolean)), done()),
    });
    const { register } = await open({}, createLogger({ component: 'gateway', base: { role: 'primary' }, destination }));
    await register('team');
    const lines = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((l) => l['plugin'] === 'team')).toMatchObject({ component: 'registry', role: 'primary' });
    for (const line of raw) expect(line.split('"component":').length - 1, line).toBe(1);
  });
});
