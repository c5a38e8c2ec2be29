import 'reflect-metadata';
import { X509Certificate, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate } from './certificate-authority.js';
import type { KeyAndCert } from './certificate-authority.js';
import { caBundleOf, httpsServerOptions, openTlsMaterial, secureContextOptions } from './tls-material.js';
import type { TlsMaterial, TlsMaterialSource } from './tls-material.js';

const DAY = 24 * 3600_000;

/** A client certificate (EKU clientAuth), as the apiserver would present, signed by `ca`. */
async function issueClientCertificate(ca: KeyAndCert): Promise<KeyAndCert> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const caCert = new x509.X509Certificate(ca.certPem);
  const cert = await x509.X509CertificateGenerator.create({
    subject: 'CN=kube-apiserver',
    issuer: caCert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + DAY),
    signingAlgorithm: alg,
    publicKey: keys.publicKey,
    signingKey: await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(ca.keyPem), alg, false, [
      'sign',
    ]),
    extensions: [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])],
  });
  const key = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { keyPem: key, certPem: cert.toString('pem') };
}
let dir: string;
const cleanups: (() => unknown)[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookgate-tls-'));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await rm(dir, { recursive: true, force: true });
});

async function serve(material: TlsMaterial, host: string): Promise<{ server: Server; port: number }> {
  const server = createServer(httpsServerOptions(material), (_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { server, port: (server.address() as { port: number }).port };
}

/** One fresh TLS connection (no agent reuse); resolves with the served certificate's serial. */
function get(
  host: string,
  port: number,
  options: { ca: string; servername?: string; key?: string; cert?: string },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path: '/', agent: false, ...options }, (res) => {
      const serial = (res.socket as import('node:tls').TLSSocket).getPeerCertificate().serialNumber;
      res.resume();
      res.on('end', () => resolve(serial));
    });
    req.on('error', reject);
    req.end();
  });
}

function track(source: TlsMaterialSource): TlsMaterialSource {
  cleanups.push(() => source.close());
  return source;
}

describe('openTlsMaterial, self-managed', () => {
  const hosts = [
    { name: 'IPv4 loopback', listen: '127.0.0.1', connect: '127.0.0.1' },
    { name: 'IPv6 loopback', listen: '::1', connect: '::1' },
    { name: 'localhost by name', listen: '127.0.0.1', connect: '127.0.0.1', servername: 'localhost' },
  ];
  for (const h of hosts) {
    it(`is accepted by Node's https client trusting only the CA: ${h.name}`, async () => {
      const tls = track(await openTlsMaterial({ stateDir: dir, checkIntervalMs: 0, watch: false }));
      const { port } = await serve(tls.current(), h.listen);
      const serial = await get(h.connect, port, {
        ca: tls.current().ca!,
        ...(h.servername ? { servername: h.servername } : {}),
      });
      expect(serial).toBe(new X509Certificate(tls.current().cert).serialNumber);
    });
  }

  it('is refused by a client that trusts another CA', async () => {
    const tls = track(await openTlsMaterial({ stateDir: dir, checkIntervalMs: 0, watch: false }));
    const { port } = await serve(tls.current(), '127.0.0.1');
    const other = await createCertificateAuthority(new Date(), DAY);
    await expect(get('127.0.0.1', port, { ca: other.certPem })).rejects.toThrow(/certificate/);
  });

  it('renews when due, tells listeners, and a live server switches certificates without restart', async () => {
    // Start 61 days in the past so that both certificates are valid for the real clock the handshake uses.
    const realNow = Date.now();
    let clock = new Date(realNow - 61 * DAY);
    const tls = track(await openTlsMaterial({ stateDir: dir, now: () => clock, checkIntervalMs: 0, watch: false }));
    const { server, port } = await serve(tls.current(), '127.0.0.1');
    const changes: TlsMaterial[] = [];
    tls.onChange((m) => {
      changes.push(m);
      server.setSecureContext(secureContextOptions(m));
    });
    const before = await get('127.0.0.1', port, { ca: tls.current().ca! });
    clock = new Date(realNow - 2 * DAY); // 59 days in: not due yet
    expect(await tls.refresh()).toBe(false);
    clock = new Date(realNow); // 61 days in: past 2/3 of 90 days
    expect(await tls.refresh()).toBe(true);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.ca).toBe(tls.current().ca);
    const after = await get('127.0.0.1', port, { ca: tls.current().ca! });
    expect(after).not.toBe(before);
    expect(after).toBe(new X509Certificate(changes[0]!.cert).serialNumber);
  });

  it('renews from its own timer once the renewal time has come', async () => {
    const realNow = Date.now();
    let clock = new Date(realNow - 61 * DAY);
    const tls = track(await openTlsMaterial({ stateDir: dir, now: () => clock, checkIntervalMs: 10, watch: false }));
    const first = tls.current().cert;
    const changed = new Promise<TlsMaterial>((resolve) => tls.onChange(resolve));
    clock = new Date(realNow);
    expect((await changed).cert).not.toBe(first);
  });

  it('picks up a certificate renewed by another worker through the file watcher', async () => {
    const tls = track(await openTlsMaterial({ stateDir: dir, checkIntervalMs: 0, debounceMs: 20 }));
    const changed = new Promise<TlsMaterial>((resolve) => tls.onChange(resolve));
    // Another process renews: reissue with the same CA and replace the file atomically.
    const ca = await import('./self-managed.js').then(({ selfManagedPaths }) => selfManagedPaths(dir));
    const { readFile } = await import('node:fs/promises');
    const { splitKeyAndCerts } = await import('./pem.js');
    const caPair = splitKeyAndCerts(await readFile(ca.ca, 'utf8'))!;
    const renewed = await issueServingCertificate(caPair, new Date(), 90 * DAY);
    await writeFile(`${ca.serving}.tmp`, renewed.keyPem + renewed.certPem, { mode: 0o600 });
    await rename(`${ca.serving}.tmp`, ca.serving);
    expect((await changed).cert).toBe(renewed.certPem);
  });

  it('writes the CA files back from memory when they vanish while serving, keeping the CA', async () => {
    const tls = track(await openTlsMaterial({ stateDir: dir, checkIntervalMs: 0, watch: false }));
    const caBefore = tls.current().ca;
    const { selfManagedPaths } = await import('./self-managed.js');
    const paths = selfManagedPaths(dir);
    const { readFile } = await import('node:fs/promises');
    await rm(paths.ca);
    await rm(paths.caCert);
    await rm(paths.serving);
    expect(await tls.refresh()).toBe(true); // a new serving certificate, signed by the same CA
    expect(tls.current().ca).toBe(caBefore);
    expect(await readFile(paths.caCert, 'utf8')).toBe(caBefore);
    const { port } = await serve(tls.current(), '127.0.0.1');
    expect(await get('127.0.0.1', port, { ca: caBefore! })).toBe(new X509Certificate(tls.current().cert).serialNumber);
  });

  it('exports the CA as a base64 caBundle', async () => {
    const tls = track(await openTlsMaterial({ stateDir: dir, checkIntervalMs: 0, watch: false }));
    expect(Buffer.from(caBundleOf(tls.current())!, 'base64').toString()).toBe(tls.current().ca);
  });
});

describe('openTlsMaterial, operator-provided files', () => {
  let ca: KeyAndCert;
  const certFile = () => join(dir, 'tls.crt');
  const keyFile = () => join(dir, 'tls.key');
  async function writePair(pair: KeyAndCert, chain = '') {
    await writeFile(certFile(), pair.certPem + chain);
    await writeFile(keyFile(), pair.keyPem, { mode: 0o600 });
  }
  beforeEach(async () => {
    ca = await createCertificateAuthority(new Date(), 30 * DAY);
  });

  it('serves the files, with the chain issuer as CA', async () => {
    const pair = await issueServingCertificate(ca, new Date(), DAY);
    await writePair(pair, ca.certPem);
    const tls = track(
      await openTlsMaterial({
        stateDir: dir,
        certFile: certFile(),
        keyFile: keyFile(),
        checkIntervalMs: 0,
        watch: false,
      }),
    );
    expect(tls.current()).toMatchObject({ origin: 'operator', key: pair.keyPem, ca: ca.certPem });
    const { port } = await serve(tls.current(), '127.0.0.1');
    expect(await get('127.0.0.1', port, { ca: ca.certPem })).toBe(new X509Certificate(pair.certPem).serialNumber);
  });

  it('has no CA to export when the chain stops at the leaf', async () => {
    await writePair(await issueServingCertificate(ca, new Date(), DAY));
    const tls = track(
      await openTlsMaterial({
        stateDir: dir,
        certFile: certFile(),
        keyFile: keyFile(),
        checkIntervalMs: 0,
        watch: false,
      }),
    );
    expect(tls.current().ca).toBeUndefined();
    expect(caBundleOf(tls.current())).toBeUndefined();
  });

  it('reloads when the operator replaces the files, and keeps the old pair when they do not match', async () => {
    await writePair(await issueServingCertificate(ca, new Date(), DAY));
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (_o: object, msg: string) => warnings.push(msg) };
    const tls = track(
      await openTlsMaterial({
        stateDir: dir,
        certFile: certFile(),
        keyFile: keyFile(),
        checkIntervalMs: 0,
        debounceMs: 20,
        log,
      }),
    );
    const next = await issueServingCertificate(ca, new Date(), DAY);
    const changed = new Promise<TlsMaterial>((resolve) => tls.onChange(resolve));
    await writePair(next);
    expect((await changed).cert).toBe(next.certPem);
    // A half-replaced pair (new certificate, old key) is refused and the current one stays.
    const mismatched = await issueServingCertificate(ca, new Date(), DAY);
    await writeFile(certFile(), mismatched.certPem);
    expect(await tls.refresh()).toBe(false);
    expect(tls.current().cert).toBe(next.certPem);
    expect(warnings.some((w) => w.includes('still serving the previous certificate'))).toBe(true);
  });

  const invalid = [
    { name: 'certFile without keyFile', options: () => ({ certFile: certFile() }), error: /go together/ },
    {
      name: 'a key from another certificate',
      options: () => ({ certFile: certFile(), keyFile: join(dir, 'other.key') }),
      error: /is not the key of the certificate/,
    },
    {
      name: 'a missing file',
      options: () => ({ certFile: join(dir, 'nope.crt'), keyFile: keyFile() }),
      error: /ENOENT/,
    },
  ];
  for (const c of invalid) {
    it(`refuses to start with ${c.name}`, async () => {
      await writePair(await issueServingCertificate(ca, new Date(), DAY));
      await writeFile(join(dir, 'other.key'), (await createCertificateAuthority(new Date(), DAY)).keyPem);
      await expect(
        openTlsMaterial({ stateDir: dir, checkIntervalMs: 0, watch: false, ...c.options() }),
      ).rejects.toThrow(c.error);
    });
  }

  it('requires client certificates signed by the client CA', async () => {
    const clientCa = await createCertificateAuthority(new Date(), DAY);
    await writeFile(join(dir, 'client-ca.crt'), clientCa.certPem);
    const tls = track(
      await openTlsMaterial({
        stateDir: dir,
        clientCAFile: join(dir, 'client-ca.crt'),
        checkIntervalMs: 0,
        watch: false,
      }),
    );
    const { port } = await serve(tls.current(), '127.0.0.1');
    const client = await issueClientCertificate(clientCa);
    await expect(get('127.0.0.1', port, { ca: tls.current().ca! })).rejects.toThrow();
    await expect(
      get('127.0.0.1', port, { ca: tls.current().ca!, key: client.keyPem, cert: client.certPem }),
    ).resolves.toBeTypeOf('string');
  });
});
