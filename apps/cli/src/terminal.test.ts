import { describe, expect, it } from 'vitest';
import { colorEnabled, colorsFor } from './terminal.js';

const tty = { isTTY: true } as unknown as NodeJS.WritableStream;
const pipe = {} as NodeJS.WritableStream;

describe('colorEnabled', () => {
  const cases = [
    { name: 'a terminal', stream: tty, env: {}, want: true },
    { name: 'a pipe', stream: pipe, env: {}, want: false },
    { name: 'a pipe in CI', stream: pipe, env: { CI: 'true' }, want: false },
    { name: 'a dumb terminal', stream: tty, env: { TERM: 'dumb' }, want: false },
    { name: 'NO_COLOR on a terminal', stream: tty, env: { NO_COLOR: '1' }, want: false },
    { name: 'an empty NO_COLOR does not count', stream: tty, env: { NO_COLOR: '' }, want: true },
    { name: 'FORCE_COLOR on a pipe', stream: pipe, env: { FORCE_COLOR: '1' }, want: true },
    { name: 'FORCE_COLOR=0', stream: tty, env: { FORCE_COLOR: '0' }, want: true },
    { name: 'NO_COLOR beats FORCE_COLOR', stream: pipe, env: { FORCE_COLOR: '1', NO_COLOR: '1' }, want: false },
  ];
  it.each(cases)('$name', ({ stream, env, want }) => expect(colorEnabled(stream, env)).toBe(want));

  it('gives plain text when off and ANSI codes when on', () => {
    expect(colorsFor(pipe, {}).red('x')).toBe('x');
    expect(colorsFor(tty, {}).red('x')).toBe('\u001b[31mx\u001b[39m');
  });
});
