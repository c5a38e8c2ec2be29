import { describe, expect, it } from 'vitest';
import { goQuote } from './go-quote.js';

describe('goQuote (strconv.Quote)', () => {
  it.each([
    { name: 'plain', input: 'pods', want: '"pods"' },
    { name: 'quote and backslash', input: 'a"b\\c', want: '"a\\"b\\\\c"' },
    { name: 'short escapes', input: '\n\t\r\x07\b\f\v', want: '"\\n\\t\\r\\a\\b\\f\\v"' },
    { name: 'other control characters', input: '\x01\x7f', want: '"\\x01\\x7f"' },
    { name: 'printable non-ASCII kept', input: 'héllo ✓', want: '"héllo ✓"' },
    { name: 'non-printable BMP', input: '\u00a0\u200b', want: '"\\u00a0\\u200b"' },
    { name: 'astral printable', input: '😀', want: '"😀"' },
    { name: 'astral non-printable', input: '\u{e0001}', want: '"\\U000e0001"' },
    { name: 'empty', input: '', want: '""' },
  ])('$name', ({ input, want }) => {
    expect(goQuote(input)).toBe(want);
  });
});
