/**
 * Reads untyped YAML values field by field, collecting problems worded like the apiserver's field
 * errors (`path: Invalid value: "x": detail`) instead of stopping at the first one.
 */
import { PluginConfigError } from './plugin-config-error.js';

export class FieldReader {
  readonly problems: string[] = [];
  constructor(
    readonly plugin: string,
    readonly source: string,
  ) {}

  invalid(path: string, value: unknown, detail: string): undefined {
    this.problems.push(`${path || '(document)'}: Invalid value: ${renderValue(value)}: ${detail}`);
    return undefined;
  }

  required(path: string): undefined {
    this.problems.push(`${path}: Required value`);
    return undefined;
  }

  unsupported(path: string, value: unknown, supported: readonly string[]): undefined {
    this.problems.push(
      `${path}: Unsupported value: ${renderValue(value)}: supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
    );
    return undefined;
  }

  /** An optional mapping; unknown keys are errors, so a typo never silently disables a setting. */
  object(value: unknown, path: string, knownKeys?: readonly string[]): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) return this.invalid(path, value, 'must be a mapping');
    const record = value as Record<string, unknown>;
    if (knownKeys) {
      for (const key of Object.keys(record)) {
        if (!knownKeys.includes(key)) this.unsupported(joinFieldPath(path, key), key, knownKeys);
      }
    }
    return record;
  }

  string(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return this.invalid(path, value, 'must be a string');
    return value;
  }

  stringArray(value: unknown, path: string): string[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) return this.invalid(path, value, 'must be a list of strings');
    const out: string[] = [];
    value.forEach((item, i) => {
      const s = this.string(item, `${path}[${i}]`);
      if (s === undefined && (item === undefined || item === null)) this.required(`${path}[${i}]`);
      if (s !== undefined) out.push(s);
    });
    return out;
  }

  /** A mapping of strings to strings; numbers and booleans are refused (quote them in YAML). */
  stringMap(value: unknown, path: string): Record<string, string> | undefined {
    const record = this.object(value, path);
    if (record === undefined) return undefined;
    const out: Record<string, string> = {};
    for (const [key, item] of Object.entries(record)) {
      if (typeof item === 'string') out[key] = item;
      else this.invalid(joinFieldPath(path, key), item, 'must be a string (quote numbers and booleans in YAML)');
    }
    return out;
  }

  /** Throws every problem collected so far as one PluginConfigError. */
  fail(): never {
    throw new PluginConfigError(this.plugin, this.source, this.problems);
  }
}

/** Appends a key to a field path, bracketing keys that contain dots or slashes: `a.b`, `a[example.com/x]`. */
export function joinFieldPath(path: string, key: string): string {
  const segment = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : `[${key}]`;
  if (path === '') return segment;
  return segment.startsWith('[') ? `${path}${segment}` : `${path}.${segment}`;
}

/** Values are shown, shortened: a problem line must stay readable when someone pastes a whole manifest. */
function renderValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
