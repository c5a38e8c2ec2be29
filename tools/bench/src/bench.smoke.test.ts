import { describe, expect, it } from 'vitest';
import { formatReport } from './report/format-report.js';
import { checkTargets } from './report/targets.js';
import { runBench, type BenchOptions } from './run-bench.js';

// The whole harness, for a fraction of a second: real gateway, plugin, webhook and load processes.
const tiny: BenchOptions = {
  scenarios: ['noop'],
  mutating: 1,
  validating: 1,
  workers: 1,
  repeats: 1,
  durationMs: 150,
  maxReviews: 10_000,
  concurrency: [2],
  warmupMs: 100,
  scale: [10, 1000],
  cpuProfile: false,
};

describe('bench harness', () => {
  it('measures the gateway and the baseline and reports numbers for both', async () => {
    const report = await runBench(tiny);
    const paths = report.scenarios[0]!.paths;
    expect(paths.map((p) => p.id)).toEqual(['gateway', 'baseline']);
    for (const p of paths) {
      expect(p.maxPerSecond, p.label).toBeGreaterThan(0);
      expect(p.unloadedP50Ms, p.label).toBeGreaterThan(0);
      expect(Number.isFinite(p.halfLoadP99Ms), p.label).toBe(true);
    }
    expect(report.reviewBytes).toBeGreaterThan(7500);
    expect(formatReport(report)).toMatch(/ratio gateway ÷ baseline/);
  }, 60_000);

  it('runs the one-process, bridge and no-match scenarios and checks their goals', async () => {
    const report = await runBench({ ...tiny, scenarios: ['one-process', 'bridge', 'no-match'] });
    const ids = (scenario: string) => report.scenarios.find((s) => s.id === scenario)?.paths.map((p) => p.id);
    expect(ids('one-process')).toEqual(['gateway', 'baseline']);
    expect(ids('bridge')).toEqual(['gateway', 'baseline']);
    expect(ids('no-match')).toEqual(['gateway', 'one-call']);
    for (const p of report.scenarios.flatMap((s) => s.paths)) {
      expect(p.maxPerSecond, p.label).toBeGreaterThan(0);
      expect(Object.keys(p.cpuMicrosPerReview).sort(), p.label).toEqual(
        p.id === 'gateway' ? ['driver', 'gateway', 'hooks'] : ['driver', 'hooks'],
      );
    }
    const goals = checkTargets(report).map((t) => t.target.slice(0, 2));
    expect(goals).toEqual(['2.', '4.', '4.']);
    expect(formatReport(report)).toMatch(/goals \(issue 11\)[\s\S]*bridge[\s\S]*(MET|NOT MET)/);
  }, 120_000);
});
