/** `npm run bench -- [options]`: parsed and checked, with the defaults the docs quote. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchOptions } from './run-bench.js';
import { SCENARIO_IDS, isScenarioId, type ScenarioId } from './scenarios.js';

export const USAGE = `usage: npm run bench -- [options]
  --scenarios LIST    ${SCENARIO_IDS.join(',')} (default: all)
  --mutating N        mutating hooks in the main scenarios (default 3)
  --validating M      validating hooks in the main scenarios (default 3)
  --workers W         gateway workers (default 2)
  --repeats R         repeats per measurement; medians are reported (default 5)
  --duration-ms MS    length of each measurement (default 1500)
  --max-reviews K     cap on reviews per measurement (default 100000)
  --concurrency LIST  closed-loop levels tried for the maximum (default 4,16,48)
  --warmup-ms MS      warm-up per path before measuring (default 1500)
  --scale A,B         registered hooks in the scale scenario (default 10,1000)
  --cpu-prof          profile the gateway (node --cpu-prof) and print where its workers spend time
  --cpu-prof-dir DIR  with --cpu-prof: keep the raw .cpuprofile files under DIR (for DevTools)
  --json              print the report as JSON on stdout (progress stays on stderr)
  --save FILE         also write the report as JSON to FILE`;

export interface CliOptions {
  readonly bench: Omit<BenchOptions, 'progress'>;
  readonly json: boolean;
  readonly save: string | undefined;
}

export function parseCliOptions(argv: readonly string[]): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      scenarios: { type: 'string', default: SCENARIO_IDS.join(',') },
      mutating: { type: 'string', default: '3' },
      validating: { type: 'string', default: '3' },
      workers: { type: 'string', default: '2' },
      repeats: { type: 'string', default: '5' },
      'duration-ms': { type: 'string', default: '1500' },
      'max-reviews': { type: 'string', default: '100000' },
      concurrency: { type: 'string', default: '4,16,48' },
      'warmup-ms': { type: 'string', default: '1500' },
      scale: { type: 'string', default: '10,1000' },
      'cpu-prof': { type: 'boolean', default: false },
      'cpu-prof-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      save: { type: 'string' },
    },
  });
  const scenarios = list(values.scenarios, 'scenarios').map((s) => {
    if (!isScenarioId(s))
      throw new Error(`--scenarios: unknown scenario ${JSON.stringify(s)}; known: ${SCENARIO_IDS.join(', ')}`);
    return s;
  });
  const scale = list(values.scale, 'scale').map((s) => int(s, 'scale', 4));
  if (scale.length !== 2) throw new Error('--scale: two counts, e.g. 10,1000');
  return {
    json: values.json,
    save: values.save,
    bench: {
      scenarios: [...new Set<ScenarioId>(scenarios)],
      mutating: int(values.mutating, 'mutating', 0),
      validating: int(values.validating, 'validating', 0),
      workers: int(values.workers, 'workers', 1),
      repeats: int(values.repeats, 'repeats', 1),
      durationMs: int(values['duration-ms'], 'duration-ms', 50),
      maxReviews: int(values['max-reviews'], 'max-reviews', 10),
      concurrency: list(values.concurrency, 'concurrency').map((c) => int(c, 'concurrency', 1)),
      warmupMs: int(values['warmup-ms'], 'warmup-ms', 0),
      scale: [scale[0]!, scale[1]!],
      cpuProfile: values['cpu-prof'] || values['cpu-prof-dir'] !== undefined,
      ...(values['cpu-prof-dir'] === undefined ? {} : { cpuProfileDir: path.resolve(values['cpu-prof-dir']) }),
    },
  };
}

function list(value: string, flag: string): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new Error(`--${flag}: give at least one value`);
  return items;
}

function int(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${flag}: expected an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}
