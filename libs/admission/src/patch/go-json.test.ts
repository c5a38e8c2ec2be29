import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkGoJsonSyntax, compactGoJson, encodeGoString } from './go-json.js';

describe('checkGoJsonSyntax: encoding/json scanner errors', () => {
  it.each([
    { name: 'apiserver test: truncated', input: '[{', want: 'unexpected end of JSON input' },
    {
      name: 'apiserver test: corrupted key',
      input: '[{"op": "add", "CORRUPTED_KEY":}]',
      want: "invalid character '}' looking for beginning of value",
    },
    { name: 'empty input', input: '', want: 'unexpected end of JSON input' },
    { name: 'only spaces', input: '  \n', want: 'unexpected end of JSON input' },
    { name: 'bare word', input: 'x', want: "invalid character 'x' looking for beginning of value" },
    { name: 'trailing comma in array', input: '[1,]', want: "invalid character ']' looking for beginning of value" },
    { name: 'missing colon', input: '{"a" 1}', want: "invalid character '1' after object key" },
    {
      name: 'missing comma in object',
      input: '{"a":1 "b":2}',
      want: `invalid character '"' after object key:value pair`,
    },
    { name: 'missing comma in array', input: '[1 2]', want: "invalid character '2' after array element" },
    { name: 'unquoted key', input: '{1:2}', want: "invalid character '1' looking for beginning of object key string" },
    {
      name: 'trailing comma in object',
      input: '{"a":1,}',
      want: "invalid character '}' looking for beginning of object key string",
    },
    { name: 'control character in string', input: '"a\u0001"', want: "invalid character '\\x01' in string literal" },
    { name: 'newline in string', input: '"a\nb"', want: "invalid character '\\n' in string literal" },
    { name: 'bad escape', input: '"\\q"', want: "invalid character 'q' in string escape code" },
    {
      name: 'bad unicode escape',
      input: '"\\u12g4"',
      want: "invalid character 'g' in \\u hexadecimal character escape",
    },
    { name: 'lone minus', input: '-', want: "invalid character ' ' in numeric literal" },
    { name: 'minus letter', input: '-a', want: "invalid character 'a' in numeric literal" },
    { name: 'dot at the end', input: '1.', want: "invalid character ' ' after decimal point in numeric literal" },
    { name: 'dot then exponent', input: '1.e5', want: "invalid character 'e' after decimal point in numeric literal" },
    { name: 'exponent without digits', input: '1e+', want: "invalid character ' ' in exponent of numeric literal" },
    { name: 'leading zero', input: '01', want: "invalid character '1' after top-level value" },
    { name: 'truncated literal', input: 'tru', want: "invalid character ' ' in literal true (expecting 'e')" },
    { name: 'wrong literal', input: 'nulx', want: "invalid character 'x' in literal null (expecting 'l')" },
    { name: 'false typo', input: 'fxlse', want: "invalid character 'x' in literal false (expecting 'a')" },
    { name: 'garbage after value', input: '[] x', want: "invalid character 'x' after top-level value" },
    { name: 'single quote', input: "'a'", want: "invalid character '\\'' looking for beginning of value" },
    {
      name: 'non-ASCII shows its first UTF-8 byte',
      input: 'é',
      want: "invalid character 'Ã' looking for beginning of value",
    },
    { name: 'unterminated string', input: '"abc', want: 'unexpected end of JSON input' },
    { name: 'escape at the end', input: '"\\', want: "invalid character ' ' in string escape code" },
  ])('$name', ({ input, want }) => {
    expect(checkGoJsonSyntax(input)).toBe(want);
  });

  it.each([
    { name: 'a patch', input: '[{"op":"add","path":"/a","value":{"b":[1,2.5e-3,-0,true,false,null,"\\u00e9\\n"]}}]' },
    { name: 'null', input: 'null' },
    { name: 'number with exponent', input: '-1.5E+10' },
    { name: 'whitespace around', input: ' \t\r\n[ ] \n' },
    { name: 'unicode text', input: '["héllo ✓ 😀"]' },
  ])('accepts valid JSON: $name', ({ input }) => {
    expect(checkGoJsonSyntax(input)).toBeUndefined();
  });

  it('agrees with JSON.parse on validity (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
        ),
        (text) => {
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          const error = checkGoJsonSyntax(text);
          expect(error === undefined).toBe(valid);
          if (error !== undefined) expect(error.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('encodeGoString (json.Marshal of a string)', () => {
  it.each([
    { name: 'plain', input: 'abc', want: '"abc"' },
    { name: 'HTML-safe', input: '<a&b>', want: '"\\u003ca\\u0026b\\u003e"' },
    { name: 'short escapes', input: '"\\\n\r\t\b\f', want: '"\\"\\\\\\n\\r\\t\\b\\f"' },
    { name: 'other controls', input: '\u0001\u001f', want: '"\\u0001\\u001f"' },
    { name: 'line separators', input: '\u2028\u2029', want: '"\\u2028\\u2029"' },
    { name: 'lone surrogate', input: '\ud800', want: '"\\ufffd"' },
    { name: 'DEL and non-ASCII kept', input: '\u007fé😀', want: '"\u007fé😀"' },
  ])('$name', ({ input, want }) => {
    expect(encodeGoString(input)).toBe(want);
  });
});

describe('compactGoJson (json.Marshal of a json.RawMessage)', () => {
  it.each([
    {
      name: 'whitespace removed, order and number text kept',
      input: '{ "b" : 1.0 , "a" : [ 1e3 ] }',
      want: '{"b":1.0,"a":[1e3]}',
    },
    { name: 'spaces inside strings kept', input: '"a b"', want: '"a b"' },
    { name: 'HTML characters escaped inside strings', input: '"<&>"', want: '"\\u003c\\u0026\\u003e"' },
    { name: 'existing escapes untouched', input: '"\\" \\\\ \\u003c"', want: '"\\" \\\\ \\u003c"' },
  ])('$name', ({ input, want }) => {
    expect(compactGoJson(input)).toBe(want);
  });
});
