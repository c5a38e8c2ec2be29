import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, decodeBase64Text, encodeBase64, encodeBase64Text } from './base64.js';

describe('encodeBase64Text', () => {
  it.each([
    { name: 'empty', text: '', want: '' },
    { name: 'one byte', text: 'f', want: 'Zg==' },
    { name: 'two bytes', text: 'fo', want: 'Zm8=' },
    { name: 'three bytes', text: 'foo', want: 'Zm9v' },
    {
      name: 'json patch',
      text: '[{"op":"add","path":"/a","value":1}]',
      want: 'W3sib3AiOiJhZGQiLCJwYXRoIjoiL2EiLCJ2YWx1ZSI6MX1d',
    },
    { name: 'utf-8', text: 'é', want: 'w6k=' },
    { name: 'newline (caBundle Cg==)', text: '\n', want: 'Cg==' },
  ])('$name', ({ text, want }) => expect(encodeBase64Text(text)).toBe(want));
});

describe('decodeBase64 (Go StdEncoding semantics)', () => {
  it.each([
    { name: 'empty', input: '', want: '' },
    { name: 'padded one byte', input: 'Zg==', want: 'f' },
    { name: 'padded two bytes', input: 'Zm8=', want: 'fo' },
    { name: 'full quantum', input: 'Zm9v', want: 'foo' },
    { name: 'newlines are skipped', input: 'Zm\n9v\r\n', want: 'foo' },
    { name: 'newline between padding', input: 'Zg=\n=', want: 'f' },
  ])('decodes $name', ({ input, want }) => {
    expect(decodeBase64Text(input)).toEqual({ ok: true, text: want });
  });

  it.each([
    { name: 'missing padding', input: 'Zg', offset: 0 },
    { name: 'missing padding after a quantum', input: 'Zm9vZg', offset: 4 },
    { name: 'single trailing char', input: 'Zm9vZ', offset: 4 },
    { name: 'invalid character', input: 'Zm9v*A==', offset: 4 },
    { name: 'padding too early', input: 'Z===', offset: 1 },
    { name: 'padding first', input: '====', offset: 0 },
    { name: 'half the padding', input: 'Zg=', offset: 3 },
    { name: 'padding then garbage', input: 'Zg==Zg==', offset: 4 },
    { name: 'wrong second pad', input: 'Zg=A', offset: 2 },
    { name: 'url-safe alphabet is not std', input: 'Zm9v_w==', offset: 4 },
    { name: 'non-ascii', input: 'Zm9vé', offset: 4 },
    { name: 'dollar placeholder', input: '${CA_BUNDLE}', offset: 0 },
  ])('rejects $name like Go', ({ input, offset }) => {
    expect(decodeBase64(input)).toEqual({ ok: false, error: `illegal base64 data at input byte ${offset}` });
  });

  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const back = decodeBase64(encodeBase64(bytes));
        expect(back.ok && Array.from(back.bytes)).toEqual(Array.from(bytes));
      }),
    );
  });

  it('never throws on any string', () => {
    fc.assert(fc.property(fc.string(), (s) => void decodeBase64(s)));
  });
});
