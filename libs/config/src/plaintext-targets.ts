/**
 * Which plugin targets may be called without TLS: a unix socket (its file permissions guard it) or
 * a loopback address. A host name does not count, even `localhost`: a name is not guaranteed to stay
 * on this host. The gateway's Registry refuses other plaintext registrations, and the controller
 * refuses to call published ones, so one rule holds on both sides.
 */
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether `host:port` (IPv6 in brackets) names a loopback address. */
export function isLoopbackTarget(target: string): boolean {
  const colon = target.lastIndexOf(':');
  if (colon < 0) return false;
  const host = target.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  if (family === 0) return false;
  return LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a plugin at `target` may be called in plaintext: a unix socket or a loopback address. */
export function mayCallInPlaintext(target: string): boolean {
  return target.startsWith('unix:') || isLoopbackTarget(target);
}
