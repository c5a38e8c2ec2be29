import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { createCa, dropPreviousCa, exportCa, importCa, promoteNextCa, trustedCaBundle } from './ca-files.js';
import { ensureSelfManagedCertificates, selfManagedPaths } from './self-managed.js';

describe('the CA files of a state directory', () => {
  let tmp: TempDir;
  afterEach(async () => tmp?.cleanup());

  it('creates a CA the gateway then serves from, and refuses to replace it without force', async () => {
    tmp = await tempDir();
    const created = await createCa(tmp.dir);
    const served = await ensureSelfManagedCertificates({ stateDir: tmp.dir });
    expect(new X509Certificate(served.ca).fingerprint256).toBe(created.fingerprint256);
    await expect(createCa(tmp.dir)).rejects.toThrow(/already holds a CA .*pass --force/);
    const replaced = await createCa(tmp.dir, { force: true });
    expect(replaced.fingerprint256).not.toBe(created.fingerprint256);
  });

  it('says what to run first when there is nothing to export or promote', async () => {
    tmp = await tempDir();
    await expect(exportCa(tmp.dir)).rejects.toThrow('run `hookgate ca create` (or start the gateway once) first');
    await expect(exportCa(tmp.dir, 'next')).rejects.toThrow('run `hookgate ca create --next` first');
    await expect(promoteNextCa(tmp.dir)).rejects.toThrow('run `hookgate ca create --next` (or import one) first');
    expect(await trustedCaBundle(tmp.dir)).toBeUndefined();
    expect(await dropPreviousCa(tmp.dir)).toBe(false);
  });

  it('imports what another directory exported; refuses an expired CA and a serving certificate', async () => {
    tmp = await tempDir();
    const other = `${tmp.dir}/other`;
    await createCa(other);
    const summary = await importCa(`${tmp.dir}/mine`, await exportCa(other));
    expect(await readFile(selfManagedPaths(`${tmp.dir}/mine`).caCert, 'utf8')).toBe(
      await readFile(selfManagedPaths(other).caCert, 'utf8'),
    );
    expect(summary.subject).toMatch(/^CN=hookgate-ca-/);
    await createCa(`${tmp.dir}/old`, { now: new Date('2020-01-01T00:00:00Z'), lifetimeDays: 1 });
    await expect(importCa(`${tmp.dir}/x`, await exportCa(`${tmp.dir}/old`))).rejects.toThrow(
      /not a usable CA: CA certificate expired at 2020-01-02/,
    );
    const serving = await ensureSelfManagedCertificates({ stateDir: other });
    await expect(importCa(`${tmp.dir}/y`, serving.key + serving.cert)).rejects.toThrow(
      'not a usable CA: CA certificate is not a CA (basicConstraints)',
    );
  });

  it('rotates: the bundle holds current + next, then new + previous, then the new CA alone', async () => {
    tmp = await tempDir();
    await createCa(tmp.dir);
    const paths = selfManagedPaths(tmp.dir);
    const oldCa = await readFile(paths.caCert, 'utf8');
    await createCa(tmp.dir, { slot: 'next' });
    const newCa = await readFile(paths.nextCaCert, 'utf8');
    expect(await trustedCaBundle(tmp.dir)).toBe(oldCa + newCa);
    const promoted = await promoteNextCa(tmp.dir);
    expect(promoted.current.fingerprint256).toBe(new X509Certificate(newCa).fingerprint256);
    expect(promoted.previous?.fingerprint256).toBe(new X509Certificate(oldCa).fingerprint256);
    expect(await trustedCaBundle(tmp.dir)).toBe(newCa + oldCa);
    // The gateway now issues from the new CA.
    const served = await ensureSelfManagedCertificates({ stateDir: tmp.dir });
    expect(new X509Certificate(served.cert).verify(new X509Certificate(newCa).publicKey)).toBe(true);
    expect(await dropPreviousCa(tmp.dir)).toBe(true);
    expect(await trustedCaBundle(tmp.dir)).toBe(newCa);
  });
});
