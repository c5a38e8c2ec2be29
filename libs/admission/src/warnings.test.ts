import { describe, expect, it } from 'vitest';
import { collectWarnings, isRecordableWarning, WarningRecorder } from './warnings.js';

describe('warnings', () => {
  it.each([
    { name: 'plain text', text: 'deprecated field', ok: true },
    { name: 'unicode', text: 'héllo ✓ 😀', ok: true },
    { name: 'empty', text: '', ok: false },
    { name: 'newline', text: 'a\nb', ok: false },
    { name: 'DEL', text: 'a\u007fb', ok: false },
    { name: 'C1 control', text: 'a\u0085b', ok: false },
    { name: 'lone surrogate', text: 'a\ud800b', ok: false },
  ])('$name recordable: $ok', ({ text, ok }) => {
    expect(isRecordableWarning(text)).toBe(ok);
  });

  it('dedupes, drops bad ones, keeps first-seen order across answers', () => {
    const r = new WarningRecorder();
    r.add(['b', 'a', 'b', '', 'x\ty']);
    r.add(['c', 'a']);
    r.add(undefined);
    r.add('not a list' as unknown as string[]);
    r.add([1, 'd'] as unknown as string[]);
    expect(r.toArray()).toEqual(['b', 'a', 'c', 'd']);
  });

  it('collects several lists', () => {
    expect(collectWarnings(['a'], undefined, ['a', 'b'])).toEqual(['a', 'b']);
  });
});
