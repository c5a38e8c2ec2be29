import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { err, ok } from '@hookgate/admission';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationHolder } from './configuration-holder.js';
import type { ReloadOutcome } from './configuration-holder.js';
import type { LoadedConfiguration } from './load-configuration.js';

const gateway = (extra = '') => `apiVersion: hookgate.dev/v1alpha1\nkind: GatewayConfiguration\n${extra}`;
const load = { env: { cwd: '/work', isRoot: false, cpus: 1 } };

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookgate-holder-'));
  file = join(dir, 'hookgate.yaml');
  await writeFile(file, gateway('logLevel: info\n'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function open() {
  const r = await ConfigurationHolder.open(file, { load });
  if (!r.ok) throw new Error('first load failed');
  return r.value;
}

describe('ConfigurationHolder', () => {
  it('starts at generation 1 and treats a reload of the same files as unchanged', async () => {
    const holder = await open();
    expect(holder.generation).toBe(1);
    const outcome = await holder.reload();
    expect(outcome.kind).toBe('unchanged');
    expect(holder.generation).toBe(1);
  });

  it('swaps to a valid change, while a request keeps the snapshot it started with', async () => {
    const holder = await open();
    const inFlight = holder.current();
    await writeFile(file, gateway('logLevel: debug\n'));
    const outcome = await holder.reload();
    expect(outcome.kind).toBe('updated');
    expect(holder.generation).toBe(2);
    expect(holder.current().configuration.gateway.logLevel).toBe('debug');
    expect(inFlight.configuration.gateway.logLevel).toBe('info');
    expect(inFlight.generation).toBe(1);
  });

  it('keeps the last good configuration when a reload fails, and clears the error once fixed', async () => {
    const holder = await open();
    const outcomes: ReloadOutcome<LoadedConfiguration>[] = [];
    holder.onReload((o) => outcomes.push(o));
    await writeFile(file, gateway('logLevel: loud\n'));
    const failed = await holder.reload();
    expect(failed.kind).toBe('failed');
    expect(failed.kind === 'failed' && failed.errors.map((e) => e.field)).toEqual(['logLevel']);
    expect(holder.generation).toBe(1);
    expect(holder.current().configuration.gateway.logLevel).toBe('info');
    expect(holder.lastError?.errors).toHaveLength(1);
    await writeFile(file, gateway('logLevel: warn\n'));
    expect((await holder.reload()).kind).toBe('updated');
    expect(holder.lastError).toBeUndefined();
    expect(holder.generation).toBe(2);
    expect(outcomes.map((o) => o.kind)).toEqual(['failed', 'updated']);
  });

  it('clears the error when the files go back to the running configuration', async () => {
    const holder = await open();
    await writeFile(file, 'kind: [');
    expect((await holder.reload()).kind).toBe('failed');
    await writeFile(file, gateway('logLevel: info\n'));
    expect((await holder.reload()).kind).toBe('unchanged');
    expect(holder.lastError).toBeUndefined();
  });

  const prepareFailures = [
    {
      name: 'returns errors',
      prepare: () =>
        err([{ file: 'x', document: 1, field: 'webhooks[0]', rule: 'FieldValueInvalid' as const, message: 'bad CEL' }]),
      message: 'bad CEL',
    },
    {
      name: 'throws',
      prepare: () => {
        throw new Error('boom');
      },
      message: 'preparing the configuration failed: boom',
    },
  ];
  for (const c of prepareFailures) {
    it(`keeps the last good configuration when prepare ${c.name}`, async () => {
      let fail = false;
      const r = await ConfigurationHolder.open(file, {
        load,
        prepare: (cfg) => (fail ? c.prepare() : ok(cfg.gateway.logLevel)),
      });
      const holder = r.ok ? r.value : undefined;
      expect(holder?.current().prepared).toBe('info');
      fail = true;
      await writeFile(file, gateway('logLevel: debug\n'));
      const outcome = await holder!.reload();
      expect(outcome.kind === 'failed' && outcome.errors[0]!.message).toBe(c.message);
      expect(holder!.current().prepared).toBe('info');
    });
  }

  it('refuses to open an invalid configuration, with every error', async () => {
    await writeFile(file, gateway('workers: 0\nlogLevel: loud\n'));
    const r = await ConfigurationHolder.open(file, { load });
    expect(r.ok ? [] : r.error.map((e) => e.field)).toEqual(['workers', 'logLevel']);
  });

  it('coalesces a burst of reloads into at most one more load', async () => {
    let prepares = 0;
    const r = await ConfigurationHolder.open(file, { load, prepare: (cfg) => (prepares++, ok(cfg)) });
    const holder = r.ok ? r.value : undefined;
    await writeFile(file, gateway('logLevel: debug\n'));
    const outcomes = await Promise.all([1, 2, 3, 4, 5].map(() => holder!.reload()));
    expect(prepares).toBe(2); // open + the one load that saw the change; the follow-up found it unchanged
    expect(outcomes.map((o) => o.kind)).toEqual(['updated', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(holder!.generation).toBe(2);
  });
});
