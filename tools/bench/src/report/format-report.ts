/** The human-readable report: one table of medians with ratios, then the targets. */
import type { PathSummary } from '../measure.js';
import { formatProfileSummary } from '../profile/summarize-profile.js';
import type { BenchReport, ScenarioResult } from '../run-bench.js';
import { checkTargets, fmtInt, totalCpu } from './targets.js';

const COLUMNS = [
  'path',
  'max reviews/s',
  'conc',
  'p50 c=1',
  'p99 c=1',
  'p50 ½',
  'p99 ½',
  'CPU µs/review gw|hooks|driver',
  'CPU-bound/s',
] as const;

export function formatReport(report: BenchReport): string {
  const { machine, options } = report;
  const lines = [
    `Hookgate benchmark, ${report.startedAt}`,
    `machine: ${machine.cpus} CPUs (${machine.cpuModel}), node ${machine.node}, ${machine.platform}`,
    `contention: load average ${machine.loadAverageBefore.toFixed(2)} before, ${machine.loadAverageAfter.toFixed(2)} after; a spinning thread got ${pct(machine.cpuShareBefore)} / ${pct(machine.cpuShareAfter)} of a core (shared machine: absolute figures are noisy, ratios less so)`,
    `review: Pod CREATE AdmissionReview v1, ${fmtInt(report.reviewBytes)} bytes. One review = one Pod admitted through all its hooks, as the apiserver does it:`,
    `  through the gateway POST /mutate, apply the patch, POST /validate; plain webhooks: mutating in turn (each patch applied), validating concurrently.`,
    `gateway: hookgate serve, ${options.workers} workers (workers scenario: 1/2/3), plain http (bridge: https); plugins: SDK, one process per hook (one-process: one for all), unix sockets.`,
    `baseline: node:http webhooks, one process per hook (bridge: the same over https, called directly and through the gateway's bridge).`,
    `load: a separate process (undici pools, keep-alive, no pipelining, prebuilt bodies, answers checked without a full parse); max = best closed loop of concurrency ${options.concurrency.join('/')}; ½ = open loop at half that rate.`,
    `figures: medians of ${options.repeats} repeats of ${options.durationMs} ms per measurement; latency in ms per review.`,
    `CPU-bound/s: ${machine.cpus} cores ÷ (gateway + hooks CPU per review), the load generator left out: what the cores could sustain without other tenants.`,
    '',
  ];
  const rows: string[][] = [];
  for (const scenario of report.scenarios) {
    rows.push([`${scenario.id}: ${scenario.title}`]);
    for (const path of scenario.paths) rows.push(pathRow(path));
    const ratio = ratioRow(scenario);
    if (ratio) rows.push(ratio);
  }
  lines.push(...table([[...COLUMNS], ...rows]), '');
  const targets = checkTargets(report);
  if (targets.length > 0) {
    lines.push(
      'goals (issue 11), from ratios measured in this run:',
      ...table([
        ['target', 'goal', 'measured', ''],
        ...targets.map((t) => [t.target, t.goal, t.measured, t.met ? 'MET' : 'NOT MET']),
      ]),
      '',
    );
  }
  for (const scenario of report.scenarios)
    for (const profile of scenario.profiles ?? [])
      lines.push(`${scenario.id}: ${formatProfileSummary('the gateway workers', profile)}`, '');
  for (const profile of report.pluginProfiles ?? [])
    lines.push(`all scenarios: ${formatProfileSummary('the plugin processes', profile)}`, '');
  return lines.join('\n');
}

function pathRow(p: PathSummary): string[] {
  const cpu = ['gateway', 'hooks', 'driver']
    .map((g) => (p.cpuMicrosPerReview[g] === undefined ? '–' : fmtInt(p.cpuMicrosPerReview[g]!)))
    .join(' | ');
  return [
    `  ${p.label}`,
    fmtInt(p.maxPerSecond),
    String(p.concurrency),
    ms(p.unloadedP50Ms),
    ms(p.unloadedP99Ms),
    ms(p.halfLoadP50Ms),
    ms(p.halfLoadP99Ms),
    cpu,
    fmtInt(p.cpuBoundPerSecond),
  ];
}

/** Main scenarios: gateway ÷ baseline. Scale: large ÷ small. Throughput higher is better, latency lower. */
function ratioRow(scenario: ScenarioResult): string[] | undefined {
  const pair = ratioPair(scenario);
  if (pair === undefined) return undefined;
  const [a, b, label] = pair;
  const r = (x: number, y: number) => (Number.isFinite(x / y) ? `${(x / y).toFixed(2)}×` : '–');
  return [
    `  ${label}`,
    r(a.maxPerSecond, b.maxPerSecond),
    '',
    r(a.unloadedP50Ms, b.unloadedP50Ms),
    r(a.unloadedP99Ms, b.unloadedP99Ms),
    r(a.halfLoadP50Ms, b.halfLoadP50Ms),
    r(a.halfLoadP99Ms, b.halfLoadP99Ms),
    `total ${r(totalCpu(a), totalCpu(b))}`,
    r(a.cpuBoundPerSecond, b.cpuBoundPerSecond),
  ];
}

/** Which two paths a scenario's ratio row compares (numerator first). */
function ratioPair(scenario: ScenarioResult): [PathSummary, PathSummary, string] | undefined {
  const find = (id: string) => scenario.paths.find((p) => p.id === id);
  let pair: [PathSummary | undefined, PathSummary | undefined, string];
  if (scenario.id === 'scale') {
    const [small, large] = scenario.paths;
    pair = [large, small, `ratio ${large?.id.replace('hooks-', '')} ÷ ${small?.id.replace('hooks-', '')} hooks`];
  } else if (scenario.id === 'workers') pair = [find('workers-1'), find('workers-2'), 'ratio 1 ÷ 2 workers'];
  else if (scenario.id === 'no-match') pair = [find('gateway'), find('one-call'), 'ratio review ÷ one call'];
  else pair = [find('gateway'), find('baseline'), 'ratio gateway ÷ baseline'];
  const [a, b, label] = pair;
  return a === undefined || b === undefined ? undefined : [a, b, label];
}

function pct(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : '–';
}

/** Left-aligned first column, right-aligned numbers; a single-cell row is a heading. */
function table(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows)
    if (row.length > 1) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    (row.length === 1
      ? row[0]!
      : row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
    ).trimEnd(),
  );
}
