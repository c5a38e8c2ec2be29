/**
 * One CA for every control-plane node, and its rotation (`hookgate ca ...`). The apiserver holds
 * one caBundle for the gateway's registration, while each node runs its own gateway: all of them
 * must serve certificates from a CA in that bundle. So the CA is created once, exported, and
 * imported on the other nodes' state directories.
 *
 * Rotation keeps both CAs trusted while certificates change over:
 *   1. `ca create --next` on one node, `ca export --next` / `ca import --next` on the others:
 *      <stateDir>/tls/ca-next.pem, not serving yet; the trust bundle now holds current + next.
 *   2. apply `hookgate print-webhooks` (caBundle: both CAs).
 *   3. `ca promote` on every node: next becomes the CA (the running gateway reissues its serving
 *      certificate from it within a second or so), the old certificate stays trusted as ca-previous.crt.
 *   4. `ca drop-previous`, then apply `hookgate print-webhooks` again (caBundle: the new CA only).
 * Every change happens under the same lock as the gateway's own renewal.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { createCertificateAuthority, type KeyAndCert } from './certificate-authority.js';
import { withFileLock } from './file-lock.js';
import { inspectCertificateAuthority } from './inspect-certificate.js';
import { certificatesOf, splitKeyAndCerts } from './pem.js';
import { readKeyAndCert, selfManagedPaths, writeAtomically } from './self-managed.js';

const DAY_MS = 24 * 3600_000;

/** Which CA slot a command works on: the serving CA, or the next one during a rotation. */
export type CaSlot = 'current' | 'next';

export interface CaSummary {
  readonly subject: string;
  readonly fingerprint256: string;
  readonly notAfter: string;
}

export class CaFileError extends Error {}

function slotPaths(stateDir: string, slot: CaSlot) {
  const p = selfManagedPaths(stateDir);
  return slot === 'current'
    ? { pair: p.ca, cert: p.caCert, lock: p.lock }
    : { pair: p.nextCa, cert: p.nextCaCert, lock: p.lock };
}

export function summarizeCa(certPem: string): CaSummary {
  const cert = new X509Certificate(certPem);
  // Node prints one attribute per line; one line reads better in a message.
  return {
    subject: cert.subject.split('\n').join(', '),
    fingerprint256: cert.fingerprint256,
    notAfter: new Date(cert.validTo).toISOString(),
  };
}

async function locked<T>(stateDir: string, fn: () => Promise<T>): Promise<T> {
  const paths = selfManagedPaths(stateDir);
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  return withFileLock(paths.lock, fn);
}

async function writeSlot(stateDir: string, slot: CaSlot, ca: KeyAndCert): Promise<void> {
  const paths = slotPaths(stateDir, slot);
  await writeAtomically(paths.pair, ca.keyPem + ca.certPem, 0o600);
  await writeAtomically(paths.cert, ca.certPem, 0o644);
}

/** Creates a CA in the slot. An existing one is kept unless `force` (the apiserver's caBundle may hold it). */
export async function createCa(
  stateDir: string,
  options: { slot?: CaSlot; force?: boolean; now?: Date; lifetimeDays?: number } = {},
): Promise<CaSummary> {
  const slot = options.slot ?? 'current';
  return locked(stateDir, async () => {
    const existing = await readKeyAndCert(slotPaths(stateDir, slot).pair);
    if (existing && !options.force)
      throw new CaFileError(
        `${slotPaths(stateDir, slot).pair} already holds a CA (${summarizeCa(existing.certPem).subject}); keep it, or pass --force to replace it (the apiserver's caBundle must then change too)`,
      );
    const now = options.now ?? new Date();
    const ca = await createCertificateAuthority(now, (options.lifetimeDays ?? 3650) * DAY_MS);
    await writeSlot(stateDir, slot, ca);
    return summarizeCa(ca.certPem);
  });
}

/** The CA's key and certificate as one PEM text, for `ca import` on another node. Secret: it signs serving certificates. */
export async function exportCa(stateDir: string, slot: CaSlot = 'current'): Promise<string> {
  const path = slotPaths(stateDir, slot).pair;
  const ca = await readKeyAndCert(path);
  if (!ca)
    throw new CaFileError(
      slot === 'current'
        ? `no CA in ${path}: run \`hookgate ca create\` (or start the gateway once) first`
        : `no next CA in ${path}: run \`hookgate ca create --next\` first`,
    );
  return ca.keyPem + ca.certPem;
}

/**
 * Installs a CA exported from another node. Refused when it is not a usable CA (bad PEM, key not
 * matching, expired, not a CA), and when the slot holds a different CA unless `force`.
 */
export async function importCa(
  stateDir: string,
  pem: string,
  options: { slot?: CaSlot; force?: boolean; now?: Date } = {},
): Promise<CaSummary> {
  const slot = options.slot ?? 'current';
  const ca = splitKeyAndCerts(pem);
  if (!ca)
    throw new CaFileError('the file must hold the CA private key and certificate (the output of `hookgate ca export`)');
  if (certificatesOf(ca.certPem).length !== 1)
    throw new CaFileError('the file must hold exactly one certificate: the CA itself');
  const check = inspectCertificateAuthority(ca, options.now ?? new Date());
  if (!check.ok) throw new CaFileError(`not a usable CA: ${check.reason}`);
  return locked(stateDir, async () => {
    const existing = await readKeyAndCert(slotPaths(stateDir, slot).pair);
    if (existing && existing.certPem !== ca.certPem && !options.force)
      throw new CaFileError(
        `${slotPaths(stateDir, slot).pair} already holds another CA (${summarizeCa(existing.certPem).subject}); pass --force to replace it (the apiserver's caBundle must trust the new one first)`,
      );
    await writeSlot(stateDir, slot, ca);
    return summarizeCa(ca.certPem);
  });
}

/**
 * Rotation step 3: the next CA becomes the CA; the old CA certificate stays trusted (ca-previous.crt)
 * until `dropPreviousCa`. A running gateway sees the new CA and reissues its serving certificate.
 */
export async function promoteNextCa(stateDir: string): Promise<{ current: CaSummary; previous?: CaSummary }> {
  return locked(stateDir, async () => {
    const paths = selfManagedPaths(stateDir);
    const next = await readKeyAndCert(paths.nextCa);
    if (!next)
      throw new CaFileError(`no next CA in ${paths.nextCa}: run \`hookgate ca create --next\` (or import one) first`);
    const current = await readKeyAndCert(paths.ca);
    if (current) await writeAtomically(paths.previousCaCert, current.certPem, 0o644);
    await writeSlot(stateDir, 'current', next);
    await rm(paths.nextCa, { force: true });
    await rm(paths.nextCaCert, { force: true });
    return { current: summarizeCa(next.certPem), ...(current ? { previous: summarizeCa(current.certPem) } : {}) };
  });
}

/** Rotation step 4: the old CA is no longer trusted by the bundle. True when there was one. */
export async function dropPreviousCa(stateDir: string): Promise<boolean> {
  return locked(stateDir, async () => {
    const path = selfManagedPaths(stateDir).previousCaCert;
    const had = await stat(path).then(
      () => true,
      () => false,
    );
    await rm(path, { force: true });
    return had;
  });
}

/**
 * What the apiserver must trust (caBundle, as PEM): the CA, plus the next CA and the previous one
 * while a rotation is under way. Undefined when the state directory has no CA yet.
 */
export async function trustedCaBundle(stateDir: string): Promise<string | undefined> {
  const paths = selfManagedPaths(stateDir);
  const read = (path: string) => readFile(path, 'utf8').catch(() => '');
  const certs = [
    ...certificatesOf(await read(paths.caCert)),
    ...certificatesOf(await read(paths.nextCaCert)),
    ...certificatesOf(await read(paths.previousCaCert)),
  ];
  const unique = [...new Set(certs)];
  return unique.length === 0 ? undefined : unique.join('');
}
