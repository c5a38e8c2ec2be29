/**
 * The Kubernetes CEL URL library (k8s.io/apiserver/pkg/cel/library/urls.go): `url(string)`,
 * `isURL(string)` and the accessors of `kubernetes.URL`, on Go's net/url (go-url.ts):
 * `url.ParseRequestURI` decides validity (an absolute URI or an absolute path; no fragment split),
 * `url.Parse` gives the parts.
 */
import { goParseRequestUri, goParseUrl, unescape, validOptionalPort, type GoUrl } from '../go-url.js';

/** A parsed URL, as Go's url.URL holds it (only what the accessors read). */
export class KubeUrl {
  constructor(
    readonly scheme: string,
    readonly host: string,
    /** The path as written (still escaped). */
    readonly rawPath: string,
    readonly rawQuery: string,
  ) {}
}

export type UrlResult = { ok: true; url: KubeUrl } | { ok: false; error: string };

/** url.ParseRequestURI, then url.Parse (ParseRequestURI would keep a fragment in the path). */
export function parseKubeUrl(raw: string): UrlResult {
  const check = goParseRequestUri(raw);
  if (!check.ok) return check;
  const parsed = goParseUrl(raw);
  return parsed.ok ? { ok: true, url: kubeUrlOf(parsed.url) } : parsed;
}

export function isKubeUrl(raw: string): boolean {
  return goParseRequestUri(raw).ok;
}

function kubeUrlOf(u: GoUrl): KubeUrl {
  return new KubeUrl(u.scheme, u.host, u.rawPath, u.rawQuery);
}

export function urlHostname(u: KubeUrl): string {
  const { host } = splitHostPort(u.host);
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export function urlPort(u: KubeUrl): string {
  return splitHostPort(u.host).port;
}

/** Go's URL.EscapedPath: the path as written when that is a valid encoding, else re-escaped. */
export function urlEscapedPath(u: KubeUrl): string {
  if (validEncoded(u.rawPath)) return u.rawPath;
  const path = unescape(u.rawPath, 'path');
  return path.error !== undefined ? u.rawPath : escapePath(path.value);
}

/** Go's URL.Query: `a=1&a=2&b` → {a: [1, 2], b: ['']}; malformed pairs are dropped, as Go drops them. */
export function urlQuery(u: KubeUrl): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = unescape(eq < 0 ? pair : pair.slice(0, eq), 'query');
    const value = unescape(eq < 0 ? '' : pair.slice(eq + 1), 'query');
    if (key.error !== undefined || value.error !== undefined) continue;
    const values = out.get(key.value);
    if (values === undefined) out.set(key.value, [value.value]);
    else values.push(value.value);
  }
  return out;
}

function splitHostPort(hostPort: string): { host: string; port: string } {
  const colon = hostPort.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(hostPort.slice(colon)) && !hostPort.slice(colon).includes(']')) {
    return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
  }
  return { host: hostPort, port: '' };
}

/** Go's validEncoded(s, encodePath): only characters a path may hold as written. */
function validEncoded(s: string): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (!/[a-zA-Z0-9\-_.~/]/.test(c)) return false;
  }
  return true;
}

function escapePath(path: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(path)) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && /[a-zA-Z0-9\-_.~$&+,/:;=@]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
