/**
 * One HTTP server per address a host resolves to, all on the same port: what fastify's listen did
 * for `localhost` (127.0.0.1 and ::1), for any host name. A plain `server.listen(port, 'localhost')`
 * binds one of them, and a client that picks the other is refused.
 *
 *   const addresses = await addressesOf('localhost');          // ['127.0.0.1', '::1'] on most machines
 *   const bound = await listenOnAddresses({ host: 'localhost', addresses, port: 9090 }, () => http.createServer(handler));
 *   bound.port; bound.servers; // close each
 */
import dns from 'node:dns';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListenTarget {
  /** As configured: named in errors. */
  readonly host: string;
  /** What `host` resolves to (`addressesOf`); the first one takes `port`, the others the port it got. */
  readonly addresses: readonly string[];
  /** 0: an ephemeral port, the same on every address. */
  readonly port: number;
}

export interface ListeningServers {
  readonly servers: readonly http.Server[];
  readonly port: number;
  /** The addresses bound, in the order given (an unavailable one of several is left out, see below). */
  readonly addresses: readonly string[];
}

/** Every address `host` resolves to, in the resolver's order, without repeats. An IP literal is itself. */
export async function addressesOf(host: string): Promise<string[]> {
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return [...new Set(found.map((a) => a.address))];
}

/** With port 0, another process may hold the first address's ephemeral port on a later address: pick again. */
const EPHEMERAL_ATTEMPTS = 5;

/**
 * Listens on every address, or on none: a failure closes the servers already listening and rejects
 * naming the host, the address, the port and the error code (EADDRINUSE, EACCES, …). One exception,
 * as fastify (which ignored every failure but the first address's): when the host resolves to several
 * addresses, one the machine does not have (EADDRNOTAVAIL, or EAFNOSUPPORT: ::1 in /etc/hosts on a
 * kernel booted without IPv6) is left out, as long as another address listens.
 */
export async function listenOnAddresses(
  target: ListenTarget,
  createServer: () => http.Server,
): Promise<ListeningServers> {
  if (target.addresses.length === 0) throw new Error(`${target.host} resolves to no address to listen on`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await listenOnce(target, createServer);
    } catch (error) {
      const retry = target.port === 0 && (error as ListenError).secondary === true && attempt < EPHEMERAL_ATTEMPTS;
      if (!retry) throw error;
    }
  }
}

interface ListenError extends Error {
  code?: string;
  secondary?: boolean;
}

async function listenOnce(target: ListenTarget, createServer: () => http.Server): Promise<ListeningServers> {
  const servers: http.Server[] = [];
  const addresses: string[] = [];
  let port = target.port;
  const unavailable: ListenError[] = [];
  for (const address of target.addresses) {
    const server = createServer();
    try {
      await listen(server, address, port);
    } catch (error) {
      const code = (error as ListenError).code;
      // An address this machine does not have (EADDRNOTAVAIL), or an IPv6 ::1 on a kernel without
      // IPv6 (EAFNOSUPPORT), while a name such as localhost lists others: serve on those.
      if ((code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT') && target.addresses.length > 1) {
        unavailable.push(error as ListenError);
        continue;
      }
      await Promise.all(servers.map(closeNow));
      const failure: ListenError = new Error(
        `cannot listen on ${target.host} port ${port}${address === target.host ? '' : ` (address ${address})`}: ${code ?? (error as Error).message}`,
        { cause: error },
      );
      failure.code = code;
      failure.secondary = servers.length > 0;
      throw failure;
    }
    servers.push(server);
    addresses.push(address);
    port = (server.address() as AddressInfo).port;
  }
  if (servers.length === 0) {
    const first = unavailable[0];
    const failure: ListenError = new Error(
      `cannot listen on ${target.host} port ${target.port}: ${first?.code ?? 'EADDRNOTAVAIL'} for every address (${target.addresses.join(', ')})`,
      { cause: first },
    );
    failure.code = first?.code ?? 'EADDRNOTAVAIL';
    throw failure;
  }
  return { servers, port, addresses };
}

function listen(server: http.Server, address: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeNow(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
