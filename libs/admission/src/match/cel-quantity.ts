/**
 * resource.Quantity for the Kubernetes CEL quantity library (k8s.io/apiserver/pkg/cel/library/
 * quantity.go): parsed as resource.ParseQuantity parses it (`<signedNumber><suffix>`, suffixes
 * n u m "" k M G T P E, Ki Mi Gi Ti Pi Ei, e<exp>/E<exp>) into an exact decimal, mantissa × 10^scale,
 * rounded up to whole nanos as ParseQuantity rounds.
 */

export class KubeQuantity {
  constructor(
    readonly mantissa: bigint,
    readonly scale: number,
  ) {}
}

export type QuantityResult = { ok: true; value: KubeQuantity } | { ok: false; error: string };

const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const DECIMAL_SI: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SI: Readonly<Record<string, bigint>> = { Ki: 1n, Mi: 2n, Gi: 3n, Ti: 4n, Pi: 5n, Ei: 6n };
const INT64_MAX = 2n ** 63n - 1n;
/** Beyond any int64 or float64 quantity: larger exponents are refused rather than computed. */
const MAX_SCALE = 400;
const MAX_DIGITS = 400;
const INT64_MIN = -(2n ** 63n);

export function parseKubeQuantity(text: string): QuantityResult {
  const match = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(text);
  const [, sign = '', whole = '', fraction = '', suffix = ''] = match ?? [];
  if (match === null || (whole === '' && fraction === '') || !/^[eEinumkKMGTP]*[-+]?[0-9]*$/.test(suffix))
    return { ok: false, error: FORMAT_WRONG };
  // A number read from an object: bound the digits, so that BigInt parsing and scaling stay cheap.
  if (whole.length + fraction.length > MAX_DIGITS) return { ok: false, error: 'quantity is too large' };
  let mantissa = BigInt(`${whole}${fraction}` || '0');
  let scale = -fraction.length;
  if (suffix in DECIMAL_SI) scale += DECIMAL_SI[suffix] as number;
  else if (suffix in BINARY_SI) mantissa *= 1024n ** (BINARY_SI[suffix] as bigint);
  else if (/^[eE][-+]?[0-9]+$/.test(suffix)) scale += Number(suffix.slice(1));
  else return { ok: false, error: "unable to parse quantity's suffix" };
  // An exponent taken from an object must not make the arithmetic below unbounded (10n ** 1e9).
  if (scale > MAX_SCALE || !Number.isFinite(scale)) return { ok: false, error: 'quantity is too large' };
  if (sign === '-') mantissa = -mantissa;
  return { ok: true, value: roundUpToNanos(new KubeQuantity(mantissa, scale)) };
}

/** Values below 1n are rounded up (away from zero), as ParseQuantity does. */
function roundUpToNanos(q: KubeQuantity): KubeQuantity {
  if (q.scale >= -9) return q;
  if (q.mantissa === 0n) return new KubeQuantity(0n, 0);
  // Far below a nano (more digits to drop than the mantissa has): the result is ±1n.
  if (-9 - q.scale > q.mantissa.toString().length) return new KubeQuantity(q.mantissa < 0n ? -1n : 1n, -9);
  const divisor = 10n ** BigInt(-9 - q.scale);
  const truncated = q.mantissa / divisor;
  const exact = truncated * divisor === q.mantissa;
  return new KubeQuantity(exact ? truncated : truncated + (q.mantissa < 0n ? -1n : 1n), -9);
}

/** Both mantissas at the smaller scale. */
function aligned(a: KubeQuantity, b: KubeQuantity): [bigint, bigint, number] {
  const scale = Math.min(a.scale, b.scale);
  return [a.mantissa * 10n ** BigInt(a.scale - scale), b.mantissa * 10n ** BigInt(b.scale - scale), scale];
}

export function compareQuantities(a: KubeQuantity, b: KubeQuantity): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function addQuantities(a: KubeQuantity, b: KubeQuantity): KubeQuantity {
  const [x, y, scale] = aligned(a, b);
  return new KubeQuantity(x + y, scale);
}

export function negateQuantity(q: KubeQuantity): KubeQuantity {
  return new KubeQuantity(-q.mantissa, q.scale);
}

export function quantityOfInt(n: bigint): KubeQuantity {
  return new KubeQuantity(n, 0);
}

export function quantitySign(q: KubeQuantity): -1 | 0 | 1 {
  return q.mantissa < 0n ? -1 : q.mantissa > 0n ? 1 : 0;
}

/** Quantity.AsInt64: the value when it is a whole number that fits an int64. */
export function quantityAsInt64(q: KubeQuantity): bigint | undefined {
  let value: bigint;
  if (q.scale >= 0) value = q.mantissa * 10n ** BigInt(q.scale);
  else {
    const divisor = 10n ** BigInt(-q.scale);
    if (q.mantissa % divisor !== 0n) return undefined;
    value = q.mantissa / divisor;
  }
  return value >= INT64_MIN && value <= INT64_MAX ? value : undefined;
}

export function quantityAsFloat(q: KubeQuantity): number {
  return Number(`${q.mantissa}e${q.scale}`);
}
