/** The performance targets, checked against a report (only those whose scenario ran). */
import type { PathSummary } from '../measure.js';
import type { BenchReport } from '../run-bench.js';

export interface TargetCheck {
  readonly target: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean;
}

export function checkTargets(report: BenchReport): TargetCheck[] {
  const path = (scenario: string, id: string): PathSummary | undefined =>
    report.scenarios.find((s) => s.id === scenario)?.paths.find((p) => p.id === id);
  const checks: TargetCheck[] = [];
  const hooks = `${report.options.mutating}+${report.options.validating}`;
  for (const scenario of ['noop', 'realistic'] as const) {
    const gateway = path(scenario, 'gateway');
    if (gateway === undefined) continue;
    const kind = scenario === 'noop' ? 'no-op' : 'realistic';
    checks.push({
      target: `throughput, ${hooks} ${kind} plugins, both cores`,
      goal: '≥ 3,000 reviews/s',
      measured: `${fmtInt(gateway.maxPerSecond)} reviews/s (CPU-bound ${fmtInt(gateway.cpuBoundPerSecond)})`,
      met: gateway.maxPerSecond >= 3000,
    });
    if (scenario === 'noop')
      checks.push({
        target: `gateway-added p50, unloaded (${hooks} no-op)`,
        goal: '≤ 0.8 ms',
        measured: `${gateway.unloadedP50Ms.toFixed(2)} ms`,
        met: gateway.unloadedP50Ms <= 0.8,
      });
    checks.push({
      target: `p99 at half of max load (${hooks} ${kind})`,
      goal: '≤ 5 ms',
      measured: `${gateway.halfLoadP99Ms.toFixed(2)} ms at ${fmtInt(gateway.halfLoadPerSecond)}/s`,
      met: gateway.halfLoadP99Ms <= 5,
    });
  }
  const noMatch = path('no-match', 'gateway');
  if (noMatch !== undefined) {
    checks.push({
      target: 'no-match, reviews/s (each = /mutate + /validate)',
      goal: '≥ 20,000/s',
      measured: `${fmtInt(noMatch.maxPerSecond)}/s (CPU-bound ${fmtInt(noMatch.cpuBoundPerSecond)})`,
      met: noMatch.maxPerSecond >= 20_000,
    });
    checks.push({
      target: 'no-match, AdmissionReview calls/s',
      goal: '≥ 20,000/s',
      measured: `${fmtInt(noMatch.maxPerSecond * 2)}/s (CPU-bound ${fmtInt(noMatch.cpuBoundPerSecond * 2)})`,
      met: noMatch.maxPerSecond * 2 >= 20_000,
    });
  }
  return checks;
}

export function fmtInt(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–';
}
