/**
 * The Kubernetes CEL libraries that bring their own types (k8s-semantics §9), on @marcbachmann/cel-js:
 *   URLs    url, isURL, getScheme/getHost/getHostname/getPort/getEscapedPath/getQuery (cel-url.ts)
 *   IP      ip, isIP, ip.isCanonical, string(ip), family, isUnspecified, isLoopback,
 *           isLinkLocalMulticast, isLinkLocalUnicast, isGlobalUnicast (cel-ip.ts)
 *   CIDR    cidr, isCIDR, containsIP, containsCIDR, ip, masked, prefixLength, string(cidr)
 *   semver  semver, isSemver (both with the optional normalize flag), major, minor, patch,
 *           compareTo, isGreaterThan, isLessThan (parsing by the `semver` package, strict mode)
 *   quantity  quantity, isQuantity, sign, isInteger, asInteger, asApproximateFloat, add, sub,
 *           compareTo, isGreaterThan, isLessThan (cel-quantity.ts)
 *   format  format.<name>(), format.named(name), <format>.validate(s) (cel-format.ts)
 * Values of these types compare with == (and so !=) as in cel-go.
 */
import { Optional, type Environment } from '@marcbachmann/cel-js';
import { SemVer } from 'semver';
import {
  KubeCidr,
  KubeIp,
  cidrContainsCidr,
  cidrContainsIp,
  ipEquals,
  isGlobalUnicast,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  maskedCidr,
  parseKubeCidr,
  parseKubeIp,
  type Parsed,
} from './cel-ip.js';
import { KUBE_FORMATS, KubeFormat } from './cel-format.js';
import {
  KubeQuantity,
  addQuantities,
  compareQuantities,
  negateQuantity,
  parseKubeQuantity,
  quantityAsFloat,
  quantityAsInt64,
  quantityOfInt,
  quantitySign,
} from './cel-quantity.js';
import { KubeUrl, isKubeUrl, parseKubeUrl, urlEscapedPath, urlHostname, urlPort, urlQuery } from './cel-url.js';

/** Thrown by library functions; the evaluator reports `error.message` as the CEL error text. */
class CelTypeLibraryError extends Error {}

function valueOf<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw new CelTypeLibraryError(parsed.error);
  return parsed.value;
}

function toUrl(s: string): KubeUrl {
  const parsed = parseKubeUrl(s);
  if (!parsed.ok) throw new CelTypeLibraryError(`URL parse error during conversion from string: ${parsed.error}`);
  return parsed.url;
}

function queryOf(u: KubeUrl): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  for (const [key, values] of urlQuery(u)) out[key] = values;
  return out;
}

/** Receivers of `ip.isCanonical(...)` and `format.<name>()` (cel-js models namespaces as typed constants). */
class CelIpNamespace {}
class CelFormatNamespace {}

const toIp = (s: string): KubeIp => valueOf(parseKubeIp(s));
const toCidr = (s: string): KubeCidr => valueOf(parseKubeCidr(s));

/** The `semver` package refuses longer versions; checked first, since the text may come from an object. */
const SEMVER_MAX_LENGTH = 256;

/** Strict SemVer 2.0 as blang/semver parses it: no `v` prefix, no whitespace, no leading zeros. */
function parseSemver(s: string, normalize: boolean): Parsed<SemVer> {
  if (s.length > SEMVER_MAX_LENGTH)
    return { ok: false, error: `could not parse semver: longer than ${SEMVER_MAX_LENGTH} characters` };
  const text = normalize ? normalizeSemver(s) : s;
  if (/^[0-9]/.test(text) && text.trim() === text) {
    try {
      return { ok: true, value: new SemVer(text) };
    } catch {
      // fall through to the error below
    }
  }
  return { ok: false, error: `could not parse semver: ${JSON.stringify(s)}` };
}

/** The library's normalization: drop a leading `v`, fill a missing minor/patch, drop leading zeros. */
function normalizeSemver(s: string): string {
  const body = s.startsWith('v') ? s.slice(1) : s;
  const cut = body.search(/[-+]/);
  const core = cut < 0 ? body : body.slice(0, cut);
  const rest = cut < 0 ? '' : body.slice(cut);
  const parts = core.split('.');
  if (parts.length > 3 || !parts.every((p) => /^[0-9]+$/.test(p))) return s;
  while (parts.length < 3) parts.push('0');
  return `${parts.map((p) => p.replace(/^0+(?=\d)/, '')).join('.')}${rest}`;
}

const toSemver = (s: string, normalize = false): SemVer => valueOf(parseSemver(s, normalize));

const toQuantity = (s: string): KubeQuantity => valueOf(parseKubeQuantity(s));

function asInteger(q: KubeQuantity): bigint {
  const value = quantityAsInt64(q);
  if (value === undefined) throw new CelTypeLibraryError('cannot convert value to integer');
  return value;
}

export function registerKubernetesTypeLibraries(env: Environment): Environment {
  env
    .registerType('kubernetes.URL', KubeUrl)
    .registerFunction('url(string): kubernetes.URL', toUrl)
    .registerFunction('isURL(string): bool', isKubeUrl)
    .registerFunction('kubernetes.URL.getScheme(): string', (u: KubeUrl) => u.scheme)
    .registerFunction('kubernetes.URL.getHost(): string', (u: KubeUrl) => u.host)
    .registerFunction('kubernetes.URL.getHostname(): string', urlHostname)
    .registerFunction('kubernetes.URL.getPort(): string', urlPort)
    .registerFunction('kubernetes.URL.getEscapedPath(): string', urlEscapedPath)
    .registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', queryOf)

    .registerType('net.IP', KubeIp)
    .registerFunction('ip(string): net.IP', toIp)
    .registerFunction('isIP(string): bool', (s: string) => parseKubeIp(s).ok)
    .registerType('net.IPNamespace', CelIpNamespace)
    .registerConstant('ip', 'net.IPNamespace', new CelIpNamespace())
    .registerFunction('net.IPNamespace.isCanonical(string): bool', (_: unknown, s: string) => toIp(s).toString() === s)
    .registerFunction('string(net.IP): string', (ip: KubeIp) => ip.toString())
    .registerFunction('net.IP.family(): int', (ip: KubeIp) => BigInt(ip.family))
    .registerFunction('net.IP.isUnspecified(): bool', isUnspecified)
    .registerFunction('net.IP.isLoopback(): bool', isLoopback)
    .registerFunction('net.IP.isLinkLocalMulticast(): bool', isLinkLocalMulticast)
    .registerFunction('net.IP.isLinkLocalUnicast(): bool', isLinkLocalUnicast)
    .registerFunction('net.IP.isGlobalUnicast(): bool', isGlobalUnicast)
    .registerOperator('net.IP == net.IP', ipEquals)

    .registerType('net.CIDR', KubeCidr)
    .registerFunction('cidr(string): net.CIDR', toCidr)
    .registerFunction('isCIDR(string): bool', (s: string) => parseKubeCidr(s).ok)
    .registerFunction('string(net.CIDR): string', (c: KubeCidr) => c.toString())
    .registerFunction('net.CIDR.containsIP(net.IP): bool', cidrContainsIp)
    .registerFunction('net.CIDR.containsIP(string): bool', (c: KubeCidr, s: string) => cidrContainsIp(c, toIp(s)))
    .registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', cidrContainsCidr)
    .registerFunction('net.CIDR.containsCIDR(string): bool', (c: KubeCidr, s: string) => cidrContainsCidr(c, toCidr(s)))
    .registerFunction('net.CIDR.ip(): net.IP', (c: KubeCidr) => c.ip)
    .registerFunction('net.CIDR.masked(): net.CIDR', maskedCidr)
    .registerFunction('net.CIDR.prefixLength(): int', (c: KubeCidr) => BigInt(c.bits))
    .registerOperator('net.CIDR == net.CIDR', (a: KubeCidr, b: KubeCidr) => a.bits === b.bits && ipEquals(a.ip, b.ip))

    .registerType('kubernetes.Semver', SemVer)
    .registerFunction('semver(string): kubernetes.Semver', (s: string) => toSemver(s))
    .registerFunction('semver(string, bool): kubernetes.Semver', toSemver)
    .registerFunction('isSemver(string): bool', (s: string) => parseSemver(s, false).ok)
    .registerFunction('isSemver(string, bool): bool', (s: string, normalize: boolean) => parseSemver(s, normalize).ok)
    .registerFunction('kubernetes.Semver.major(): int', (v: SemVer) => BigInt(v.major))
    .registerFunction('kubernetes.Semver.minor(): int', (v: SemVer) => BigInt(v.minor))
    .registerFunction('kubernetes.Semver.patch(): int', (v: SemVer) => BigInt(v.patch))
    .registerFunction('kubernetes.Semver.compareTo(kubernetes.Semver): int', (a: SemVer, b: SemVer) =>
      BigInt(a.compare(b)),
    )
    .registerFunction(
      'kubernetes.Semver.isGreaterThan(kubernetes.Semver): bool',
      (a: SemVer, b: SemVer) => a.compare(b) > 0,
    )
    .registerFunction(
      'kubernetes.Semver.isLessThan(kubernetes.Semver): bool',
      (a: SemVer, b: SemVer) => a.compare(b) < 0,
    )
    .registerOperator('kubernetes.Semver == kubernetes.Semver', (a: SemVer, b: SemVer) => a.compare(b) === 0)

    .registerType('kubernetes.Quantity', KubeQuantity)
    .registerFunction('quantity(string): kubernetes.Quantity', toQuantity)
    .registerFunction('isQuantity(string): bool', (s: string) => parseKubeQuantity(s).ok)
    .registerFunction('kubernetes.Quantity.sign(): int', (q: KubeQuantity) => BigInt(quantitySign(q)))
    .registerFunction('kubernetes.Quantity.isInteger(): bool', (q: KubeQuantity) => quantityAsInt64(q) !== undefined)
    .registerFunction('kubernetes.Quantity.asInteger(): int', asInteger)
    .registerFunction('kubernetes.Quantity.asApproximateFloat(): double', quantityAsFloat)
    .registerFunction('kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity', addQuantities)
    .registerFunction('kubernetes.Quantity.add(int): kubernetes.Quantity', (q: KubeQuantity, n: bigint) =>
      addQuantities(q, quantityOfInt(n)),
    )
    .registerFunction(
      'kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity',
      (a: KubeQuantity, b: KubeQuantity) => addQuantities(a, negateQuantity(b)),
    )
    .registerFunction('kubernetes.Quantity.sub(int): kubernetes.Quantity', (q: KubeQuantity, n: bigint) =>
      addQuantities(q, quantityOfInt(-n)),
    )
    .registerFunction('kubernetes.Quantity.compareTo(kubernetes.Quantity): int', (a: KubeQuantity, b: KubeQuantity) =>
      BigInt(compareQuantities(a, b)),
    )
    .registerFunction(
      'kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool',
      (a: KubeQuantity, b: KubeQuantity) => compareQuantities(a, b) > 0,
    )
    .registerFunction(
      'kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool',
      (a: KubeQuantity, b: KubeQuantity) => compareQuantities(a, b) < 0,
    )
    .registerOperator(
      'kubernetes.Quantity == kubernetes.Quantity',
      (a: KubeQuantity, b: KubeQuantity) => compareQuantities(a, b) === 0,
    )

    .registerType('kubernetes.Format', KubeFormat)
    .registerType('kubernetes.FormatNamespace', CelFormatNamespace)
    .registerConstant('format', 'kubernetes.FormatNamespace', new CelFormatNamespace())
    .registerFunction(
      'kubernetes.FormatNamespace.named(string): optional<kubernetes.Format>',
      (_: unknown, name: string) => Optional.of(KUBE_FORMATS.get(name)),
    )
    .registerFunction('kubernetes.Format.validate(string): optional<list<string>>', (f: KubeFormat, value: string) => {
      const problems = f.validate(value);
      return problems.length === 0 ? Optional.none() : Optional.of(problems);
    });
  for (const [name, format] of KUBE_FORMATS)
    env.registerFunction(`kubernetes.FormatNamespace.${name}(): kubernetes.Format`, () => format);
  return env;
}
