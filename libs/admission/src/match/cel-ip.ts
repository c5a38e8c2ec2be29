/**
 * IP addresses and prefixes as Go's net/netip parses and prints them, for the Kubernetes CEL IP and
 * CIDR libraries (k8s.io/apiserver/pkg/cel/library/ip.go, cidr.go). Strict: IPv4 is exactly four
 * decimal octets without leading zeros; IPv6 prints in RFC 5952 form. Zones and IPv4-mapped IPv6
 * addresses are refused, as the Kubernetes library refuses them.
 */

/** 4 bytes (IPv4) or 16 bytes (IPv6). */
export class KubeIp {
  constructor(readonly bytes: Uint8Array) {}

  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }

  toString(): string {
    return this.family === 4 ? [...this.bytes].join('.') : formatIpv6(this.bytes);
  }
}

export class KubeCidr {
  constructor(
    readonly ip: KubeIp,
    readonly bits: number,
  ) {}

  toString(): string {
    return `${this.ip.toString()}/${this.bits}`;
  }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function parseKubeIp(s: string): Parsed<KubeIp> {
  const parsed = parseAddr(s);
  if (!parsed.ok)
    return {
      ok: false,
      error: `network address parse error during conversion from string: ParseAddr(${JSON.stringify(s)}): ${parsed.error}`,
    };
  if (parsed.zone !== '') return { ok: false, error: 'IP Address with zone value is not allowed' };
  if (isV4InV6(parsed.value)) return { ok: false, error: 'IPv4-mapped IPv6 address is not allowed' };
  return { ok: true, value: parsed.value };
}

export function parseKubeCidr(s: string): Parsed<KubeCidr> {
  const slash = s.lastIndexOf('/');
  const wrap = (error: string): Parsed<KubeCidr> => ({
    ok: false,
    error: `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(s)}): ${error}`,
  });
  if (slash < 0) return wrap("no '/'");
  const addr = parseAddr(s.slice(0, slash));
  if (!addr.ok) return wrap(addr.error);
  if (addr.zone !== '') return wrap('IPv6 zones cannot be present in a prefix');
  const bitsText = s.slice(slash + 1);
  const max = addr.value.family === 4 ? 32 : 128;
  if (!/^(0|[1-9][0-9]{0,2})$/.test(bitsText) || Number(bitsText) > max)
    return wrap(`bad bits after slash: ${JSON.stringify(bitsText)}`);
  if (isV4InV6(addr.value)) return { ok: false, error: 'IPv4-mapped IPv6 address is not allowed' };
  return { ok: true, value: new KubeCidr(addr.value, Number(bitsText)) };
}

export function ipEquals(a: KubeIp, b: KubeIp): boolean {
  return a.bytes.length === b.bytes.length && a.bytes.every((x, i) => x === b.bytes[i]);
}

/** The prefix with the host bits cleared (netip.Prefix.Masked). */
export function maskedCidr(c: KubeCidr): KubeCidr {
  const bytes = c.ip.bytes.slice();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, c.bits - i * 8));
    bytes[i] = (bytes[i] as number) & ((0xff << (8 - keep)) & 0xff);
  }
  return new KubeCidr(new KubeIp(bytes), c.bits);
}

export function cidrContainsIp(c: KubeCidr, ip: KubeIp): boolean {
  if (ip.family !== c.ip.family) return false;
  return ipEquals(maskedCidr(c).ip, maskedCidr(new KubeCidr(ip, c.bits)).ip);
}

export function cidrContainsCidr(c: KubeCidr, other: KubeCidr): boolean {
  return c.bits <= other.bits && cidrContainsIp(c, other.ip);
}

// --- netip.Addr properties ---

export function isUnspecified(ip: KubeIp): boolean {
  return ip.bytes.every((b) => b === 0);
}

export function isLoopback(ip: KubeIp): boolean {
  const b = ip.bytes;
  return ip.family === 4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
}

export function isLinkLocalMulticast(ip: KubeIp): boolean {
  const b = ip.bytes;
  return ip.family === 4
    ? b[0] === 224 && b[1] === 0 && b[2] === 0
    : b[0] === 0xff && ((b[1] as number) & 0x0f) === 0x02;
}

export function isLinkLocalUnicast(ip: KubeIp): boolean {
  const b = ip.bytes;
  return ip.family === 4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && ((b[1] as number) & 0xc0) === 0x80;
}

export function isGlobalUnicast(ip: KubeIp): boolean {
  const b = ip.bytes;
  if (ip.family === 4 && b.every((x) => x === 0xff)) return false;
  const multicast = ip.family === 4 ? ((b[0] as number) & 0xf0) === 0xe0 : b[0] === 0xff;
  return !isUnspecified(ip) && !isLoopback(ip) && !multicast && !isLinkLocalUnicast(ip);
}

// --- parsing (netip.ParseAddr) ---

type AddrResult = { ok: true; value: KubeIp; zone: string } | { ok: false; error: string };

function parseAddr(s: string): AddrResult {
  if (s.includes(':')) return parseIpv6(s);
  if (s.includes('.')) {
    const v4 = parseIpv4(s);
    return v4.ok ? { ok: true, value: new KubeIp(v4.bytes), zone: '' } : v4;
  }
  return { ok: false, error: 'unable to parse IP' };
}

function parseIpv4(s: string): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  const parts = s.split('.');
  if (parts.length !== 4)
    return { ok: false, error: parts.length < 4 ? 'IPv4 address too short' : 'IPv4 address too long' };
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!/^[0-9]{1,3}$/.test(part)) return { ok: false, error: `unexpected character` };
    if (part.length > 1 && part.startsWith('0')) return { ok: false, error: 'IPv4 field has octet with leading zero' };
    if (Number(part) > 255) return { ok: false, error: 'IPv4 field has value >255' };
    bytes[i] = Number(part);
  }
  return { ok: true, bytes };
}

function parseIpv6(input: string): AddrResult {
  let s = input;
  let zone = '';
  const percent = s.indexOf('%');
  if (percent >= 0) {
    zone = s.slice(percent + 1);
    s = s.slice(0, percent);
    if (zone === '') return { ok: false, error: 'zone must be a non-empty string' };
  }
  const bytes = new Uint8Array(16);
  let ellipsis = -1;
  let i = 0;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return { ok: true, value: new KubeIp(bytes), zone };
  }
  while (i < 16) {
    const group = /^[0-9a-fA-F]{1,4}/.exec(s)?.[0];
    if (group === undefined) return { ok: false, error: 'each colon-separated field must have at least one digit' };
    if (s[group.length] === '.') {
      // An embedded IPv4 address: the last 32 bits.
      if (ellipsis < 0 && i !== 12)
        return { ok: false, error: 'embedded IPv4 address must replace the final 2 fields of the address' };
      if (i + 4 > 16)
        return { ok: false, error: 'too many hex fields to fit an embedded IPv4 at the end of the address' };
      const v4 = parseIpv4(s);
      if (!v4.ok) return v4;
      bytes.set(v4.bytes, i);
      i += 4;
      s = '';
      break;
    }
    if (group.length > 4) return { ok: false, error: 'each colon-separated field must have at most 4 hex digits' };
    const value = parseInt(group, 16);
    bytes[i] = value >> 8;
    bytes[i + 1] = value & 0xff;
    i += 2;
    s = s.slice(group.length);
    if (s === '') break;
    if (s[0] !== ':') return { ok: false, error: 'unexpected character, want colon' };
    if (s.length === 1) return { ok: false, error: 'colon must be followed by more characters' };
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return { ok: false, error: 'multiple :: in address' };
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') return { ok: false, error: 'trailing garbage after address' };
  if (i < 16) {
    if (ellipsis < 0) return { ok: false, error: 'address string too short' };
    const n = 16 - i;
    bytes.copyWithin(ellipsis + n, ellipsis, i);
    bytes.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    return { ok: false, error: 'the :: must expand to at least one field of zeros' };
  }
  return { ok: true, value: new KubeIp(bytes), zone };
}

function isV4InV6(ip: KubeIp): boolean {
  const b = ip.bytes;
  return ip.family === 6 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** RFC 5952: lower-case hex, the longest run of two or more zero groups (the first on a tie) as `::`. */
function formatIpv6(bytes: Uint8Array): string {
  const groups = Array.from({ length: 8 }, (_, g) => ((bytes[2 * g] as number) << 8) | (bytes[2 * g + 1] as number));
  let bestStart = -1;
  let bestLength = 0;
  for (let g = 0; g < 8;) {
    if (groups[g] !== 0) {
      g++;
      continue;
    }
    let end = g;
    while (end < 8 && groups[end] === 0) end++;
    if (end - g > bestLength && end - g >= 2) [bestStart, bestLength] = [g, end - g];
    g = end;
  }
  if (bestStart < 0) return groups.map((x) => x.toString(16)).join(':');
  const head = groups
    .slice(0, bestStart)
    .map((x) => x.toString(16))
    .join(':');
  const tail = groups
    .slice(bestStart + bestLength)
    .map((x) => x.toString(16))
    .join(':');
  return `${head}::${tail}`;
}
