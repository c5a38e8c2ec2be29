/**
 * Go's strconv.Quote (what fmt's %q prints), so that messages quoting a hook name, a patch
 * type or an object name read exactly as the apiserver's do, even for unusual input.
 */

// strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    out += quoteRune(ch);
  }
  return out + '"';
}

function quoteRune(ch: string): string {
  if (ch === '"' || ch === '\\') return '\\' + ch;
  const cp = ch.codePointAt(0) ?? 0;
  // A lone surrogate cannot come out of Go's JSON decoder: it would have been U+FFFD.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd';
  if (PRINTABLE.test(ch)) return ch;
  const short = SHORT_ESCAPES[ch];
  if (short !== undefined) return short;
  if (cp < 0x20 || cp === 0x7f) return '\\x' + hex(cp, 2);
  if (cp < 0x10000) return '\\u' + hex(cp, 4);
  return '\\U' + hex(cp, 8);
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
