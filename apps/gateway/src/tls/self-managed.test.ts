import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate } from './certificate-authority.js';
import { ensureSelfManagedCertificates, selfManagedPaths } from './self-managed.js';

const DAY = 24 * 3600_000;
const start = new Date('2030-01-01T00:00:00Z');
const at = (days: number) => () => new Date(start.getTime() + days * DAY);
const serialOf = (pem: string) => new X509Certificate(pem).serialNumber;

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'hookgate-state-'));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe('ensureSelfManagedCertificates', () => {
  it('creates the CA and serving certificate on first start, keys readable by the owner only', async () => {
    const m = await ensureSelfManagedCertificates({ stateDir, now: at(0) });
    const paths = selfManagedPaths(stateDir);
    expect((await stat(paths.ca)).mode & 0o777).toBe(0o600);
    expect((await stat(paths.serving)).mode & 0o777).toBe(0o600);
    expect((await stat(paths.caCert)).mode & 0o777).toBe(0o644);
    expect(await readFile(paths.caCert, 'utf8')).toBe(m.ca);
    expect(new X509Certificate(m.cert).verify(new X509Certificate(m.ca).publicKey)).toBe(true);
    expect(m.notAfter).toEqual(at(90)());
    expect(m.renewAt.getTime()).toBeCloseTo(start.getTime() - 60_000 + ((90 * DAY + 60_000) * 2) / 3, -3);
  });

  const later = [
    { name: 'reuses both before the renewal point', days: 59, servingRenewed: false, caRenewed: false },
    {
      name: 'renews the serving certificate at 2/3 of its lifetime, keeping the CA',
      days: 61,
      servingRenewed: true,
      caRenewed: false,
    },
    {
      name: 'renews an expired serving certificate, keeping the CA',
      days: 400,
      servingRenewed: true,
      caRenewed: false,
    },
    { name: 'replaces an expired CA', days: 3651, servingRenewed: true, caRenewed: true },
  ];
  for (const c of later) {
    it(c.name, async () => {
      const first = await ensureSelfManagedCertificates({ stateDir, now: at(0) });
      const warnings: string[] = [];
      const log = { info: () => undefined, warn: (_o: object, msg: string) => warnings.push(msg) };
      const second = await ensureSelfManagedCertificates({ stateDir, now: at(c.days), log });
      expect(serialOf(second.cert) !== serialOf(first.cert)).toBe(c.servingRenewed);
      expect(second.ca !== first.ca).toBe(c.caRenewed);
      expect(warnings.some((w) => w.includes('print-webhooks'))).toBe(c.caRenewed);
      expect(await readFile(selfManagedPaths(stateDir).serving, 'utf8')).toBe(second.key + second.cert);
    });
  }

  const damaged = [
    { name: 'a corrupt serving file', damage: async () => writeFile(selfManagedPaths(stateDir).serving, 'garbage') },
    {
      name: 'a serving certificate from another CA',
      damage: async () => {
        const other = await issueServingCertificate(
          await createCertificateAuthority(at(0)(), 3650 * DAY),
          at(0)(),
          90 * DAY,
        );
        await writeFile(selfManagedPaths(stateDir).serving, other.keyPem + other.certPem);
      },
    },
    {
      name: 'a serving key that does not match its certificate',
      damage: async () => {
        const file = selfManagedPaths(stateDir).serving;
        const other = await createCertificateAuthority(at(0)(), DAY);
        const text = await readFile(file, 'utf8');
        await writeFile(file, other.keyPem + text.slice(text.indexOf('-----BEGIN CERTIFICATE')));
      },
    },
  ];
  for (const c of damaged) {
    it(`reissues the serving certificate over ${c.name}`, async () => {
      const first = await ensureSelfManagedCertificates({ stateDir, now: at(0) });
      await c.damage();
      const second = await ensureSelfManagedCertificates({ stateDir, now: at(1) });
      expect(second.ca).toBe(first.ca);
      expect(serialOf(second.cert)).not.toBe(serialOf(first.cert));
      expect(new X509Certificate(second.cert).verify(new X509Certificate(second.ca).publicKey)).toBe(true);
    });
  }

  it('creates one CA when several workers start at once', async () => {
    const results = await Promise.all([0, 1, 2].map(() => ensureSelfManagedCertificates({ stateDir, now: at(0) })));
    expect(new Set(results.map((r) => r.ca)).size).toBe(1);
    expect(new Set(results.map((r) => r.cert)).size).toBe(1);
  });
});
