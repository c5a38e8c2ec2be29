/**
 * Base64 as Go's encoding/json reads and writes []byte fields (base64.StdEncoding): padded,
 * `\r` and `\n` skipped, and the same `illegal base64 data at input byte N` error, so a hook's
 * bad `response.patch` is reported as the apiserver reports it. Pure code: no Buffer, no atob.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = 0x3d; // '='
const CR = 0x0d;
const LF = 0x0a;

const DECODE_MAP: Int16Array = (() => {
  const map = new Int16Array(256).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) map[ALPHABET.charCodeAt(i)] = i;
  return map;
})();

export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + '=';
  }
  return out;
}

export const encodeBase64Text = (text: string): string => encodeBase64(new TextEncoder().encode(text));

export type Base64Result = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

const corrupt = (offset: number): Base64Result => ({ ok: false, error: `illegal base64 data at input byte ${offset}` });

/** A port of base64.StdEncoding.Decode (decodeQuantum), over the UTF-8 bytes of `text`. */
export function decodeBase64(text: string): Base64Result {
  const src = new TextEncoder().encode(text);
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return { ok: true, bytes: Uint8Array.from(out) };
        // With padding required, a quantum may not end early.
        return corrupt(si - j);
      }
      const ch = src[si]!;
      si++;
      const v = DECODE_MAP[ch]!;
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (ch === LF || ch === CR) {
        j--;
        continue;
      }
      if (ch !== PAD) return corrupt(si - 1);
      // Padding: only after two or three data characters.
      if (j === 0 || j === 1) return corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== PAD) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
      if (si < src.length) return corrupt(si);
      dlen = j;
      break;
    }
    const n = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    if (dlen >= 2) out.push((n >> 16) & 0xff);
    if (dlen >= 3) out.push((n >> 8) & 0xff);
    if (dlen >= 4) out.push(n & 0xff);
    if (dlen < 4) break;
  }
  return { ok: true, bytes: Uint8Array.from(out) };
}

/** Decoded bytes as text (Go keeps bytes; invalid UTF-8 becomes U+FFFD here, which JSON decoding would reject anyway). */
export function decodeBase64Text(text: string): { ok: true; text: string } | { ok: false; error: string } {
  const r = decodeBase64(text);
  return r.ok ? { ok: true, text: new TextDecoder().decode(r.bytes) } : r;
}
