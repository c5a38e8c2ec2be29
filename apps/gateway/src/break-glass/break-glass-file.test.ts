import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { breakGlassPath, readBreakGlass, switchBreakGlassOff, switchBreakGlassOn } from './break-glass-file.js';

describe('the break-glass file', () => {
  let tmp: TempDir;
  afterEach(async () => tmp?.cleanup());

  it('is off without the file, on with what `on` wrote, off again after `off`', async () => {
    tmp = await tempDir();
    expect(await readBreakGlass(tmp.dir)).toBeUndefined();
    const at = new Date('2030-01-01T00:00:00Z');
    expect(await switchBreakGlassOn(tmp.dir, 'INC-1', at)).toEqual({
      since: '2030-01-01T00:00:00.000Z',
      reason: 'INC-1',
    });
    expect(await readBreakGlass(tmp.dir)).toEqual({ since: '2030-01-01T00:00:00.000Z', reason: 'INC-1' });
    expect(await switchBreakGlassOff(tmp.dir)).toBe(true);
    expect(await readBreakGlass(tmp.dir)).toBeUndefined();
    expect(await switchBreakGlassOff(tmp.dir)).toBe(false);
  });

  it.each([
    ['an empty file (`touch`)', '', { since: '', reason: '' }],
    ['plain text', 'apiserver down, see ticket\n', { since: '', reason: 'apiserver down, see ticket' }],
    ['JSON of another shape', '{"since": 5}', { since: '', reason: '' }],
  ])('counts %s as on', async (_name, content, state) => {
    tmp = await tempDir();
    await writeFile(breakGlassPath(tmp.dir), content);
    expect(await readBreakGlass(tmp.dir)).toEqual(state);
  });
});
