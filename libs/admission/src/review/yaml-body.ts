/**
 * How the apiserver's REST client reads a hook's 2xx body: its codec recognises JSON only when the
 * first non-space byte is `{` (utilyaml.IsJSONBuffer); anything else goes to the YAML serializer,
 * which converts YAML to JSON first (sigs.k8s.io/yaml, first document only). So a hook may answer
 * in YAML, or JSON behind a byte-order mark, and a plain string decodes to a JSON string.
 */
import { Composer, LineCounter, Parser } from 'yaml';
import type { Tags } from 'yaml';

/** unicode.IsSpace: Go's white space (no U+FEFF, unlike JavaScript's \s). */
const GO_LEADING_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

/** utilyaml.IsJSONBuffer. */
export function isJsonBuffer(body: string): boolean {
  return body.charCodeAt(GO_LEADING_SPACE.exec(body)?.[0].length ?? 0) === 0x7b;
}

/** Aliases a hook may use before the answer counts as hostile (yaml's own default). */
const MAX_ALIAS_COUNT = 100;
/**
 * Larger non-JSON bodies are not parsed: YAML parsing costs about 150 ms per MB on the event loop,
 * and such a body is an HTML error page or a broken proxy, not an AdmissionReview.
 */
const MAX_YAML_BODY_BYTES = 1024 * 1024;

// yaml.v2 leaves timestamps as strings when decoding into interface{}; so must we.
const withoutTimestamps = (tags: Tags): Tags =>
  tags.filter((t) => typeof t !== 'object' || t.tag !== 'tag:yaml.org,2002:timestamp');

type YamlValue = { ok: true; value: unknown } | { ok: false; error: string };

/** yaml.YAMLToJSON then json decode: the value, or Go's error prefix with the parser's reason. */
export function yamlBodyToValue(body: string): YamlValue {
  const fail = (reason: string): YamlValue => ({ ok: false, error: `error converting YAML to JSON: yaml: ${reason}` });
  if (body.length > MAX_YAML_BODY_BYTES)
    return fail(`a body of ${body.length} bytes is too large to read as YAML (limit ${MAX_YAML_BODY_BYTES})`);
  try {
    const lineCounter = new LineCounter();
    const composer = new Composer({ version: '1.1', uniqueKeys: false, customTags: withoutTimestamps });
    // Documents come one at a time: the first is all the apiserver reads, so parse no further.
    for (const document of composer.compose(new Parser(lineCounter.addNewLine).parse(body), true)) {
      const problem = document.errors[0];
      if (problem !== undefined) {
        // The parser's message quotes the body (alias names, tokens); a patch may hold a Secret.
        const line = lineCounter.linePos(problem.pos[0]).line;
        return fail(`line ${line}: ${problem.code.toLowerCase().replace(/_/g, ' ')}`);
      }
      return { ok: true, value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown };
    }
    // No document at all is YAML null, which decodes like `{}`.
    return { ok: true, value: null };
  } catch (e) {
    // Reworded without the names the messages quote.
    const message = e instanceof Error ? e.message : '';
    if (/^Excessive alias/i.test(message)) return fail('document contains excessive aliasing');
    if (/^Unresolved alias/i.test(message)) return fail('unknown anchor referenced');
    return fail('the body could not be read as YAML');
  }
}
