/**
 * Keeps the catalogue, docs/errors.md and the source the same set of codes, as fastify's errors
 * test does: a code cannot be added without its docs, documented without existing, or spelt as a
 * string literal outside the catalogue.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AREAS, catalogue } from './catalogue.js';
import { areaOf, renderErrorDocs } from './render-docs.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const docsFile = join(repo, 'docs/errors.md');
const tableCodes = Object.keys(catalogue).sort();
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.nx', '.git', 'tmp', '.hookgate', 'coverage']);
/** A code written out: the prefix, then at least one more word. */
const CODE = /HG_ERR_[A-Z0-9]+(?:_[A-Z0-9]+)*/g;
/** A code inside a string literal: what "spelt outside the catalogue" means. */
const CODE_LITERAL = /['"`]HG_ERR_[A-Z0-9]/;
const SOURCE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;
const TEST = /\.test\.(?:ts|mts|js|mjs)$/;

async function repositoryFiles(dir = repo): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return SKIPPED_DIRS.has(e.name) ? [] : repositoryFiles(path);
      return e.isFile() && e.name !== 'package-lock.json' ? [path] : [];
    }),
  );
  return nested.flat();
}

describe('the catalogue', () => {
  it.each(Object.entries(catalogue))('%s is keyed by its own code and says what to do', (key, entry) => {
    expect(entry.code).toBe(key);
    expect(entry.code).toMatch(/^HG_ERR_[A-Z0-9]+(?:_[A-Z0-9]+)+$/);
    expect(Object.keys(AREAS)).toContain(areaOf(entry.code));
    expect(entry.meaning.length).toBeGreaterThan(20);
    expect(entry.remedy.length).toBeGreaterThan(20);
  });
});

describe('docs/errors.md', () => {
  it('documents every code of the table, and no code the table does not have', async () => {
    const docs = await readFile(docsFile, 'utf8');
    const documented = [...new Set(docs.match(CODE) ?? [])].sort();
    expect(
      tableCodes.filter((c) => !documented.includes(c)),
      'in the table, not in docs/errors.md',
    ).toEqual([]);
    expect(
      documented.filter((c) => !tableCodes.includes(c)),
      'in docs/errors.md, not in the table',
    ).toEqual([]);
  });

  it('is what the catalogue renders (regenerate it with `npm run docs -w @hookgate/errors`)', async () => {
    expect(await readFile(docsFile, 'utf8')).toBe(renderErrorDocs());
  });
});

describe('the repository', () => {
  it('spells no code as a string literal in source outside the catalogue', async () => {
    const strays: string[] = [];
    for (const file of await repositoryFiles()) {
      const name = relative(repo, file);
      // Tests pin the wire values literally on purpose; the next test keeps them real codes.
      if (!SOURCE.test(name) || TEST.test(name) || name === 'libs/errors/src/catalogue.ts') continue;
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        if (CODE_LITERAL.test(line)) strays.push(`${name}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(strays, 'import the entry from @hookgate/errors instead').toEqual([]);
  });

  it('mentions no code, in tests, docs or source, that the table does not have', async () => {
    const unknown: string[] = [];
    for (const file of await repositoryFiles()) {
      // defineError's own test defines entries of its own, outside the catalogue.
      if (relative(repo, file) === 'libs/errors/src/define-error.test.ts') continue;
      const text = await readFile(file, 'utf8').catch(() => '');
      for (const code of new Set(text.match(CODE) ?? [])) {
        if (!tableCodes.includes(code)) unknown.push(`${relative(repo, file)}: ${code}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
