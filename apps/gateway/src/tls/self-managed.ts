/**
 * The self-managed certificate in the state directory:
 *
 *   <stateDir>/tls/ca.pem       CA key + certificate (0600)
 *   <stateDir>/tls/ca.crt       CA certificate only: what `hookgate print-webhooks` puts in caBundle
 *   <stateDir>/tls/serving.pem  serving key + certificate (0600), one file so readers never see a
 *                               new key with an old certificate
 *
 * Created on first start, reused while valid, the serving certificate reissued once 2/3 of its
 * lifetime has passed. The CA lives ten years and is replaced only when it is unusable, because
 * a new CA means a new caBundle in the apiserver's webhook configuration.
 * Writes are atomic (temp file + rename) and happen under a lock file, so every worker may call this.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentLog } from '@hookgate/observability';
import { createCertificateAuthority, issueServingCertificate } from './certificate-authority.js';
import type { KeyAndCert } from './certificate-authority.js';
import { withFileLock } from './file-lock.js';
import {
  inspectCertificateAuthority,
  inspectServingCertificate,
  renewalTime,
  validityOf,
} from './inspect-certificate.js';
import { splitKeyAndCerts } from './pem.js';

const DAY_MS = 24 * 3600_000;

export interface SelfManagedOptions {
  readonly stateDir: string;
  /** Injected clock for tests. */
  readonly now?: () => Date;
  readonly caLifetimeDays?: number;
  readonly servingLifetimeDays?: number;
  readonly log?: Pick<ComponentLog, 'info' | 'warn'>;
  /**
   * The CA this process already serves with. If its files vanish while the gateway runs, they are
   * written back from it: a new CA would break every apiserver whose caBundle holds this one.
   */
  readonly knownCa?: KeyAndCert;
}

export interface SelfManagedMaterial {
  readonly key: string;
  readonly cert: string;
  readonly ca: string;
  readonly notAfter: Date;
  /** When the serving certificate should be reissued. */
  readonly renewAt: Date;
  /** The CA with its key, to pass back as knownCa. */
  readonly caPair: KeyAndCert;
}

export function selfManagedPaths(stateDir: string) {
  const dir = join(stateDir, 'tls');
  return {
    dir,
    ca: join(dir, 'ca.pem'),
    caCert: join(dir, 'ca.crt'),
    serving: join(dir, 'serving.pem'),
    lock: join(dir, '.lock'),
    /** CA rotation (ca-files.ts): the next CA, trusted but not serving yet, and the retired one, still trusted. */
    nextCa: join(dir, 'ca-next.pem'),
    nextCaCert: join(dir, 'ca-next.crt'),
    previousCaCert: join(dir, 'ca-previous.crt'),
  };
}

/** Reads, creates or renews the self-managed CA and serving certificate; returns what to serve. */
export async function ensureSelfManagedCertificates(options: SelfManagedOptions): Promise<SelfManagedMaterial> {
  const now = (options.now ?? (() => new Date()))();
  const paths = selfManagedPaths(options.stateDir);
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  return withFileLock(paths.lock, async () => {
    let ca = await readKeyAndCert(paths.ca);
    if (!ca && options.knownCa && inspectCertificateAuthority(options.knownCa, now).ok) {
      ca = options.knownCa;
      await writeAtomically(paths.ca, ca.keyPem + ca.certPem, 0o600);
      await writeAtomically(paths.caCert, ca.certPem, 0o644);
      options.log?.warn(
        { file: paths.ca },
        'the gateway CA files were missing; restored them from the CA in use, so the apiserver caBundle stays valid',
      );
    }
    const caCheck = ca ? inspectCertificateAuthority(ca, now) : { ok: false as const, reason: 'no CA yet' };
    if (!ca || !caCheck.ok) {
      if (ca)
        options.log?.warn(
          { reason: caCheck.ok ? '' : caCheck.reason, file: paths.ca },
          'replacing the gateway CA: run `hookgate print-webhooks` and apply the new caBundle to the apiserver',
        );
      ca = await createCertificateAuthority(now, (options.caLifetimeDays ?? 3650) * DAY_MS);
      await writeAtomically(paths.ca, ca.keyPem + ca.certPem, 0o600);
      await writeAtomically(paths.caCert, ca.certPem, 0o644);
      options.log?.info({ file: paths.caCert }, 'created the gateway CA');
    }
    let serving = await readKeyAndCert(paths.serving);
    const servingCheck = serving
      ? inspectServingCertificate(serving, ca.certPem, now)
      : { ok: false as const, reason: 'no serving certificate yet' };
    if (!serving || !servingCheck.ok) {
      serving = await issueServingCertificate(ca, now, (options.servingLifetimeDays ?? 90) * DAY_MS);
      await writeAtomically(paths.serving, serving.keyPem + serving.certPem, 0o600);
      const validity = validityOf(serving.certPem);
      options.log?.info(
        { reason: servingCheck.ok ? '' : servingCheck.reason, notAfter: validity.notAfter.toISOString() },
        'issued the serving certificate',
      );
    }
    const validity = validityOf(serving.certPem);
    return {
      key: serving.keyPem,
      cert: serving.certPem,
      ca: ca.certPem,
      notAfter: validity.notAfter,
      renewAt: renewalTime(validity),
      caPair: ca,
    };
  });
}

export async function readKeyAndCert(path: string): Promise<KeyAndCert | undefined> {
  try {
    return splitKeyAndCerts(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function writeAtomically(path: string, content: string, mode: number): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, content, { mode });
  await chmod(temp, mode); // the umask may have narrowed or the file pre-existed
  await rename(temp, path);
}
