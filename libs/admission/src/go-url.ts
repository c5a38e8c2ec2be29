/**
 * Go's net/url parsing (url.Parse and url.ParseRequestURI), which the apiserver uses to validate
 * webhook URLs and the Kubernetes CEL URL library uses for `url()`/`isURL()`. Not WHATWG URL: Go
 * keeps hosts and paths as written, has its own escape rules and its own error texts.
 */
import { goQuote } from './errors/go-quote.js';

export interface GoUrl {
  /** Lower-cased. */
  readonly scheme: string;
  /** Set for `scheme:opaque` URLs (no `//` and no leading `/`). */
  readonly opaque: string;
  /** The userinfo text as written; undefined when the URL has no `@`. */
  readonly user: string | undefined;
  /** host[:port], unescaped, as url.URL.Host. */
  readonly host: string;
  /** The path as written (still escaped). */
  readonly rawPath: string;
  readonly rawQuery: string;
  readonly fragment: string;
}

/** `parse "<url>": <reason>`, as url.Error prints it. */
export type GoUrlResult = { readonly ok: true; readonly url: GoUrl } | { readonly ok: false; readonly error: string };

/** url.Parse: the fragment is cut off first, then the rest is parsed. */
export function goParseUrl(raw: string): GoUrlResult {
  const hash = raw.indexOf('#');
  const rest = hash < 0 ? raw : raw.slice(0, hash);
  const parsed = parse(rest, false);
  if (typeof parsed === 'string') return { ok: false, error: `parse ${goQuote(rest)}: ${parsed}` };
  if (hash < 0) return { ok: true, url: parsed };
  const fragment = raw.slice(hash + 1);
  const unescaped = unescape(fragment, 'fragment');
  if (unescaped.error !== undefined) return { ok: false, error: `parse ${goQuote(raw)}: ${unescaped.error}` };
  return { ok: true, url: { ...parsed, fragment } };
}

/** url.ParseRequestURI: an absolute URI or an absolute path; a `#` is not special. */
export function goParseRequestUri(raw: string): GoUrlResult {
  const parsed = parse(raw, true);
  return typeof parsed === 'string'
    ? { ok: false, error: `parse ${goQuote(raw)}: ${parsed}` }
    : { ok: true, url: parsed };
}

/** Go's url.parse; a string is the error. */
function parse(raw: string, viaRequest: boolean): GoUrl | string {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) return 'net/url: invalid control character in URL';
  if (raw === '' && viaRequest) return 'empty url';
  const url = {
    scheme: '',
    opaque: '',
    user: undefined as string | undefined,
    host: '',
    rawPath: '',
    rawQuery: '',
    fragment: '',
  };
  if (raw === '*') return { ...url, rawPath: '*' };
  const schemeEnd = schemeLength(raw);
  if (schemeEnd < 0) return 'missing protocol scheme';
  url.scheme = raw.slice(0, schemeEnd).toLowerCase();
  let rest = schemeEnd === 0 ? raw : raw.slice(schemeEnd + 1);
  const question = rest.indexOf('?');
  if (question >= 0 && question === rest.length - 1) rest = rest.slice(0, -1);
  else if (question >= 0) [rest, url.rawQuery] = [rest.slice(0, question), rest.slice(question + 1)];
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    if (viaRequest) return 'invalid URI for request';
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':'))
      return 'first path segment in URL cannot contain colon';
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    const afterSlashes = rest.slice(2);
    const slash = afterSlashes.indexOf('/');
    const authority = slash < 0 ? afterSlashes : afterSlashes.slice(0, slash);
    rest = slash < 0 ? '' : afterSlashes.slice(slash);
    const at = authority.lastIndexOf('@');
    const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (host.error !== undefined) return host.error;
    url.host = host.value;
    if (at >= 0) {
      url.user = authority.slice(0, at);
      if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(url.user)) return 'net/url: invalid userinfo';
    }
  }
  const path = unescape(rest, 'path');
  if (path.error !== undefined) return path.error;
  url.rawPath = rest;
  return url;
}

/** Length of the scheme before ':', 0 when there is none, -1 for a leading ':'. */
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

/** `""` or `:digits`, as Go's validOptionalPort. */
export function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): { value: string; error?: undefined } | { value?: undefined; error: string } {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return { error: "missing ']' in host" };
    const port = host.slice(close + 1);
    if (!validOptionalPort(port)) return { error: `invalid port ${goQuote(port)} after host` };
    const zone = host.slice(0, close).indexOf('%25');
    if (zone >= 0) {
      const parts = [
        unescape(host.slice(0, zone), 'host'),
        unescape(host.slice(zone, close), 'zone'),
        unescape(host.slice(close), 'host'),
      ];
      const failed = parts.find((p) => p.error !== undefined);
      return failed?.error !== undefined ? { error: failed.error } : { value: parts.map((p) => p.value).join('') };
    }
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !validOptionalPort(host.slice(colon)))
      return { error: `invalid port ${goQuote(host.slice(colon))} after host` };
  }
  const unescaped = unescape(host, 'host');
  return unescaped.error !== undefined ? { error: unescaped.error } : { value: unescaped.value };
}

type Mode = 'path' | 'host' | 'zone' | 'fragment' | 'query';

/** ASCII characters a host (or zone) may hold as written: Go's shouldEscape in encodeHost mode. */
const HOST_OK = /[a-zA-Z0-9\-_.~!$&'()*+,;=:[\]<>"]/;

/** Go's url.unescape; `+` is a space only in query components. */
export function unescape(
  s: string,
  mode: Mode,
): { value: string; error?: undefined } | { value?: undefined; error: string } {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < s.length;) {
    const c = String.fromCodePoint(s.codePointAt(i) as number);
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return { error: `invalid URL escape ${goQuote(s.slice(i, i + 3))}` };
      // RFC 3986: in a host, %-encoding is only for non-ASCII bytes (and %25, the zone separator).
      if (mode === 'host' && parseInt(hex[0] as string, 16) < 8 && hex !== '25')
        return { error: `invalid URL escape ${goQuote(s.slice(i, i + 3))}` };
      bytes.push(parseInt(hex, 16));
      i += 3;
      continue;
    }
    i += c.length;
    if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && !HOST_OK.test(c))
      return { error: `invalid character ${goQuote(c)} in host name` };
    if (mode === 'query' && c === '+') bytes.push(0x20);
    else for (const b of encoder.encode(c)) bytes.push(b);
  }
  return { value: new TextDecoder().decode(new Uint8Array(bytes)) };
}
