import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRegistrations, RegistrationFileWriter } from './registration-file.js';

describe('RegistrationFileWriter', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  it('creates a state directory that does not exist yet on the first save, private to the gateway', async () => {
    const base = await mkdtemp(join(tmpdir(), 'hookgate-registrations-'));
    dirs.push(base);
    const file = join(base, 'state', 'nested', 'registrations.json');
    const errors: unknown[] = [];
    const writer = new RegistrationFileWriter(file, (e) => errors.push(e));
    writer.save({ generation: 1, registrations: [] } as unknown as Parameters<RegistrationFileWriter['save']>[0]);
    await writer.flush();
    expect(errors).toEqual([]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadRegistrations(file)).toEqual([]);
  });

  it('keeps the TLS of a registration (CA bundle and server name) across a restart', async () => {
    const base = await mkdtemp(join(tmpdir(), 'hookgate-registrations-'));
    dirs.push(base);
    const file = join(base, 'registrations.json');
    const writer = new RegistrationFileWriter(file, () => undefined);
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const saved = {
      plugin: 'quota',
      target: '10.0.0.5:7443',
      tls: { ca, serverName: 'quota' },
      configurations: [],
      leaseSeconds: 30,
      registeredAt: 1,
      renewedAt: 2,
      expiresAt: 3,
    };
    writer.save({ generation: 2, registrations: [{ ...saved, lease: 'active', served: [] }] });
    await writer.flush();
    expect(await loadRegistrations(file)).toEqual([saved]);
  });
});
