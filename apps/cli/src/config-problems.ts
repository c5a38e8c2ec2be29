/** Configuration problems as `hookgate check-config` prints them: in file and line order, as text or data. */
import { formatConfigError, type ConfigError } from '@hookgate/config';
import type { Colors } from './terminal.js';

/** By file, then line (problems without one, such as a missing document, first), then document. */
export function sortProblems(problems: readonly ConfigError[]): ConfigError[] {
  return [...problems].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.line ?? 0) - (b.line ?? 0) || a.document - b.document,
  );
}

/** One line per problem; the location stands out on a terminal. */
export function formatProblem(problem: ConfigError, colors: Colors): string {
  const text = formatConfigError(problem);
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  return text.startsWith(where) ? `${colors.bold(where)}${colors.red(text.slice(where.length))}` : colors.red(text);
}
