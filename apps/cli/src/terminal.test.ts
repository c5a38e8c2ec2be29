import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { colorEnabled, colorsFor, progressOn } from './terminal.js';

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

describe('progressOn', () => {
  const capture = (isTTY: boolean) => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    // What a tty.WriteStream has beyond a Writable, as far as a spinner uses it.
    const tty = { isTTY, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true };
    return { stream: Object.assign(stream, tty), text: () => chunks.join('') };
  };

  it('writes nothing to a pipe', () => {
    const out = capture(false);
    const progress = progressOn(out.stream, {}, 'reviewing a.yaml');
    progress.update('reviewing b.yaml');
    progress.done();
    expect(out.text()).toBe('');
  });

  it('shows the text on a terminal, and nothing on a dumb one', () => {
    const out = capture(true);
    const progress = progressOn(out.stream, {}, 'reviewing a.yaml');
    progress.done();
    expect(out.text()).toContain('reviewing a.yaml');

    const dumb = capture(true);
    progressOn(dumb.stream, { TERM: 'dumb' }, 'reviewing a.yaml').done();
    expect(dumb.text()).toBe('');
  });
});
