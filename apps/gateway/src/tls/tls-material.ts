/**
 * The admission listener's TLS material, kept current without a restart: the self-managed
 * certificate (renewed on a timer) or the operator's files, plus the optional client CA, all
 * reloaded when their files change. Servers apply changes with `server.setSecureContext`.
 *
 *   const tls = await openTlsMaterial({ stateDir, certFile, keyFile, clientCAFile, log });
 *   const server = https.createServer(httpsServerOptions(tls.current()), handler);
 *   tls.onChange((m) => server.setSecureContext(secureContextOptions(m)));
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { ComponentLog } from '@hookgate/observability';
import { readClientCa, readOperatorFiles } from './operator-files.js';
import { ensureSelfManagedCertificates, selfManagedPaths } from './self-managed.js';
import type { KeyAndCert } from './certificate-authority.js';

export interface TlsMaterial {
  readonly key: string;
  readonly cert: string;
  /** PEM of the CA the apiserver must trust (caBundle); undefined when unknown (operator chain without issuer). */
  readonly ca?: string;
  /** PEM of the CA that signs the apiserver's client certificates, when client-certificate auth is on. */
  readonly clientCA?: string;
  readonly notAfter: Date;
  readonly origin: 'self-managed' | 'operator';
}

export interface TlsMaterialSource {
  current(): TlsMaterial;
  onChange(listener: (material: TlsMaterial) => void): () => void;
  /** Re-read the files and renew when due; what the timer and the file watcher call. True when the material changed. */
  refresh(): Promise<boolean>;
  /** Stops the timer and watchers and waits for a refresh in progress. */
  close(): Promise<void>;
}

export interface TlsSourceOptions {
  readonly stateDir: string;
  /** Operator-provided serving certificate (with its chain) and key; both or neither. */
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly clientCAFile?: string;
  readonly now?: () => Date;
  /** How often to check for renewal. Default one hour; 0 turns the timer off (tests call refresh()). */
  readonly checkIntervalMs?: number;
  /** Watch the files for changes. Default true. */
  readonly watch?: boolean;
  readonly debounceMs?: number;
  readonly servingLifetimeDays?: number;
  readonly caLifetimeDays?: number;
  readonly log?: Pick<ComponentLog, 'info' | 'warn'>;
}

export async function openTlsMaterial(options: TlsSourceOptions): Promise<TlsMaterialSource> {
  if ((options.certFile === undefined) !== (options.keyFile === undefined)) {
    throw new Error('admission.tls.certFile and admission.tls.keyFile go together: set both or neither');
  }
  const now = options.now ?? (() => new Date());
  const operator =
    options.certFile !== undefined && options.keyFile !== undefined
      ? { certFile: options.certFile, keyFile: options.keyFile }
      : undefined;
  let renewAt: Date | undefined;
  let knownCa: KeyAndCert | undefined;

  async function load(): Promise<TlsMaterial> {
    const clientCA = options.clientCAFile !== undefined ? await readClientCa(options.clientCAFile) : undefined;
    if (operator) {
      const m = await readOperatorFiles(operator.certFile, operator.keyFile);
      return { ...m, clientCA, origin: 'operator' };
    }
    const m = await ensureSelfManagedCertificates({ ...options, now, ...(knownCa ? { knownCa } : {}) });
    renewAt = m.renewAt;
    knownCa = m.caPair;
    return { key: m.key, cert: m.cert, ca: m.ca, clientCA, notAfter: m.notAfter, origin: 'self-managed' };
  }

  let material = await load();
  const listeners = new Set<(m: TlsMaterial) => void>();
  let queue: Promise<boolean> = Promise.resolve(false);
  let pending = 0;
  let closed = false;

  const refreshOnce = async (): Promise<boolean> => {
    if (closed) return false;
    let next: TlsMaterial;
    try {
      next = await load();
    } catch (err) {
      options.log?.warn(
        { error: (err as Error).message },
        'TLS files could not be reloaded; still serving the previous certificate',
      );
      return false;
    }
    if (next.key === material.key && next.cert === material.cert && next.clientCA === material.clientCA) return false;
    material = next;
    options.log?.info({ origin: next.origin, notAfter: next.notAfter.toISOString() }, 'TLS certificate reloaded');
    for (const listener of listeners) {
      try {
        listener(next);
      } catch (err) {
        options.log?.warn({ error: (err as Error).message }, 'a TLS change listener failed');
      }
    }
    return true;
  };
  // One refresh at a time: the timer and the watcher may fire together.
  const refresh = () => {
    pending += 1;
    queue = queue.then(refreshOnce, refreshOnce).finally(() => (pending -= 1));
    return queue;
  };

  const interval =
    (options.checkIntervalMs ?? 3600_000) > 0
      ? setInterval(() => {
          if (pending === 0 && (renewAt === undefined || now() >= renewAt)) void refresh();
        }, options.checkIntervalMs ?? 3600_000)
      : undefined;
  interval?.unref();

  const watchers: FSWatcher[] = [];
  let debounce: NodeJS.Timeout | undefined;
  if (options.watch ?? true) {
    // Watch directories, not files: editors and Kubernetes secret mounts replace files by rename.
    const files = operator ? [operator.certFile, operator.keyFile] : [selfManagedPaths(options.stateDir).serving];
    if (options.clientCAFile !== undefined) files.push(options.clientCAFile);
    for (const dir of new Set(files.map((f) => dirname(f)))) {
      const watcher = watch(dir, () => {
        clearTimeout(debounce);
        debounce = setTimeout(() => void refresh(), options.debounceMs ?? 100);
        debounce.unref();
      });
      watcher.on('error', (err) =>
        options.log?.warn({ dir, error: err.message }, 'stopped watching TLS files; renewal still runs on the timer'),
      );
      watchers.push(watcher);
    }
  }

  return {
    current: () => material,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh,
    async close() {
      closed = true;
      clearInterval(interval);
      clearTimeout(debounce);
      for (const w of watchers) w.close();
      listeners.clear();
      await queue.catch(() => undefined);
    },
  };
}

/** Options for https.createServer / fastify `https`: client certificates required when a client CA is set. */
export function httpsServerOptions(m: TlsMaterial) {
  return m.clientCA !== undefined
    ? { key: m.key, cert: m.cert, ca: m.clientCA, requestCert: true, rejectUnauthorized: true }
    : { key: m.key, cert: m.cert };
}

/** Options for server.setSecureContext on change. */
export function secureContextOptions(m: TlsMaterial) {
  return m.clientCA !== undefined ? { key: m.key, cert: m.cert, ca: m.clientCA } : { key: m.key, cert: m.cert };
}

/** clientConfig.caBundle: base64 of the CA PEM. */
export function caBundleOf(m: Pick<TlsMaterial, 'ca'>): string | undefined {
  return m.ca === undefined ? undefined : Buffer.from(m.ca).toString('base64');
}
