/**
 * The Kubernetes CEL URL library (k8s.io/apiserver/pkg/cel/library/urls.go): `url(string)`,
 * `isURL(string)` and the accessors of `kubernetes.URL`. Parsing follows Go's net/url as the
 * library uses it: `url.ParseRequestURI` decides validity (an absolute URI or an absolute path; no
 * fragment split), `url.Parse` gives the parts. Not WHATWG URL: it lower-cases hosts, resolves dot
 * segments and re-encodes paths, which Go does not.
 */

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
  const check = goParse(raw, true);
  if (!check.ok) return check;
  return goParse(withoutFragment(raw), false);
}

export function isKubeUrl(raw: string): boolean {
  return goParse(raw, true).ok;
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
  return path === undefined ? u.rawPath : escapePath(path);
}

/** Go's URL.Query: `a=1&a=2&b` → {a: [1, 2], b: ['']}; malformed pairs are dropped, as Go drops them. */
export function urlQuery(u: KubeUrl): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = unescape(eq < 0 ? pair : pair.slice(0, eq), 'query');
    const value = unescape(eq < 0 ? '' : pair.slice(eq + 1), 'query');
    if (key === undefined || value === undefined) continue;
    const values = out.get(key);
    if (values === undefined) out.set(key, [value]);
    else values.push(value);
  }
  return out;
}

// --- Go's url.parse ---

function goParse(raw: string, viaRequest: boolean): UrlResult {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) return fail('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) return fail('empty url');
  if (raw === '*') return { ok: true, url: new KubeUrl('', '', '*', '') };
  const schemeEnd = schemeLength(raw);
  if (schemeEnd === -1) return fail('missing protocol scheme');
  const scheme = raw.slice(0, schemeEnd).toLowerCase();
  let rest = schemeEnd === 0 ? raw : raw.slice(schemeEnd + 1);
  let rawQuery = '';
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else if (rest.includes('?')) [rest, rawQuery] = [rest.slice(0, rest.indexOf('?')), rest.slice(rest.indexOf('?') + 1)];
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { ok: true, url: new KubeUrl(scheme, '', '', rawQuery) }; // opaque
    if (viaRequest) return fail('invalid URI for request');
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) return fail('first path segment in URL cannot contain colon');
  }
  let host = '';
  if ((scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    const afterSlashes = rest.slice(2);
    const end = afterSlashes.indexOf('/');
    const authority = end < 0 ? afterSlashes : afterSlashes.slice(0, end);
    rest = end < 0 ? '' : afterSlashes.slice(end);
    const parsedHost = parseAuthorityHost(authority);
    if (!parsedHost.ok) return parsedHost;
    host = parsedHost.host;
  }
  if (unescape(rest, 'path') === undefined) return fail(`invalid URL escape ${JSON.stringify(badEscape(rest))}`);
  return { ok: true, url: new KubeUrl(scheme, host, rest, rawQuery) };
}

/** Length of the scheme before ':', 0 when there is none, -1 for a leading ':' (Go: missing protocol scheme). */
function schemeLength(raw: string): number {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return 0;
      continue;
    }
    if (c === ':') return i === 0 ? -1 : i;
    return 0;
  }
  return 0;
}

function parseAuthorityHost(authority: string): { ok: true; host: string } | { ok: false; error: string } {
  const at = authority.lastIndexOf('@');
  const hostPart = at < 0 ? authority : authority.slice(at + 1);
  if (hostPart.startsWith('[')) {
    const close = hostPart.lastIndexOf(']');
    if (close < 0) return fail(`missing ']' in host`);
    const port = hostPart.slice(close + 1);
    if (!validOptionalPort(port)) return fail(`invalid port ${JSON.stringify(port)} after host`);
  } else {
    const colon = hostPart.lastIndexOf(':');
    if (colon >= 0 && !validOptionalPort(hostPart.slice(colon))) {
      return fail(`invalid port ${JSON.stringify(hostPart.slice(colon))} after host`);
    }
  }
  const host = unescape(hostPart, 'host');
  if (host === undefined) return fail(`invalid character in host name`);
  return { ok: true, host };
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function splitHostPort(hostPort: string): { host: string; port: string } {
  const colon = hostPort.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(hostPort.slice(colon)) && !hostPort.slice(colon).includes(']')) {
    return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
  }
  return { host: hostPort, port: '' };
}

function withoutFragment(raw: string): string {
  const hash = raw.indexOf('#');
  return hash < 0 ? raw : raw.slice(0, hash);
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

// --- Go's url.unescape / escape for the modes used here ---

type Mode = 'path' | 'host' | 'query';

/** Characters a host may hold unescaped (Go's shouldEscape in encodeHost mode). */
const HOST_OK = /[a-zA-Z0-9\-_.~!$&'()*+,;=:[\]<>"]/;

function unescape(s: string, mode: Mode): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
      continue;
    }
    if (mode === 'host' && c.charCodeAt(0) < 0x80 && !HOST_OK.test(c)) return undefined;
    if (mode === 'query' && c === '+') {
      bytes.push(0x20);
      continue;
    }
    for (const b of new TextEncoder().encode(c)) bytes.push(b);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function badEscape(s: string): string {
  const i = s.search(/%(?![0-9a-fA-F]{2})/);
  return i < 0 ? s : s.slice(i, i + 3);
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
