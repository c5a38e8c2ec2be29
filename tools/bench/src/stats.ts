/** Medians across repeats. */
export function median(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const mid = Math.floor(finite.length / 2);
  return finite.length % 2 === 1 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

/**
 * A row of per-run figures reduced to one: each numeric field's median across the runs (the upper
 * middle value for an even count, as the micro-benchmarks report it); other fields from the first run.
 */
export function medianOfRuns<T extends object>(runs: readonly T[]): T {
  const first = runs[0];
  if (first === undefined) throw new Error('medianOfRuns: no runs to take the median of');
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(first)) {
    row[key] =
      typeof value === 'number'
        ? runs.map((r) => (r as Record<string, number>)[key]!).sort((a, b) => a - b)[Math.floor(runs.length / 2)]
        : value;
  }
  return row as T;
}
