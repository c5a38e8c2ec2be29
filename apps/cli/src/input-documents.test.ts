import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputDocuments } from './input-documents.js';

const pod = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata: { name: ${name} }\n`;

describe('readInputDocuments', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-input-'));
    await mkdir(join(dir, 'objects/nested'), { recursive: true });
    await writeFile(join(dir, 'objects/b.yaml'), `${pod('b1')}---\n${pod('b2')}---\n`);
    await writeFile(
      join(dir, 'objects/a.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' } }),
    );
    await writeFile(join(dir, 'objects/notes.txt'), 'not an object');
    await writeFile(join(dir, 'objects/.hidden.yaml'), pod('hidden'));
    await writeFile(join(dir, 'objects/nested/c.yaml'), pod('nested'));
    await writeFile(
      join(dir, 'list.yaml'),
      `apiVersion: v1\nkind: List\nitems:\n  - ${JSON.stringify({ kind: 'Pod', metadata: { name: 'l1' } })}\n  - ${JSON.stringify({ kind: 'Pod', metadata: { name: 'l2' } })}\n`,
    );
    await writeFile(join(dir, 'empty.yaml'), '# nothing here\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const names = (docs: { source: string; value: unknown }[]) =>
    docs.map((d) => [d.source.replace(dir, ''), (d.value as { metadata: { name: string } }).metadata.name]);

  it('reads files, a directory (its YAML and JSON files, in name order, not below) and stdin, every document', async () => {
    const result = await readInputDocuments(
      [join(dir, 'objects'), '-', join(dir, 'list.yaml')],
      async () => `${pod('s1')}---\n${pod('s2')}`,
    );
    expect(result.ok && names(result.documents)).toEqual([
      ['/objects/a.json', 'a'],
      ['/objects/b.yaml#1', 'b1'],
      ['/objects/b.yaml#2', 'b2'],
      ['-#1', 's1'],
      ['-#2', 's2'],
      ['/list.yaml items[0]', 'l1'],
      ['/list.yaml items[1]', 'l2'],
    ]);
  });

  it('reports every unreadable path, syntax error and empty file', async () => {
    const result = await readInputDocuments(
      [join(dir, 'absent.yaml'), join(dir, 'empty.yaml'), '-'],
      async () => `${pod('ok')}---\nkind: [\n`,
    );
    expect(result.ok ? [] : result.errors.map((e) => e.replace(dir, ''))).toEqual([
      expect.stringMatching(/^\/absent.yaml: cannot read: ENOENT/),
      '/empty.yaml: holds no document',
      expect.stringMatching(/^-#2: not valid YAML or JSON: /),
    ]);
  });
});
