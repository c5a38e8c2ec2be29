/**
 * One keep-alive undici Pool per (origin, server name, CA bundle): connections to a bridge hook stay
 * warm across requests, and two hooks on the same origin with different CA bundles or names to
 * verify (services resolved to one address) never share a TLS session.
 */
import { createSecureContext } from 'node:tls';
import { Pool } from 'undici';

export interface ClientPoolOptions {
  /** Connections per origin (the apiserver's client has no limit; keep-alive matters more). */
  readonly connections: number;
  readonly keepAliveTimeoutMs: number;
}

export type PoolResult = { ok: true; pool: Pool } | { ok: false; error: string };

export class ClientPools {
  /**
   * By CA bundle, then `origin\0servername`: the bundle (kilobytes of base64, the same string
   * instance on every call of a hook) is a key of its own, so a call never builds and hashes a
   * new long string to find its pool.
   */
  readonly #pools = new Map<string, Map<string, Pool>>();
  readonly #options: ClientPoolOptions;

  constructor(options: ClientPoolOptions) {
    this.#options = options;
  }

  /** The pool for an endpoint; a caBundle that holds no PEM certificate is a client construction error. */
  poolFor(origin: string, servername: string, caBundle: string): PoolResult {
    const key = `${origin}\u0000${servername}`;
    const existing = this.#pools.get(caBundle)?.get(key);
    if (existing) return { ok: true, pool: existing };
    const ca = decodeCaBundle(caBundle);
    if (ca === null) return { ok: false, error: 'unable to load root certificates: caBundle holds no PEM certificate' };
    const pool = new Pool(origin, {
      connections: this.#options.connections,
      keepAliveTimeout: this.#options.keepAliveTimeoutMs,
      pipelining: 1,
      connect: {
        // One secure context per pool: given `ca` instead, every new connection would parse the bundle again.
        ...(ca === undefined ? {} : { secureContext: createSecureContext({ ca }) }),
        servername: isIpAddress(servername) ? undefined : servername,
        rejectUnauthorized: true,
      },
    });
    let byEndpoint = this.#pools.get(caBundle);
    if (byEndpoint === undefined) {
      byEndpoint = new Map();
      this.#pools.set(caBundle, byEndpoint);
    }
    byEndpoint.set(key, pool);
    return { ok: true, pool };
  }

  /**
   * Closes the pool of an endpoint no longer used (a Service that moved to another address):
   * requests in flight on it finish first, new ones get a new pool.
   */
  drop(origin: string, servername: string, caBundle: string): void {
    const byEndpoint = this.#pools.get(caBundle);
    const key = `${origin}\u0000${servername}`;
    const pool = byEndpoint?.get(key);
    if (byEndpoint === undefined || pool === undefined) return;
    byEndpoint.delete(key);
    if (byEndpoint.size === 0) this.#pools.delete(caBundle);
    void pool.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()].flatMap((byEndpoint) => [...byEndpoint.values()]);
    this.#pools.clear();
    await Promise.allSettled(pools.map((p) => p.close()));
  }
}

/** undefined: no bundle (system roots, as the apiserver does); null: a bundle that is not PEM. */
function decodeCaBundle(caBundle: string): string | undefined | null {
  if (caBundle === '') return undefined;
  const text = Buffer.from(caBundle, 'base64').toString('utf8');
  return text.includes('-----BEGIN CERTIFICATE-----') ? text : null;
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
