import { beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate, type KeyAndCert } from '../tls/certificate-authority.js';
import { checkRegistrationTls } from './registration-tls.js';
import { RegistrationStore } from './registration-store.js';
import { configuration, payload, webhook } from './test/fixtures.js';

const DAY_MS = 86_400_000;
const now = new Date();
let ca: KeyAndCert;
let otherCa: KeyAndCert;
let serving: KeyAndCert;

beforeAll(async () => {
  ca = await createCertificateAuthority(now, 30 * DAY_MS);
  otherCa = await createCertificateAuthority(now, 30 * DAY_MS);
  serving = await issueServingCertificate(ca, now, DAY_MS);
});

describe('checkRegistrationTls', () => {
  it('plaintext is accepted for unix sockets and loopback addresses only', () => {
    expect(checkRegistrationTls('unix:///run/p.sock', undefined)).toEqual({ ok: true, tls: undefined });
    expect(checkRegistrationTls('127.0.0.1:7001', undefined)).toEqual({ ok: true, tls: undefined });
    expect(checkRegistrationTls('[::1]:7001', undefined)).toEqual({ ok: true, tls: undefined });
    const refused = checkRegistrationTls('10.0.0.5:7001', undefined);
    expect(refused).toEqual({
      ok: false,
      problems: [
        'tls: Required value: target "10.0.0.5:7001" is reached over the network, and plaintext to an admission plugin ' +
          'lets anyone on the path read the reviews and answer in its name: serve the plugin with TLS and register with ' +
          'its CA (tls.ca in the SDK, tls.ca_pem in RegisterRequest: the PEM CA bundle that signs its serving certificate; tls.serverName when the certificate does not name the host), ' +
          'or listen on a unix socket or a loopback address (127.0.0.1, [::1])',
      ],
    });
  });

  it('accepts a CA bundle (string or bytes, several CAs) with a server name', () => {
    expect(checkRegistrationTls('10.0.0.5:7001', { caPem: Buffer.from(ca.certPem), serverName: 'localhost' })).toEqual({
      ok: true,
      tls: { ca: ca.certPem, serverName: 'localhost' },
    });
    const bundle = ca.certPem + otherCa.certPem;
    expect(checkRegistrationTls('127.0.0.1:7001', { caPem: bundle, serverName: '' })).toEqual({
      ok: true,
      tls: { ca: bundle },
    });
  });

  const refusals: { name: string; target?: string; caPem: string; serverName?: string; problems: RegExp[] }[] = [
    { name: 'an empty CA', caPem: '', problems: [/^tls\.caPem: Required value: give the PEM CA certificate/] },
    { name: 'not PEM', caPem: 'hello', problems: [/^tls\.caPem: Invalid value: not PEM \(no -----BEGIN CERTIFICATE/] },
    {
      name: 'a damaged certificate',
      caPem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
      problems: [/^tls\.caPem: Invalid value: block 1 is not a readable X\.509 certificate/],
    },
    {
      name: 'a private key in the bundle',
      caPem: 'KEY',
      problems: [/^tls\.caPem: Invalid value: block 2 is a private key: never send a key to the registry/],
    },
    {
      name: 'the serving certificate instead of its CA',
      caPem: 'SERVING',
      problems: [/^tls\.caPem: Invalid value: block 1 \(CN=hookgate, O=Hookgate\) is not a CA certificate/],
    },
    {
      name: 'tls on a unix socket',
      target: 'unix:///run/p.sock',
      caPem: 'CA',
      problems: [/^tls: Forbidden: target "unix:\/\/\/run\/p\.sock" is a unix socket/],
    },
    {
      name: 'a server name that is no name',
      caPem: 'CA',
      serverName: 'a b',
      problems: [/^tls\.serverName: Invalid value: "a b": must be a DNS name or an IP address/],
    },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name}`, () => {
      const caPem = c.caPem === 'KEY' ? ca.certPem + ca.keyPem : c.caPem === 'SERVING' ? serving.certPem : c.caPem;
      const result = checkRegistrationTls(c.target ?? '10.0.0.5:7001', {
        caPem: caPem === 'CA' ? ca.certPem : caPem,
        ...(c.serverName === undefined ? {} : { serverName: c.serverName }),
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problems).toHaveLength(c.problems.length);
      c.problems.forEach((p, i) => expect(result.problems[i]).toMatch(p));
    });
  }

  it('refuses a CA that expired', async () => {
    const old = await createCertificateAuthority(new Date(now.getTime() - 10 * DAY_MS), DAY_MS);
    const result = checkRegistrationTls('10.0.0.5:7001', { caPem: old.certPem }, now);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems[0]).toMatch(
        /^tls\.caPem: Invalid value: block 1 \(.*\) expired on .*: give the current CA$/,
      );
  });
});

describe('RegistrationStore with TLS registrations', () => {
  const CONFIG = payload(configuration('labels', [webhook('labels.example.com', 'labels')]));

  it('refuses plaintext to a network target as an invalid registration, naming what to do', () => {
    const store = new RegistrationStore();
    const result = store.register({ plugin: 'labels', target: 'plugin.example.com:7001', configurations: [CONFIG] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('invalid');
    expect(result.error.message).toMatch(
      /^registration of plugin "labels" refused, 1 problem:\n {2}- tls: Required value: target "plugin\.example\.com:7001" is reached over the network/,
    );
  });

  it('keeps the TLS in the snapshot; a renewal keeps the registration, a new CA replaces it', () => {
    let t = Date.UTC(2026, 0, 1);
    const store = new RegistrationStore({ now: () => t });
    const input = { plugin: 'labels', target: 'localhost:7001', configurations: [CONFIG] };
    const first = store.register({ ...input, tls: { caPem: ca.certPem, serverName: 'localhost' } });
    expect(first.ok && first.value.change).toBe('new');
    expect(store.snapshot().registrations[0]?.tls).toEqual({ ca: ca.certPem, serverName: 'localhost' });
    t += 1_000;
    const renewed = store.register({ ...input, tls: { caPem: ca.certPem, serverName: 'localhost' } });
    expect(renewed.ok && renewed.value.change).toBe('renewed');
    const replaced = store.register({ ...input, tls: { caPem: otherCa.certPem, serverName: 'localhost' } });
    expect(replaced.ok && replaced.value.change).toBe('replaced');
    expect(store.snapshot().registrations[0]?.tls?.ca).toBe(otherCa.certPem);
    expect(store.snapshot().registrations[0]?.registeredAt).toBe(t);
  });

  it('does not restore a saved plaintext registration of a network target (saved by an older gateway)', () => {
    const t = Date.UTC(2026, 0, 1);
    const store = new RegistrationStore({ now: () => t });
    const { restored, dropped } = store.restore([
      {
        plugin: 'labels',
        target: '10.0.0.5:7001',
        configurations: [],
        leaseSeconds: 30,
        registeredAt: t,
        renewedAt: t,
        expiresAt: t + 30_000,
      },
    ]);
    expect(restored).toEqual([]);
    expect(dropped).toEqual([
      {
        plugin: 'labels',
        reason: expect.stringMatching(/refused, 1 problem:\n {2}- tls: Required value: target "10\.0\.0\.5:7001"/),
      },
    ]);
  });

  it('restores a saved TLS registration as saved, even once its CA expired (calls then fail, Fail hooks fail closed)', async () => {
    const t = Date.UTC(2026, 0, 1);
    const old = await createCertificateAuthority(new Date(t - 10 * DAY_MS), DAY_MS);
    const store = new RegistrationStore({ now: () => t });
    const saved = {
      plugin: 'labels',
      target: '10.0.0.5:7001',
      tls: { ca: old.certPem, serverName: 'labels' },
      configurations: [],
      leaseSeconds: 30,
      registeredAt: t,
      renewedAt: t,
      expiresAt: t + 30_000,
    };
    expect(store.restore([saved]).dropped).toEqual([]);
    expect(store.snapshot().registrations[0]?.tls).toEqual(saved.tls);
  });
});
