/**
 * Two per-message costs of the plugin path, each measured alone in a tight loop (ns per message):
 *  - deadlines: a setTimeout + clearTimeout per message (the stream mux before) against one shared
 *    timer re-armed only for an earlier deadline (shared-deadline-timer.ts, the mux now);
 *  - metric labels: prom-client `observe({labels}, v)` (the SDK's per-call histogram) against a
 *    pre-bound child `labels(...).observe(v)` looked up in a Map (the gateway's outcome metrics).
 *
 *   node --conditions=development --import tsx tools/bench/src/micro/per-message-costs.ts
 */
import client from 'prom-client';
import { SharedDeadlineTimer } from '@hookgate/plugin-client';

const N = 300_000;
const ROUNDS = 3;

function nsPerOp(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / N;
}

const noop = (): void => undefined;

function timerPerMessage(): void {
  for (let i = 0; i < N; i++) clearTimeout(setTimeout(noop, 10_000));
}

function sharedTimer(): void {
  const pending = new Map<number, number>();
  const timer = new SharedDeadlineTimer(() => undefined);
  for (let i = 0; i < N; i++) {
    const deadline = performance.now() + 10_000;
    pending.set(i, deadline);
    timer.add(deadline);
    pending.delete(i);
  }
  timer.stop();
}

const registry = new client.Registry();
const histogram = new client.Histogram({
  name: 'bench_admit_duration_seconds',
  help: 'bench',
  labelNames: ['plugin', 'hook', 'outcome'] as const,
  buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
  registers: [registry],
});
const hooks = ['a.example.com', 'b.example.com', 'c.example.com'];

function observeWithLabels(): void {
  for (let i = 0; i < N; i++) histogram.observe({ plugin: 'p', hook: hooks[i % 3]!, outcome: 'allowed' }, 0.0003);
}

const children = new Map<string, client.Histogram.Internal<'plugin' | 'hook' | 'outcome'>>();
function observePreBound(): void {
  for (let i = 0; i < N; i++) {
    const hook = hooks[i % 3]!;
    const key = `${hook}\u0000allowed`;
    let child = children.get(key);
    if (child === undefined) children.set(key, (child = histogram.labels('p', hook, 'allowed')));
    child.observe(0.0003);
  }
}

for (let round = 0; round < ROUNDS; round++) {
  console.log(
    `deadlines: setTimeout+clearTimeout ${nsPerOp(timerPerMessage).toFixed(0)} ns, shared timer ${nsPerOp(sharedTimer).toFixed(0)} ns | ` +
      `labels: observe({labels}) ${nsPerOp(observeWithLabels).toFixed(0)} ns, pre-bound child ${nsPerOp(observePreBound).toFixed(0)} ns`,
  );
}
