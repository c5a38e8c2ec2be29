/**
 * YAML (and JSON) documents of one file, with line numbers for field paths so errors can say
 * `config.yaml:14`. Syntax errors (including duplicate keys) are reported per document.
 */
import { LineCounter, isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { Document } from 'yaml';
import type { ConfigError } from './config-error.js';

export interface SourceDocument {
  readonly file: string;
  /** 1-based position in the file. */
  readonly index: number;
  readonly value: unknown;
  /** Line of the field (or the nearest enclosing node that exists), 1-based. */
  lineOf(field: string): number | undefined;
}

/**
 * Alias uses a document may make before it counts as an attack. yaml's default (100) refuses
 * honest files that reuse one anchor for many hooks; 1,000 uses keep the expansion bounded by
 * 1,000 times the anchor's size.
 */
const MAX_ALIAS_COUNT = 1_000;

export function parseDocuments(file: string, text: string): { documents: SourceDocument[]; errors: ConfigError[] } {
  const lineCounter = new LineCounter();
  const documents: SourceDocument[] = [];
  const errors: ConfigError[] = [];
  // Merge keys (`<<: *defaults`) as kubectl's YAML reader (go-yaml) accepts them.
  parseAllDocuments(text, { lineCounter, merge: true }).forEach((doc, i) => {
    const index = i + 1;
    if (doc.errors.length > 0) {
      for (const e of doc.errors) {
        errors.push({
          file,
          document: index,
          line: e.linePos?.[0].line,
          field: '',
          rule: 'YAMLSyntax',
          message: syntaxMessage(e.message),
        });
      }
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      // yaml refuses documents whose aliases expand too far (a "billion laughs" file).
      const line = doc.contents?.range ? lineCounter.linePos(doc.contents.range[0]).line : undefined;
      errors.push({
        file,
        document: index,
        ...(line !== undefined ? { line } : {}),
        field: '',
        rule: 'YAMLSyntax',
        message: syntaxMessage(e instanceof Error ? e.message : String(e)),
      });
      return;
    }
    // An empty document (a stray `---`, a file of comments) is not an error.
    if (value === null || value === undefined) return;
    documents.push({ file, index, value, lineOf: (field) => lineOf(doc, lineCounter, field) });
  });
  return { documents, errors };
}

/** The first line of the parser's message, without its own position (the error carries the line). */
function syntaxMessage(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

/** `webhooks[0].rules[1].operations` → ['webhooks', '0', 'rules', '1', 'operations']; `[a.b/c]` keys stay whole. */
function segments(field: string): string[] {
  return [...field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)].map((m) => m[1] ?? m[2] ?? '');
}

function lineOf(doc: Document, lineCounter: LineCounter, field: string): number | undefined {
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (const segment of segments(field)) {
    if (isMap(node)) {
      // The key's line: for `admission:` followed by a block, that is where the reader looks.
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (pair === undefined) break;
      offset = rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(segment)) {
      const item: unknown = node.items[Number(segment)];
      if (rangeStart(item) === undefined) break;
      offset = rangeStart(item);
      node = item;
    } else break;
  }
  return offset === undefined ? undefined : lineCounter.linePos(offset).line;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] | null } | null)?.range;
  return range ? range[0] : undefined;
}
