/**
 * A registration's transport security: a `host:port` target is called with TLS, verified against the
 * CA bundle the plugin registered, unless its host is a loopback address. Plaintext to an admission
 * plugin over the network would let anyone on the path read every review and answer in the
 * plugin's name. A unix socket needs nothing (its file permissions guard it).
 *
 * Only public material is accepted: a bundle holding a private key is refused (no key travels over
 * the registry; the client certificate for mTLS is the caller's own setting).
 */
import { X509Certificate } from 'node:crypto';
import { mayCallInPlaintext } from '@hookgate/config';
import type { RegisteredTls, RegisterInput } from './types.js';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

export type TlsCheck =
  | { readonly ok: true; readonly tls: RegisteredTls | undefined }
  | { readonly ok: false; readonly problems: readonly string[] };

/** The registration's TLS checked against its target (already known to be well-formed), or why not. */
export function checkRegistrationTls(target: string, tls: RegisterInput['tls'], now: Date = new Date()): TlsCheck {
  const unix = target.startsWith('unix:');
  if (tls === undefined) {
    if (mayCallInPlaintext(target)) return { ok: true, tls: undefined };
    return {
      ok: false,
      problems: [
        `tls: Required value: target ${JSON.stringify(target)} is reached over the network, and plaintext to an admission plugin ` +
          'lets anyone on the path read the reviews and answer in its name: serve the plugin with TLS and register with ' +
          'its CA (tls.ca in the SDK, tls.ca_pem in RegisterRequest: the PEM CA bundle that signs its serving certificate; tls.serverName when the certificate does not name the host), ' +
          'or listen on a unix socket or a loopback address (127.0.0.1, [::1])',
      ],
    };
  }
  if (unix)
    return {
      ok: false,
      problems: [
        `tls: Forbidden: target ${JSON.stringify(target)} is a unix socket, which is called without TLS (its file permissions guard it): leave tls unset, or register a host:port target`,
      ],
    };
  const problems: string[] = [];
  const ca = typeof tls.caPem === 'string' ? tls.caPem : Buffer.from(tls.caPem).toString('utf8');
  problems.push(...caBundleProblems(ca, now));
  const serverName = tls.serverName ?? '';
  if (serverName !== '' && !/^[A-Za-z0-9.:_-]+$/.test(serverName))
    problems.push(
      `tls.serverName: Invalid value: ${JSON.stringify(serverName)}: must be a DNS name or an IP address, as the plugin's certificate names it`,
    );
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, tls: { ca, ...(serverName === '' ? {} : { serverName }) } };
}

function caBundleProblems(ca: string, now: Date): string[] {
  const fix = 'give the PEM CA certificate(s) that sign the plugin serving certificate';
  if (ca.trim() === '') return [`tls.caPem: Required value: ${fix}`];
  const blocks = [...ca.matchAll(PEM_BLOCK)];
  if (blocks.length === 0) return [`tls.caPem: Invalid value: not PEM (no -----BEGIN CERTIFICATE----- block): ${fix}`];
  const problems: string[] = [];
  blocks.forEach((block, i) => {
    const label = block[1]!;
    const where = `tls.caPem: Invalid value: block ${i + 1}`;
    if (label.includes('PRIVATE KEY')) {
      problems.push(
        `${where} is a private key: never send a key to the registry (the CA certificate is public material; keep the key with the plugin)`,
      );
      return;
    }
    if (label !== 'CERTIFICATE') {
      problems.push(`${where} is a ${label}, not a CERTIFICATE: ${fix}`);
      return;
    }
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(block[0]);
    } catch (error) {
      problems.push(`${where} is not a readable X.509 certificate (${(error as Error).message}): ${fix}`);
      return;
    }
    if (!cert.ca)
      problems.push(
        `${where} (${cert.subject.replaceAll('\n', ', ')}) is not a CA certificate: give the CA that signed the serving certificate, not the serving certificate itself`,
      );
    else if (Date.parse(cert.validTo) <= now.getTime())
      problems.push(
        `${where} (${cert.subject.replaceAll('\n', ', ')}) expired on ${cert.validTo}: give the current CA`,
      );
  });
  return problems;
}
