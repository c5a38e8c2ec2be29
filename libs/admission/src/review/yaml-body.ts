/**
 * How the apiserver's REST client reads a hook's 2xx body: its codec recognises JSON only when the
 * first non-space byte is `{` (utilyaml.IsJSONBuffer); anything else goes to the YAML serializer,
 * which converts YAML to JSON first (sigs.k8s.io/yaml, first document only). So a hook may answer
 * in YAML, or JSON behind a byte-order mark, and a plain string decodes to a JSON string.
 */
import { parseAllDocuments } from 'yaml';

/** unicode.IsSpace: Go's white space (no U+FEFF, unlike JavaScript's \s). */
const GO_LEADING_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

/** utilyaml.IsJSONBuffer. */
export function isJsonBuffer(body: string): boolean {
  return body.charCodeAt(GO_LEADING_SPACE.exec(body)?.[0].length ?? 0) === 0x7b;
}

/** Aliases a hook may use before the answer counts as hostile (yaml's own default). */
const MAX_ALIAS_COUNT = 100;

/** yaml.YAMLToJSON then json decode: the value, or Go's error prefix with the parser's reason. */
export function yamlBodyToValue(body: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    const documents = parseAllDocuments(body, { version: '1.1', uniqueKeys: false });
    const first = Array.isArray(documents) ? documents[0] : undefined;
    // No document at all is YAML null, which decodes like `{}`.
    if (first === undefined) return { ok: true, value: null };
    const problem = first.errors[0];
    if (problem !== undefined) return { ok: false, error: `error converting YAML to JSON: yaml: ${firstLine(problem.message)}` };
    return { ok: true, value: first.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown };
  } catch (e) {
    return { ok: false, error: `error converting YAML to JSON: yaml: ${firstLine(e instanceof Error ? e.message : String(e))}` };
  }
}

const firstLine = (text: string): string => (text.split('\n')[0] ?? text).replace(/:$/, '');
