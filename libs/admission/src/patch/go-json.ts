/**
 * The parts of Go's encoding/json that leak into apiserver-visible text:
 * - checkGoJsonSyntax: the scanner's syntax errors (`invalid character '}' looking for beginning of value`,
 *   `unexpected end of JSON input`), which the apiserver quotes in
 *   `received undecodable patch in webhook response: <json error>`;
 * - encodeGoString / compactGoJson: how json.Marshal writes strings and json.RawMessage
 *   (HTML-safe escapes), which shapes the mutation and patch audit-annotation values.
 * A port of the state machine in Go's encoding/json/scanner.go, over UTF-8 bytes like Go.
 */

/** Go's encoding/json rejects nesting deeper than this (`exceeded max depth`). */
export const GO_MAX_NESTING_DEPTH = 10000;
const MAX_NESTING_DEPTH = GO_MAX_NESTING_DEPTH;

type ParseState = 'objectKey' | 'objectValue' | 'arrayValue';
type Step = (c: number) => 'continue' | 'error';

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Go's quoteChar: a byte shown as a Go rune literal (`'\\''`, `'"'`, `'\\n'`, `'Ã'` for a UTF-8 lead byte). */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  return `'${quoteByteAsRune(c)}'`;
}

// strconv.Quote(string(rune(c))) without the surrounding quotes, for c in 0..255.
function quoteByteAsRune(c: number): string {
  const short: Readonly<Record<number, string>> = {
    7: '\\a',
    8: '\\b',
    9: '\\t',
    10: '\\n',
    11: '\\v',
    12: '\\f',
    13: '\\r',
  };
  const s = short[c];
  if (s !== undefined) return s;
  if (c === 0x5c) return '\\\\';
  if (c < 0x20 || c === 0x7f) return '\\x' + c.toString(16).padStart(2, '0');
  // U+0080..U+00A0 and the soft hyphen are not printable for strconv.IsPrint.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return '\\u' + c.toString(16).padStart(4, '0');
  return String.fromCharCode(c);
}

/** Scans `text` like json.Unmarshal's validity check. Returns Go's error text, or undefined when valid. */
export function checkGoJsonSyntax(text: string): string | undefined {
  const bytes = new TextEncoder().encode(text);
  const stack: ParseState[] = [];
  let error: string | undefined;
  let endTop = false;
  let step: Step;

  const fail = (c: number, context: string): 'error' => {
    error = `invalid character ${quoteChar(c)} ${context}`;
    return 'error';
  };

  const push = (c: number, state: ParseState): 'continue' | 'error' => {
    stack.push(state);
    if (stack.length > MAX_NESTING_DEPTH) return fail(c, 'exceeded max depth');
    return 'continue';
  };

  const endValue = (c: number): 'continue' | 'error' => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      endTop = true;
      step = endTopStep;
      return endTopStep(c);
    }
    if (isSpace(c)) {
      step = endValue;
      return 'continue';
    }
    if (top === 'objectKey') {
      if (c === 0x3a) {
        stack[stack.length - 1] = 'objectValue';
        step = beginValue;
        return 'continue';
      }
      return fail(c, 'after object key');
    }
    if (top === 'objectValue') {
      if (c === 0x2c) {
        stack[stack.length - 1] = 'objectKey';
        step = beginString;
        return 'continue';
      }
      if (c === 0x7d) return popAndEnd();
      return fail(c, 'after object key:value pair');
    }
    if (c === 0x2c) {
      step = beginValue;
      return 'continue';
    }
    if (c === 0x5d) return popAndEnd();
    return fail(c, 'after array element');
  };

  const popAndEnd = (): 'continue' => {
    stack.pop();
    if (stack.length === 0) {
      endTop = true;
      step = endTopStep;
    } else {
      step = endValue;
    }
    return 'continue';
  };

  const endTopStep: Step = (c) => (isSpace(c) ? 'continue' : fail(c, 'after top-level value'));

  const beginValue: Step = (c) => {
    if (isSpace(c)) return 'continue';
    switch (c) {
      case 0x7b: // {
        step = beginStringOrEmpty;
        return push(c, 'objectKey');
      case 0x5b: // [
        step = beginValueOrEmpty;
        return push(c, 'arrayValue');
      case 0x22:
        step = inString;
        return 'continue';
      case 0x2d: // -
        step = neg;
        return 'continue';
      case 0x30:
        step = zero;
        return 'continue';
      case 0x74:
        step = literal('true', 1);
        return 'continue';
      case 0x66:
        step = literal('false', 1);
        return 'continue';
      case 0x6e:
        step = literal('null', 1);
        return 'continue';
    }
    if (c >= 0x31 && c <= 0x39) {
      step = digits;
      return 'continue';
    }
    return fail(c, 'looking for beginning of value');
  };

  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return 'continue';
    if (c === 0x5d) return endValue(c);
    return beginValue(c);
  };

  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return 'continue';
    if (c === 0x7d) {
      stack[stack.length - 1] = 'objectValue';
      return endValue(c);
    }
    return beginString(c);
  };

  const beginString: Step = (c) => {
    if (isSpace(c)) return 'continue';
    if (c === 0x22) {
      step = inString;
      return 'continue';
    }
    return fail(c, 'looking for beginning of object key string');
  };

  const inString: Step = (c) => {
    if (c === 0x22) {
      step = endValue;
      return 'continue';
    }
    if (c === 0x5c) {
      step = inStringEsc;
      return 'continue';
    }
    if (c < 0x20) return fail(c, 'in string literal');
    return 'continue';
  };

  const inStringEsc: Step = (c) => {
    if ([0x62, 0x66, 0x6e, 0x72, 0x74, 0x5c, 0x2f, 0x22].includes(c)) {
      step = inString;
      return 'continue';
    }
    if (c === 0x75) {
      step = hexDigit(4);
      return 'continue';
    }
    return fail(c, 'in string escape code');
  };

  const hexDigit =
    (left: number): Step =>
    (c) => {
      if (!isHex(c)) return fail(c, 'in \\u hexadecimal character escape');
      step = left === 1 ? inString : hexDigit(left - 1);
      return 'continue';
    };

  const neg: Step = (c) => {
    if (c === 0x30) {
      step = zero;
      return 'continue';
    }
    if (c >= 0x31 && c <= 0x39) {
      step = digits;
      return 'continue';
    }
    return fail(c, 'in numeric literal');
  };

  const digits: Step = (c) => (isDigit(c) ? 'continue' : zero(c));

  const zero: Step = (c) => {
    if (c === 0x2e) {
      step = dot;
      return 'continue';
    }
    if (c === 0x65 || c === 0x45) {
      step = exponent;
      return 'continue';
    }
    return endValue(c);
  };

  const dot: Step = (c) => {
    if (isDigit(c)) {
      step = dotDigits;
      return 'continue';
    }
    return fail(c, 'after decimal point in numeric literal');
  };

  const dotDigits: Step = (c) => {
    if (isDigit(c)) return 'continue';
    if (c === 0x65 || c === 0x45) {
      step = exponent;
      return 'continue';
    }
    return endValue(c);
  };

  const exponent: Step = (c) => {
    if (c === 0x2b || c === 0x2d) {
      step = exponentSign;
      return 'continue';
    }
    return exponentSign(c);
  };

  const exponentSign: Step = (c) => {
    if (isDigit(c)) {
      step = exponentDigits;
      return 'continue';
    }
    return fail(c, 'in exponent of numeric literal');
  };

  const exponentDigits: Step = (c) => (isDigit(c) ? 'continue' : endValue(c));

  const literal =
    (word: string, at: number): Step =>
    (c) => {
      const expected = word.charCodeAt(at);
      if (c !== expected) return fail(c, `in literal ${word} (expecting '${word[at]}')`);
      step = at === word.length - 1 ? endValue : literal(word, at + 1);
      return 'continue';
    };

  step = beginValue;
  for (const c of bytes) {
    if (step(c) === 'error') return error;
  }
  // Go's eof(): feed one space to flush a pending number or literal, then require the end.
  if (endTop) return undefined;
  if (step(0x20) === 'error') return error;
  if (endTop) return undefined;
  return 'unexpected end of JSON input';
}

/** The JSON kind Go names in UnmarshalTypeError for a valid JSON text ("object", "string", ...). */
export function goJsonKind(validJson: string): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  const first = validJson.trimStart()[0];
  switch (first) {
    case '{':
      return 'object';
    case '[':
      return 'array';
    case '"':
      return 'string';
    case 't':
    case 'f':
      return 'bool';
    case 'n':
      return 'null';
    default:
      return 'number';
  }
}

/** json.Marshal of a Go string (HTML-safe): `<`, `>`, `&`, U+2028, U+2029 escaped; invalid UTF-16 as U+FFFD. */
export function encodeGoString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
    }
    if (cp < 0x20 || ch === '<' || ch === '>' || ch === '&' || cp === 0x2028 || cp === 0x2029) {
      out += '\\u' + cp.toString(16).padStart(4, '0');
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      out += '\\ufffd';
    } else {
      out += ch;
    }
  }
  return out + '"';
}

/**
 * json.Marshal of a json.RawMessage: whitespace outside strings removed, `<` `>` `&` and
 * U+2028/U+2029 escaped, everything else (number text, key order, escapes) kept verbatim.
 * The input must be valid JSON.
 */
export function compactGoJson(validJson: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < validJson.length; i++) {
    const ch = validJson[i] as string;
    if (inString) {
      if (ch === '\\') {
        out += ch + (validJson[i + 1] ?? '');
        i++;
        continue;
      }
      if (ch === '"') inString = false;
      out += htmlSafe(ch);
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') continue;
    if (ch === '"') inString = true;
    out += ch;
  }
  return out;
}

function htmlSafe(ch: string): string {
  switch (ch) {
    case '<':
      return '\\u003c';
    case '>':
      return '\\u003e';
    case '&':
      return '\\u0026';
    case '\u2028':
      return '\\u2028';
    case '\u2029':
      return '\\u2029';
    default:
      return ch;
  }
}
