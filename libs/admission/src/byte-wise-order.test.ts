import { describe, expect, it } from 'vitest';
import { compareByteWise } from './byte-wise-order.js';

describe('compareByteWise (Go string <)', () => {
  it.each([
    ['equal', 'a', 'a', 0],
    ['upper case before lower case', 'Z', 'a', -1],
    ['prefix first', 'ab', 'abc', -1],
    ['digits before letters', '1', 'a', -1],
    ['astral after high BMP (UTF-8 order, unlike UTF-16)', '\u{1F600}', '\uFFFD', 1],
  ] as [string, string, string, number][])('%s', (_name, a, b, sign) =>
    expect(Math.sign(compareByteWise(a, b))).toBe(sign),
  );
});
