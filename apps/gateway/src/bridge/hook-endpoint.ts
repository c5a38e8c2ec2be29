/**
 * Where a bridge hook's requests go: `clientConfig.url`, or a service reference
 * (`https://<name>.<namespace>.svc:<port><path>` as the apiserver names it). Through the apiserver
 * a service reference is dialled at the address the Service resolves to (serviceEndpoint), still
 * verified against `<name>.<namespace>.svc`; without apiserver access, the name is looked up in DNS.
 * Plain http is a Hookgate extension allowed only towards loopback addresses, so admission data
 * never crosses a network unencrypted.
 */
import type { HookTarget } from '@hookgate/admission';
import { joinHostPort, type ServiceAddress } from './service-address.js';

export interface HookEndpoint {
  /** `https://host:port` or `http://127.0.0.1:port`: the key of the connection pool. */
  readonly origin: string;
  /** Path (and the url's own query, which validation normally forbids) without `?timeout=`. */
  readonly path: string;
  /** The URL as the apiserver prints it in errors, without `?timeout=`: the port as written (`:443` kept). */
  readonly url: string;
  /** `host:port` as Go's dialer names it in errors (the scheme's default port filled in). */
  readonly hostPort: string;
  readonly secure: boolean;
  /** TLS server name for certificate verification (the URL's host name). */
  readonly servername: string;
  /** base64-encoded PEM bundle from clientConfig.caBundle, '' when absent (system roots then). */
  readonly caBundle: string;
}

export type EndpointResult = { ok: true; endpoint: HookEndpoint } | { ok: false; error: string };

type ServiceTarget = Extract<HookTarget, { kind: 'service' }>;

export function resolveHookEndpoint(target: Exclude<HookTarget, { kind: 'plugin' }>): EndpointResult {
  if (target.kind === 'service') return endpointFromUrl(serviceUrl(target), target.caBundle ?? '');
  return endpointFromUrl(target.url, target.caBundle ?? '');
}

/**
 * A service reference dialled at the address the apiserver resolved it to, as kube-apiserver's
 * webhook client does: the URL (in errors) and the TLS server name stay `<name>.<namespace>.svc`,
 * only the connection goes to `address`.
 */
export function serviceEndpoint(target: ServiceTarget, address: ServiceAddress): EndpointResult {
  const named = endpointFromUrl(serviceUrl(target), target.caBundle ?? '');
  if (!named.ok) return named;
  const hostPort = joinHostPort(address.host, address.port);
  return {
    ok: true,
    endpoint: {
      ...named.endpoint,
      origin: `https://${hostPort}`,
      hostPort,
      servername: serviceHost(target),
    },
  };
}

/** The port a service reference names: 443 when the configuration leaves it out. */
export const servicePort = (target: ServiceTarget): number => (target.port > 0 ? target.port : 443);

const serviceHost = (target: ServiceTarget): string => `${target.name}.${target.namespace}.svc`;

function serviceUrl(target: ServiceTarget): string {
  const path = target.path === '' ? '/' : target.path;
  return `https://${serviceHost(target)}:${servicePort(target)}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The authority of an absolute URL, as written (webhook URLs carry no user info). */
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/;

function endpointFromUrl(raw: string, caBundle: string): EndpointResult {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { ok: false, error: `invalid url "${raw}"` };
  }
  const secure = parsed.protocol === 'https:';
  if (!secure && parsed.protocol !== 'http:') {
    return { ok: false, error: `unsupported url scheme "${parsed.protocol}" in "${raw}"` };
  }
  if (!secure && !isLoopbackHost(parsed.hostname)) {
    return { ok: false, error: `plain http is allowed only to loopback addresses, not "${parsed.hostname}"` };
  }
  const path = `${parsed.pathname || '/'}${parsed.search}`;
  // WHATWG URLs drop a default port (`https://x:443` → `https://x`); Go prints the host as written.
  const authority = AUTHORITY.exec(raw)?.[1] ?? parsed.host;
  return {
    ok: true,
    endpoint: {
      origin: parsed.origin,
      path,
      url: `${parsed.protocol}//${authority}${path}`,
      hostPort: `${parsed.hostname}:${parsed.port || (secure ? '443' : '80')}`,
      secure,
      servername: parsed.hostname.replace(/^\[|\]$/g, ''),
      caBundle,
    },
  };
}

/** 127.0.0.0/8, ::1 and localhost: the addresses a plain-http bridge hook may use. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (host.startsWith('::ffff:')) return isLoopbackHost(host.slice('::ffff:'.length));
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/** The `?timeout=` parameter as the apiserver formats it (a Go duration of whole seconds). */
export function withTimeoutQuery(path: string, timeoutSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(timeoutSeconds));
  const duration = seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
  return `${path}${path.includes('?') ? '&' : '?'}timeout=${duration}`;
}
