/**
 * What is measured for one path (the gateway, or the plain webhooks), per repeat:
 *   - unloaded: one review at a time (closed loop, concurrency 1): p50 and p99;
 *   - saturated: closed loops at each concurrency level; the best throughput is the path's maximum,
 *     and CPU per review (gateway, hooks, load generator) is taken from that run;
 *   - half load: reviews started at half that maximum rate (open loop): p50 and p99.
 * Medians across repeats make the summary.
 */
import os from 'node:os';
import type { LoadResult, TargetSpec } from './load/protocol.js';
import type { LoadgenClient } from './processes/loadgen-client.js';
import { median } from './stats.js';

export interface MeasureSettings {
  readonly durationMs: number;
  readonly maxReviews: number;
  readonly concurrency: readonly number[];
  readonly warmupMs: number;
  readonly repeats: number;
}

export interface PathUnderTest {
  /** A stable id used in the report and the JSON (`gateway`, `baseline`, `hooks-10`...). */
  readonly id: string;
  readonly label: string;
  readonly target: TargetSpec;
  /** Process groups whose CPU time is attributed to each review: `gateway`, `hooks`. */
  readonly cpuPids: Readonly<Record<string, readonly number[]>>;
}

export interface RepeatMeasurement {
  readonly unloaded: LoadResult;
  readonly saturated: LoadResult;
  readonly saturatedConcurrency: number;
  readonly halfLoad: LoadResult;
}

export interface PathSummary {
  readonly id: string;
  readonly label: string;
  readonly repeats: number;
  /** Reviews per second at saturation (median of each repeat's best level). */
  readonly maxPerSecond: number;
  /** The concurrency level that gave the best throughput most often. */
  readonly concurrency: number;
  readonly unloadedP50Ms: number;
  readonly unloadedP99Ms: number;
  readonly halfLoadPerSecond: number;
  readonly halfLoadP50Ms: number;
  readonly halfLoadP99Ms: number;
  /** CPU microseconds per review at saturation, by process group (`driver` is the load generator). */
  readonly cpuMicrosPerReview: Readonly<Record<string, number>>;
  /**
   * Reviews/s all cores could sustain at that CPU cost of the gateway and the hooks (the load
   * generator, which plays the apiserver, left out): less sensitive to other tenants than maxPerSecond.
   */
  readonly cpuBoundPerSecond: number;
  /** Every repeat, for the JSON output. */
  readonly runs: readonly RepeatMeasurement[];
}

export type Progress = (line: string) => void;

export async function measurePaths(
  loadgen: LoadgenClient,
  paths: readonly PathUnderTest[],
  settings: MeasureSettings,
  progress: Progress,
): Promise<PathSummary[]> {
  const peak = Math.max(...settings.concurrency);
  for (const path of paths) {
    checked(
      path,
      await loadgen.run(
        path.target,
        { kind: 'closed', concurrency: peak, durationMs: settings.warmupMs, maxReviews: settings.maxReviews },
        {},
      ),
    );
  }
  const runs = new Map<string, RepeatMeasurement[]>(paths.map((p) => [p.id, []]));
  for (let repeat = 0; repeat < settings.repeats; repeat++) {
    // Alternate the order so that a slow patch of the shared machine does not always hit the same path.
    const order = repeat % 2 === 0 ? paths : [...paths].reverse();
    for (const path of order) {
      const measurement = await measureOnce(loadgen, path, settings);
      runs.get(path.id)!.push(measurement);
      progress(
        `  ${path.label.padEnd(28)} repeat ${repeat + 1}/${settings.repeats}: ${Math.round(measurement.saturated.perSecond)}/s (c=${measurement.saturatedConcurrency}), ` +
          `p50 ${measurement.unloaded.p50Ms.toFixed(2)} ms unloaded, p99 ${measurement.halfLoad.p99Ms.toFixed(2)} ms at half load`,
      );
    }
  }
  return paths.map((path) => summarize(path, runs.get(path.id)!));
}

async function measureOnce(
  loadgen: LoadgenClient,
  path: PathUnderTest,
  settings: MeasureSettings,
): Promise<RepeatMeasurement> {
  const bounded = { durationMs: settings.durationMs, maxReviews: settings.maxReviews };
  const unloaded = checked(
    path,
    await loadgen.run(path.target, { kind: 'closed', concurrency: 1, ...bounded }, path.cpuPids),
  );
  let saturated: LoadResult | undefined;
  let saturatedConcurrency = 0;
  for (const concurrency of settings.concurrency) {
    const result = checked(
      path,
      await loadgen.run(path.target, { kind: 'closed', concurrency, ...bounded }, path.cpuPids),
    );
    if (saturated === undefined || result.perSecond > saturated.perSecond) {
      saturated = result;
      saturatedConcurrency = concurrency;
    }
  }
  const halfLoad = checked(
    path,
    await loadgen.run(path.target, { kind: 'paced', rate: saturated!.perSecond / 2, ...bounded }, path.cpuPids),
  );
  return { unloaded, saturated: saturated!, saturatedConcurrency, halfLoad };
}

/** A benchmark of failing reviews measures nothing: stop with the first error. */
function checked(path: PathUnderTest, result: LoadResult): LoadResult {
  if (result.errors > 0)
    throw new Error(
      `${path.label}: ${result.errors} of ${result.errors + result.completed} reviews failed; first: ${result.firstError}`,
    );
  if (result.completed === 0) throw new Error(`${path.label}: no review completed`);
  return result;
}

function summarize(path: PathUnderTest, runs: readonly RepeatMeasurement[]): PathSummary {
  const cpuGroups = new Set(runs.flatMap((r) => Object.keys(r.saturated.cpuMs)));
  const cpuMicrosPerReview: Record<string, number> = {};
  for (const group of cpuGroups)
    cpuMicrosPerReview[group] = median(
      runs.map((r) => ((r.saturated.cpuMs[group] ?? Number.NaN) * 1000) / r.saturated.completed),
    );
  return {
    id: path.id,
    label: path.label,
    repeats: runs.length,
    maxPerSecond: median(runs.map((r) => r.saturated.perSecond)),
    concurrency: mostFrequent(runs.map((r) => r.saturatedConcurrency)),
    unloadedP50Ms: median(runs.map((r) => r.unloaded.p50Ms)),
    unloadedP99Ms: median(runs.map((r) => r.unloaded.p99Ms)),
    halfLoadPerSecond: median(runs.map((r) => r.halfLoad.perSecond)),
    halfLoadP50Ms: median(runs.map((r) => r.halfLoad.p50Ms)),
    halfLoadP99Ms: median(runs.map((r) => r.halfLoad.p99Ms)),
    cpuMicrosPerReview,
    cpuBoundPerSecond: median(
      runs.map(
        (r) =>
          (os.availableParallelism() * 1e6 * r.saturated.completed) /
          (((r.saturated.cpuMs['gateway'] ?? 0) + (r.saturated.cpuMs['hooks'] ?? 0)) * 1000),
      ),
    ),
    runs,
  };
}

function mostFrequent(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}
