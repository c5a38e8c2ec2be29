/**
 * The objects `hookgate review` and `hookgate test` read: files, directories (their *.yaml, *.yml
 * and *.json files, in name order, not recursive, as `kubectl apply -f DIR`) and `-` for stdin;
 * every YAML document of each, with a `v1 List` expanded into its items. Each object keeps where it
 * came from (`file`, `file#2` for the second document) for the report.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface InputDocument {
  /** `pod.yaml`, `all.yaml#3`, `-#1` (stdin), `list.yaml#1 items[2]`. */
  readonly source: string;
  readonly value: unknown;
}

export type InputResult = { ok: true; documents: InputDocument[] } | { ok: false; errors: string[] };

const EXTENSIONS = ['.yaml', '.yml', '.json'];
export const STDIN = '-';

/** Reads every path (stdin at most once); every problem is reported, not just the first. */
export async function readInputDocuments(paths: readonly string[], stdin: () => Promise<string>): Promise<InputResult> {
  const documents: InputDocument[] = [];
  const errors: string[] = [];
  for (const path of paths) {
    for (const file of await expand(path, errors)) {
      let text: string;
      try {
        text = file === STDIN ? await stdin() : await readFile(file, 'utf8');
      } catch (e) {
        errors.push(`${file}: cannot read: ${(e as Error).message}`);
        continue;
      }
      documents.push(...parseDocuments(file, text, errors));
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, documents };
}

async function expand(path: string, errors: string[]): Promise<string[]> {
  if (path === STDIN) return [STDIN];
  const info = await stat(path).catch((e: Error) => e);
  if (info instanceof Error) {
    errors.push(`${path}: cannot read: ${info.message}`);
    return [];
  }
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path))
    .filter((n) => !n.startsWith('.') && EXTENSIONS.some((ext) => n.endsWith(ext)))
    .sort();
  if (names.length === 0) errors.push(`${path}: the directory holds no *.yaml, *.yml or *.json file`);
  return names.map((n) => join(path, n));
}

function parseDocuments(file: string, text: string, errors: string[]): InputDocument[] {
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [docs];
  const out: InputDocument[] = [];
  const errorsBefore = errors.length;
  const numbered = list.length > 1 || file === STDIN;
  list.forEach((doc, i) => {
    const source = numbered ? `${file}#${i + 1}` : file;
    if (doc.errors.length > 0) {
      // The parser's message continues with an excerpt of the source: its first line says it all.
      errors.push(`${source}: not valid YAML or JSON: ${doc.errors[0]!.message.split('\n')[0]}`);
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      errors.push(`${source}: ${(e as Error).message}`);
      return;
    }
    // An empty document (a trailing `---`) is no object: kubectl skips it too.
    if (value === null || value === undefined) return;
    if (isList(value)) value.items.forEach((item, j) => out.push({ source: `${source} items[${j}]`, value: item }));
    else out.push({ source, value });
  });
  if (out.length === 0 && errors.length === errorsBefore) errors.push(`${file}: holds no document`);
  return out;
}

function isList(value: unknown): value is { items: unknown[] } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v['apiVersion'] === 'v1' && v['kind'] === 'List' && Array.isArray(v['items']);
}

/** All of stdin as text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}
