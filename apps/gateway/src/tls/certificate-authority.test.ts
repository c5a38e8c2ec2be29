import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate } from './certificate-authority.js';

const DAY = 24 * 3600_000;
const now = new Date('2030-01-01T00:00:00Z');

describe('createCertificateAuthority and issueServingCertificate', async () => {
  const ca = await createCertificateAuthority(now, 3650 * DAY);
  const serving = await issueServingCertificate(ca, now, 90 * DAY);
  const caCert = new X509Certificate(ca.certPem);
  const leaf = new X509Certificate(serving.certPem);

  it('makes a self-signed ECDSA P-256 CA', () => {
    expect(caCert.ca).toBe(true);
    expect(caCert.checkIssued(caCert)).toBe(true);
    expect(caCert.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    expect(ca.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  const names = [
    { name: 'IPv4 loopback', check: () => leaf.checkIP('127.0.0.1') },
    { name: 'IPv6 loopback', check: () => leaf.checkIP('::1') },
    { name: 'localhost', check: () => leaf.checkHost('localhost') },
  ];
  for (const n of names) it(`serving certificate covers ${n.name}`, () => expect(n.check()).toBeDefined());

  it('serving certificate is a leaf signed by the CA for server auth', () => {
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(caCert)).toBe(true);
    expect(leaf.verify(caCert.publicKey)).toBe(true);
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(leaf.checkHost('example.com')).toBeUndefined();
  });

  it('backdates by a minute and lasts the requested lifetime', () => {
    expect(new Date(leaf.validFrom).getTime()).toBe(now.getTime() - 60_000);
    expect(new Date(leaf.validTo).getTime()).toBe(now.getTime() + 90 * DAY);
  });

  it('never outlives its CA', async () => {
    const shortCa = await createCertificateAuthority(now, 10 * DAY);
    const capped = new X509Certificate((await issueServingCertificate(shortCa, now, 90 * DAY)).certPem);
    expect(capped.validTo).toBe(new X509Certificate(shortCa.certPem).validTo);
  });
});
