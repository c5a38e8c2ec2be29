/** Texts of Go's JSON decoding errors as the apiserver's codec reports them. */
import { checkGoJsonSyntax } from './go-json.js';

/** The JSON type name Go's UnmarshalTypeError prints. */
export function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/** The struct the codec's Interpret step unmarshals apiVersion and kind into. */
const FIND_KIND_TYPE =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** A JSON value that is not an object cannot even yield its apiVersion and kind. */
export function notAnObjectError(value: unknown): string {
  return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type ${FIND_KIND_TYPE}`;
}

/**
 * Go's wording of why `text` is not JSON, without the offending character, so that it can be
 * logged: the text may be a Secret. undefined when the text is valid JSON.
 */
export function redactedJsonSyntaxError(text: string): string | undefined {
  return checkGoJsonSyntax(text)?.replace(/^invalid character '(?:\\.|[^'\\])*'/, 'invalid character');
}
