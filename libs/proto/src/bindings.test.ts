/** The committed bindings must be exactly what the generator produces from the .proto files. */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateBindings } from '../scripts/codegen.js';

const committedDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'generated');

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listFiles(dir, path.join(prefix, e.name)) : [path.join(prefix, e.name)])),
  );
  return nested.flat().sort();
}

describe('generated bindings', () => {
  let tempDir = '';
  afterAll(async () => {
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  });

  it('match a fresh generation (run `npm run generate -w libs/proto` after editing a .proto)', async () => {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-proto-'));
    const outDir = path.join(tempDir, 'generated');
    await generateBindings(outDir);
    const fresh = await listFiles(outDir);
    expect(await listFiles(committedDir)).toEqual(fresh);
    for (const file of fresh) {
      const [want, got] = await Promise.all([
        readFile(path.join(outDir, file), 'utf8'),
        readFile(path.join(committedDir, file), 'utf8'),
      ]);
      expect(got, `${file} differs from a fresh generation`).toBe(want);
    }
  }, 30_000);
});
