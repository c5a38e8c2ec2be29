/**
 * Decides whether stored certificates can be reused, with Node's own X.509 parser:
 * the key matches, the serving certificate is signed by our CA and covers the loopback names,
 * and it is not yet due for renewal.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { KeyAndCert } from './certificate-authority.js';
import { SERVING_DNS_NAMES, SERVING_IPS } from './certificate-authority.js';

/** Renew when this fraction of the serving certificate's lifetime has passed. */
export const RENEW_AT_FRACTION = 2 / 3;

export interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export type Inspection = ({ readonly ok: true } & Validity) | { readonly ok: false; readonly reason: string };

export function validityOf(certPem: string): Validity {
  const cert = new X509Certificate(certPem);
  return { notBefore: new Date(cert.validFrom), notAfter: new Date(cert.validTo) };
}

export function renewalTime(validity: Validity, fraction = RENEW_AT_FRACTION): Date {
  const start = validity.notBefore.getTime();
  return new Date(start + (validity.notAfter.getTime() - start) * fraction);
}

/** The certificate's public key is the key's: a key file from another certificate is refused. */
export function keyMatchesCertificate(pair: KeyAndCert): boolean {
  try {
    return new X509Certificate(pair.certPem).checkPrivateKey(createPrivateKey(pair.keyPem));
  } catch {
    return false;
  }
}

export function inspectCertificateAuthority(ca: KeyAndCert, now: Date): Inspection {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(ca.certPem);
  } catch (err) {
    return { ok: false, reason: `CA certificate does not parse: ${(err as Error).message}` };
  }
  if (!cert.ca) return { ok: false, reason: 'CA certificate is not a CA (basicConstraints)' };
  if (!keyMatchesCertificate(ca)) return { ok: false, reason: 'CA key does not match the CA certificate' };
  const validity = validityOf(ca.certPem);
  if (now >= validity.notAfter)
    return { ok: false, reason: `CA certificate expired at ${validity.notAfter.toISOString()}` };
  return { ok: true, ...validity };
}

export function inspectServingCertificate(serving: KeyAndCert, caCertPem: string, now: Date): Inspection {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(serving.certPem);
  } catch (err) {
    return { ok: false, reason: `serving certificate does not parse: ${(err as Error).message}` };
  }
  if (!keyMatchesCertificate(serving))
    return { ok: false, reason: 'serving key does not match the serving certificate' };
  if (!cert.verify(new X509Certificate(caCertPem).publicKey))
    return { ok: false, reason: 'serving certificate is not signed by the current CA' };
  const missing = [
    ...SERVING_IPS.filter((ip) => cert.checkIP(ip) === undefined),
    ...SERVING_DNS_NAMES.filter((dns) => cert.checkHost(dns) === undefined),
  ];
  if (missing.length > 0) return { ok: false, reason: `serving certificate does not cover ${missing.join(', ')}` };
  const validity = validityOf(serving.certPem);
  const renewAt = renewalTime(validity);
  if (now >= renewAt)
    return {
      ok: false,
      reason: `serving certificate is due for renewal since ${renewAt.toISOString()} (expires ${validity.notAfter.toISOString()})`,
    };
  return { ok: true, ...validity };
}
