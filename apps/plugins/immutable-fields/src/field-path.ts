/**
 * Field paths as Crossplane's fieldpath package writes them: `spec.forProvider.region`,
 * `spec.ports[0].port`, `metadata.labels[app.kubernetes.io/name]`, `metadata.annotations['a.b/c']`,
 * plus `[*]` for every element of a list (or every key of a map).
 */
export type PathSegment = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'any' };

export interface FieldPath {
  /** As written in the configuration, for messages. */
  readonly text: string;
  readonly segments: readonly PathSegment[];
}

export type ParsedPath = { ok: true; path: FieldPath } | { ok: false; error: string };

const FIELD_CHAR = /[^.[\]]/;

export function parseFieldPath(text: string): ParsedPath {
  const segments: PathSegment[] = [];
  let i = 0;
  const fail = (why: string): ParsedPath => ({ ok: false, error: `${why} at position ${i}` });
  if (text.length === 0) return { ok: false, error: 'must not be empty' };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '[') {
      const close = findClose(text, i);
      if (close < 0) return fail('unterminated [');
      const inner = text.slice(i + 1, close);
      const segment = parseBracket(inner);
      if (segment === undefined) return fail(`empty or invalid [${inner}]`);
      segments.push(segment);
      i = close + 1;
      if (i < text.length && text[i] !== '.' && text[i] !== '[') return fail('expected . or [ after ]');
    } else if (c === '.') {
      if (i === 0 || i === text.length - 1 || text[i + 1] === '.' || text[i + 1] === '[') return fail('misplaced .');
      i += 1;
    } else if (c === ']') {
      return fail('unexpected "]"');
    } else {
      const start = i;
      while (i < text.length && FIELD_CHAR.test(text[i]!)) i += 1;
      segments.push({ kind: 'field', name: text.slice(start, i) });
      if (i < text.length && text[i] !== '.' && text[i] !== '[') return fail(`unexpected ${JSON.stringify(text[i])}`);
    }
  }
  return { ok: true, path: { text, segments } };
}

/** The index of the `]` closing the bracket at `open`, honouring quotes. */
function findClose(text: string, open: number): number {
  const quote = text[open + 1];
  if (quote === "'" || quote === '"') {
    const end = text.indexOf(quote, open + 2);
    return end >= 0 && text[end + 1] === ']' ? end + 1 : -1;
  }
  return text.indexOf(']', open);
}

function parseBracket(inner: string): PathSegment | undefined {
  if (inner === '*') return { kind: 'any' };
  if (/^\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  const quoted = /^(['"])(.*)\1$/.exec(inner);
  const name = quoted ? quoted[2]! : inner;
  return name.length === 0 ? undefined : { kind: 'field', name };
}

/** Renders a concrete path (wildcards replaced by the index or key they stood for). */
export function appendSegment(
  path: string,
  segment: { kind: 'field'; name: string } | { kind: 'index'; index: number },
): string {
  if (segment.kind === 'index') return `${path}[${segment.index}]`;
  if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(segment.name)) return path === '' ? segment.name : `${path}.${segment.name}`;
  return `${path}[${segment.name}]`;
}
