import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookgate-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('withFileLock', () => {
  it('runs critical sections one at a time and removes the lock', async () => {
    const lock = join(dir, '.lock');
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      [1, 2, 3].map(() =>
        withFileLock(lock, async () => {
          inside += 1;
          maxInside = Math.max(maxInside, inside);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inside -= 1;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock whose owner process is gone', async () => {
    const lock = join(dir, '.lock');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await writeFile(lock, gone);
    await expect(withFileLock(lock, async () => 'ran')).resolves.toBe('ran');
  });

  it('gives up with an explanation when a live process holds the lock', async () => {
    const lock = join(dir, '.lock');
    await writeFile(lock, String(process.pid));
    await expect(withFileLock(lock, async () => 'ran', { waitMs: 50 })).rejects.toThrow(
      /held by another process; if no hookgate process is running, delete the file/,
    );
  });

  it('releases the lock when the section throws', async () => {
    const lock = join(dir, '.lock');
    await expect(withFileLock(lock, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await readdir(dir)).toEqual([]);
  });
});
