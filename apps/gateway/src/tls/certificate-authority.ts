/**
 * The gateway's private CA and its loopback serving certificate, made with @peculiar/x509 on
 * Node's WebCrypto (ECDSA P-256, SHA-256). The apiserver trusts the CA through caBundle; the
 * serving certificate covers 127.0.0.1, ::1 and localhost and is reissued on renewal without
 * touching the CA, so the apiserver's webhook configuration never changes.
 */
import 'reflect-metadata'; // @peculiar/x509 uses tsyringe, which needs the Reflect metadata polyfill first
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// The library's types name DOM globals; Node's webcrypto is the same API under node:crypto names.
type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
x509.cryptoProvider.set(webcrypto);

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export const SERVING_IPS = ['127.0.0.1', '::1'] as const;
export const SERVING_DNS_NAMES = ['localhost'] as const;

export interface KeyAndCert {
  readonly keyPem: string;
  readonly certPem: string;
}

/** Backdating tolerates small clock differences between the gateway and the apiserver. */
const BACKDATE_MS = 60_000;

/** A positive 128-bit serial number in hex (RFC 5280: positive, at most 20 octets). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString('hex');
}

async function exportKey(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return `${x509.PemConverter.encode(der, 'PRIVATE KEY')}\n`;
}

export async function createCertificateAuthority(now: Date, lifetimeMs: number): Promise<KeyAndCert> {
  const keys = (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=hookgate-ca-${now.toISOString().slice(0, 10)}, O=Hookgate`,
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter: new Date(now.getTime() + lifetimeMs),
    signingAlgorithm: SIGNING_ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { keyPem: await exportKey(keys.privateKey), certPem: `${cert.toString('pem')}\n` };
}

/** A serving certificate signed by `ca`, valid for lifetimeMs but never beyond the CA's own expiry. */
export async function issueServingCertificate(ca: KeyAndCert, now: Date, lifetimeMs: number): Promise<KeyAndCert> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await webcrypto.subtle.importKey(
    'pkcs8',
    x509.PemConverter.decodeFirst(ca.keyPem),
    KEY_ALGORITHM,
    false,
    ['sign'],
  );
  const keys = (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notAfter = new Date(Math.min(now.getTime() + lifetimeMs, caCert.notAfter.getTime()));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: 'CN=hookgate, O=Hookgate',
    issuer: caCert.subject,
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter,
    signingAlgorithm: SIGNING_ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...SERVING_IPS.map((value) => ({ type: 'ip' as const, value })),
        ...SERVING_DNS_NAMES.map((value) => ({ type: 'dns' as const, value })),
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { keyPem: await exportKey(keys.privateKey), certPem: `${cert.toString('pem')}\n` };
}
