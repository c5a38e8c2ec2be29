/**
 * The goals of issue 11, checked against one report from ratios measured in the same run (only
 * those whose scenario ran). Each ratio compares medians of the repeats.
 */
import type { PathSummary } from '../measure.js';
import type { BenchReport } from '../run-bench.js';

export interface TargetCheck {
  readonly target: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean;
}

/** Gateway, hooks and load generator CPU per review: what one review costs the machine. */
export const totalCpu = (p: PathSummary): number => Object.values(p.cpuMicrosPerReview).reduce((s, v) => s + v, 0);

/** Gateway and hooks CPU per review (the load generator plays the apiserver and is the same for both). */
const serverCpu = (p: PathSummary): number =>
  (p.cpuMicrosPerReview['gateway'] ?? 0) + (p.cpuMicrosPerReview['hooks'] ?? 0);

export function checkTargets(report: BenchReport): TargetCheck[] {
  const path = (scenario: string, id: string): PathSummary | undefined =>
    report.scenarios.find((s) => s.id === scenario)?.paths.find((p) => p.id === id);
  const pair = (scenario: string, a = 'gateway', b = 'baseline') => {
    const x = path(scenario, a);
    const y = path(scenario, b);
    return x === undefined || y === undefined ? undefined : ([x, y] as const);
  };
  const checks: TargetCheck[] = [];
  const hooks = `${report.options.mutating}+${report.options.validating}`;
  const throughput = (target: string, [g, b]: readonly [PathSummary, PathSummary], min: number) =>
    checks.push({
      target,
      goal: `≥ ${min.toFixed(1)}×`,
      measured: `${ratio(g.maxPerSecond, b.maxPerSecond)} (${fmtInt(g.maxPerSecond)} vs ${fmtInt(b.maxPerSecond)}/s)`,
      met: g.maxPerSecond >= min * b.maxPerSecond,
    });

  const noop = pair('noop');
  if (noop !== undefined) {
    const [g, b] = noop;
    throughput(`1. ${hooks} no-op, six plugin processes: throughput ÷ plain webhooks`, noop, 1.0);
    checks.push({
      target: `1. ${hooks} no-op: total CPU per review ÷ plain webhooks`,
      goal: '≤ 1.0×',
      measured: `${ratio(totalCpu(g), totalCpu(b))} (${fmtInt(totalCpu(g))} vs ${fmtInt(totalCpu(b))} µs)`,
      met: totalCpu(g) <= totalCpu(b),
    });
    checks.push({
      target: `1. ${hooks} no-op: p99 at half load ÷ plain webhooks`,
      goal: '≤ 1.0×',
      measured: `${ratio(g.halfLoadP99Ms, b.halfLoadP99Ms)} (${ms(g.halfLoadP99Ms)} vs ${ms(b.halfLoadP99Ms)} ms)`,
      met: g.halfLoadP99Ms <= b.halfLoadP99Ms,
    });
  }
  const one = pair('one-process');
  if (one !== undefined) throughput(`2. ${hooks} no-op, one plugin process: throughput ÷ plain webhooks`, one, 1.5);
  const realistic = pair('realistic');
  if (realistic !== undefined) throughput(`3. ${hooks} realistic: throughput ÷ plain webhooks`, realistic, 0.9);
  const bridge = pair('bridge');
  if (bridge !== undefined) throughput(`4. bridge, ${hooks} https webhooks: throughput ÷ direct https`, bridge, 0.9);
  const noMatch = pair('no-match', 'gateway', 'one-call');
  if (noMatch !== undefined) {
    const [g, c] = noMatch;
    checks.push({
      target: '4. a review no hook matches vs one direct call to a no-op webhook: p50 unloaded',
      goal: '≤ 1.0×',
      measured: `${ratio(g.unloadedP50Ms, c.unloadedP50Ms)} (${ms(g.unloadedP50Ms)} vs ${ms(c.unloadedP50Ms)} ms; throughput ${ratio(g.maxPerSecond, c.maxPerSecond)})`,
      met: g.unloadedP50Ms <= c.unloadedP50Ms,
    });
  }
  if (noop !== undefined) {
    const [g, b] = noop;
    const added = g.unloadedP50Ms - b.unloadedP50Ms;
    checks.push({
      target: `5. unloaded p50 the gateway adds (${hooks} no-op)`,
      goal: '≤ 0.3 ms',
      measured: `${ms(added)} ms (${ms(g.unloadedP50Ms)} vs ${ms(b.unloadedP50Ms)} ms)`,
      met: added <= 0.3,
    });
  }
  const scale = report.scenarios.find((s) => s.id === 'scale');
  if (scale !== undefined && scale.paths.length === 2) {
    const [small, large] = scale.paths as [PathSummary, PathSummary];
    checks.push({
      target: `6. ${large.id.replace('hooks-', '')} registered hooks ÷ ${small.id.replace('hooks-', '')}: gateway + hooks CPU per review`,
      goal: '≤ 1.05×',
      measured: `${ratio(serverCpu(large), serverCpu(small))} (${fmtInt(serverCpu(large))} vs ${fmtInt(serverCpu(small))} µs)`,
      met: serverCpu(large) <= 1.05 * serverCpu(small),
    });
  }
  return checks;
}

function ratio(x: number, y: number): string {
  return Number.isFinite(x / y) ? `${(x / y).toFixed(2)}×` : '–';
}

function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : '–';
}

export function fmtInt(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–';
}
