/** A unified diff between the received object and the patched one, both as YAML (jsdiff). */
import { createTwoFilesPatch } from 'diff';
import type { Colors } from './terminal.js';
import { stringify } from 'yaml';

/** The diff lines without the `Index`/`===` header; empty when nothing changed. */
export function objectDiff(
  labels: { readonly before: string; readonly after: string },
  before: unknown,
  after: unknown,
  colors: Colors,
): string {
  const a = toYaml(before);
  const b = toYaml(after);
  if (a === b) return '';
  const patch = createTwoFilesPatch(labels.before, labels.after, a, b, undefined, undefined, {
    context: 3,
  });
  return patch
    .split('\n')
    .filter((line) => !line.startsWith('====') && line !== '')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return colors.bold(line);
      if (line.startsWith('+')) return colors.green(line);
      if (line.startsWith('-')) return colors.red(line);
      if (line.startsWith('@@')) return colors.cyan(line);
      return line;
    })
    .join('\n');
}

const toYaml = (value: unknown): string => (value == null ? '' : stringify(value, { lineWidth: 0 }));
