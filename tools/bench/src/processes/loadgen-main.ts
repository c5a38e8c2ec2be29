/**
 * The load generator, in its own process: it plays the apiserver (see load/dispatch.ts) and runs the
 * measurements the harness asks for over IPC, one at a time, keeping its connection pools warm
 * between them. Its own CPU time is reported as `driver`.
 */
import { Dispatchers } from '../load/dispatch.js';
import { percentile, runLoad } from '../load/load-loops.js';
import { groupCpuMs } from '../load/proc-cpu.js';
import {
  targetKey,
  type LoadResult,
  type LoadgenCommand,
  type LoadgenReply,
  type RunCommand,
} from '../load/protocol.js';
import { ReviewBodies } from '../load/review-bodies.js';
import { podReview } from '../review/pod-review.js';
import { announceReady, exitWithParent } from './exit-with-parent.js';

const MAX_CONNECTIONS_PER_ORIGIN = Number(process.env['BENCH_MAX_CONNECTIONS'] ?? '256');

const bodies = new ReviewBodies(podReview());
const dispatchers = new Dispatchers(MAX_CONNECTIONS_PER_ORIGIN);
const admitters = new Map<string, ReturnType<Dispatchers['admitter']>>();

async function run(command: RunCommand): Promise<LoadResult> {
  const key = targetKey(command.target);
  let admit = admitters.get(key);
  if (admit === undefined) {
    admit = dispatchers.admitter(command.target, bodies);
    admitters.set(key, admit);
  }
  const cpuBefore = groupCpuMs(command.cpuPids);
  const driverBefore = process.cpuUsage();
  const samples = await runLoad(command.load, admit);
  const driver = process.cpuUsage(driverBefore);
  const cpuAfter = groupCpuMs(command.cpuPids);
  const sorted = Float64Array.from(samples.latenciesMs).sort();
  const cpuMs: Record<string, number> = { driver: (driver.user + driver.system) / 1000 };
  for (const group of Object.keys(cpuAfter)) cpuMs[group] = cpuAfter[group]! - (cpuBefore[group] ?? 0);
  return {
    completed: samples.completed,
    errors: samples.errors,
    firstError: samples.firstError,
    elapsedMs: samples.elapsedMs,
    perSecond: (samples.completed / samples.elapsedMs) * 1000,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
    cpuMs,
  };
}

function reply(message: LoadgenReply): void {
  process.send?.(message);
}

// One measurement at a time: a second one would compete for the same CPU.
let queue = Promise.resolve();
process.on('message', (message: LoadgenCommand) => {
  queue = queue.then(async () => {
    if (message.type === 'drop') {
      admitters.delete(targetKey(message.target));
      await dispatchers.drop(message.target);
      return;
    }
    try {
      reply({ type: 'result', id: message.id, result: await run(message) });
    } catch (error) {
      reply({ type: 'failed', id: message.id, error: (error as Error).stack ?? String(error) });
    }
  });
});
process.on('disconnect', () => process.exit(0));
exitWithParent(() => dispatchers.close());
announceReady();
