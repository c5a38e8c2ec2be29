/**
 * The files behind `--config PATH`: PATH itself, or the *.yaml, *.yml and *.json files of a
 * directory in name order. Hidden entries are skipped, which also skips the `..data` machinery of
 * a mounted ConfigMap (its visible files are symlinks into it).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { err, ok } from '@hookgate/admission';
import type { Result } from '@hookgate/admission';
import type { ConfigError } from './config-error.js';

export interface SourceFile {
  readonly file: string;
  readonly text: string;
}

export const CONFIG_EXTENSIONS = ['.yaml', '.yml', '.json'];

export async function readSourceFiles(path: string): Promise<Result<SourceFile[], ConfigError[]>> {
  const root = resolve(path);
  const unreadable = (file: string, e: unknown): ConfigError => ({
    file,
    document: 0,
    field: '',
    rule: 'FileUnreadable',
    message: `cannot read: ${(e as Error).message}`,
  });
  let files: string[];
  try {
    if ((await stat(root)).isDirectory()) {
      const entries = await readdir(root);
      files = entries
        .filter((name) => !name.startsWith('.') && CONFIG_EXTENSIONS.includes(extname(name).toLowerCase()))
        .sort()
        .map((name) => join(root, name));
      if (files.length === 0) {
        return err([
          {
            file: root,
            document: 0,
            field: '',
            rule: 'DocumentMissing',
            message: 'the directory holds no *.yaml, *.yml or *.json file',
          },
        ]);
      }
    } else {
      files = [root];
    }
  } catch (e) {
    return err([unreadable(root, e)]);
  }
  const results = await Promise.all(
    files.map(async (file) => {
      try {
        return ok({ file, text: await readFile(file, 'utf8') });
      } catch (e) {
        return err(unreadable(file, e));
      }
    }),
  );
  const errors = results.flatMap((r) => (r.ok ? [] : [r.error]));
  return errors.length > 0 ? err(errors) : ok(results.flatMap((r) => (r.ok ? [r.value] : [])));
}

/** Identifies the content of a configuration, so a reload that changes nothing is a no-op. */
export function digestOf(files: readonly SourceFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.file).update('\0').update(f.text).update('\0');
  return hash.digest('hex');
}
