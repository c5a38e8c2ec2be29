/**
 * gRPC micro-benchmark: what one hook call costs the gateway and the plugin, unary Admit vs the
 * multiplexed AdmitStream, with the request re-encoded per call vs the received bytes forwarded
 * (+ patch), and a handler that reads only metadata vs one that reads the object (the SDK parses the
 * forwarded review only then). The plugin (SDK) runs in a child process on a unix socket; its CPU
 * is read from /proc.
 *
 *   node --import tsx tools/bench/grpc-micro.ts [--calls 20000] [--concurrency 32] [--object-kb 8] [--runs 3]
 *   (or: npm run bench:grpc-micro -w tools/bench -- --runs 3)
 *
 * Figures are medians of the runs; absolute numbers on a shared 2-core machine are noisy, the
 * ratios are what to read.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AdmissionRequest, Hook, HookCall, PatchOperation } from '@hookgate/admission';
import { definePlugin, servePlugin } from '@hookgate/plugin-sdk';
import { pluginInvoker } from '@hookgate/gateway';
import { createPluginClient, type PluginClient } from '@hookgate/plugin-client';
import { processCpuMs } from './src/load/proc-cpu.js';
import { podReviewRequest } from './src/micro/pod-request.js';
import { medianOfRuns } from './src/stats.js';

type ReceivedRequest = NonNullable<NonNullable<Parameters<typeof pluginInvoker>[1]>['received']>;

const { values: args } = parseArgs({
  options: {
    serve: { type: 'string' },
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '32' },
    'object-kb': { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
  },
});

interface Scenario {
  readonly name: string;
  readonly client: PluginClient;
  readonly received: ReceivedRequest | undefined;
  readonly patch: readonly PatchOperation[];
  /** The plugin's hook: a no-op, or one that reads the object (and so parses the request). */
  readonly hook: Hook;
}

interface Result {
  readonly perSecond: number;
  readonly cpuMicrosPerCall: number;
  readonly pluginCpuMicrosPerCall: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly serialP50Ms: number;
}

async function runBenchmark(): Promise<void> {
  const calls = Number(args.calls);
  const concurrency = Number(args.concurrency);
  const runs = Number(args.runs);
  const request = podReviewRequest(Number(args['object-kb']));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-bench-'));
  const socket = path.join(dir, 'bench.sock');
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', socket], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`plugin process exited with ${code}`)));
    });
    const target = `unix://${socket}`;
    const unary = createPluginClient('bench', target, { transport: 'unary', circuitBreaker: false });
    const stream = createPluginClient('bench', target, { circuitBreaker: false });
    const body = Buffer.from(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }));
    const received: ReceivedRequest = { bytes: body, form: 'review', request };
    const patch: PatchOperation[] = [{ op: 'add', path: '/metadata/labels/team', value: 'core' }];
    const scenarios: Scenario[] = [
      { name: 'unary, request encoded per call', client: unary, received: undefined, patch: [], hook },
      { name: 'stream, request encoded per call', client: stream, received: undefined, patch: [], hook },
      { name: 'stream, received bytes forwarded', client: stream, received, patch: [], hook },
      { name: 'stream, received bytes + patch', client: stream, received, patch, hook },
      { name: 'stream, forwarded, handler reads object', client: stream, received, patch: [], hook: readingHook },
    ];
    console.log(
      `grpc-micro: ${calls} calls x ${runs} runs, concurrency ${concurrency}, request ${(Buffer.byteLength(JSON.stringify(request)) / 1024).toFixed(1)} KiB, node ${process.version}, ${os.cpus().length} CPUs`,
    );
    const results = new Map<string, Result>();
    for (const scenario of scenarios) {
      await measure(scenario, request, 2000, concurrency, child.pid ?? 0); // warm-up: JIT, channel, stream
      const samples: Result[] = [];
      for (let r = 0; r < runs; r++) samples.push(await measure(scenario, request, calls, concurrency, child.pid ?? 0));
      results.set(scenario.name, medianOfRuns(samples));
    }
    printTable(results);
    unary.close();
    stream.close();
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    await rm(dir, { recursive: true, force: true });
  }
}

const hook = {
  uid: 'bench/noop/0',
  name: 'noop',
  phase: 'validating',
  configurationName: 'bench',
  index: 0,
  target: { kind: 'plugin', plugin: 'bench' },
  timeoutSeconds: 10,
} as Partial<Hook> as Hook;
const readingHook = { ...hook, uid: 'bench/reads-object/0', name: 'reads-object' } as Hook;
const never = new AbortController().signal;

async function measure(
  scenario: Scenario,
  request: AdmissionRequest,
  calls: number,
  concurrency: number,
  pluginPid: number,
): Promise<Result> {
  const invoke = pluginInvoker(new Map([['bench', scenario.client]]), { received: scenario.received });
  // The chain hands each call the object as patched so far; made once here, not per call.
  const object = scenario.patch.length === 0 ? request.object : patched(request);
  const makeCall = (i: number): HookCall => ({
    hook: scenario.hook,
    request: { ...request, uid: `uid-${i}`, object },
    version: 'v1',
    round: 0,
    deadline: Date.now() + 10_000,
    timeoutSeconds: 10,
    patchFromOriginal: scenario.patch,
  });
  const latencies = new Float64Array(calls);
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const pluginBefore = processCpuMs(pluginPid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        const i = next++;
        const t0 = performance.now();
        const reply = await invoke(makeCall(i), never);
        if (!reply.ok) throw new Error(`call failed: ${reply.failure.message}`);
        latencies[i] = performance.now() - t0;
      }
    }),
  );
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const pluginMs = processCpuMs(pluginPid) - pluginBefore;
  const serial = new Float64Array(Math.min(500, calls));
  for (let i = 0; i < serial.length; i++) {
    const t0 = performance.now();
    await invoke(makeCall(i), never);
    serial[i] = performance.now() - t0;
  }
  latencies.sort();
  serial.sort();
  return {
    perSecond: (calls / elapsed) * 1000,
    cpuMicrosPerCall: (cpu.user + cpu.system) / calls,
    pluginCpuMicrosPerCall: (pluginMs * 1000) / calls,
    p50Ms: latencies[Math.floor(calls * 0.5)]!,
    p99Ms: latencies[Math.floor(calls * 0.99)]!,
    serialP50Ms: serial[Math.floor(serial.length * 0.5)]!,
  };
}

function patched(request: AdmissionRequest): AdmissionRequest['object'] {
  const object = structuredClone(request.object) as { metadata: { labels: Record<string, string> } };
  object.metadata.labels.team = 'core';
  return object as unknown as AdmissionRequest['object'];
}

function printTable(results: Map<string, Result>): void {
  const base = results.values().next().value as Result;
  const rows = [...results].map(([name, r]) => ({
    scenario: name,
    'calls/s': Math.round(r.perSecond),
    'gateway CPU µs/call': Math.round(r.cpuMicrosPerCall),
    'plugin CPU µs/call': Math.round(r.pluginCpuMicrosPerCall),
    'p50 ms (loaded)': r.p50Ms.toFixed(2),
    'p99 ms (loaded)': r.p99Ms.toFixed(2),
    'p50 ms (serial)': r.serialP50Ms.toFixed(3),
    'CPU vs unary': (r.cpuMicrosPerCall / base.cpuMicrosPerCall).toFixed(2),
  }));
  console.table(rows);
}

// Entry point last: the module-level constants above must be initialised first.
if (args.serve !== undefined) {
  await servePlugin(
    definePlugin({
      name: 'bench',
      hooks: {
        noop: { phase: 'validating', validate: () => ({ allowed: true }) },
        // Reads the object (so the SDK parses the request) and allows.
        'reads-object': {
          phase: 'validating',
          validate: (req) => (req.object === undefined ? { allowed: false, message: 'no object' } : { allowed: true }),
        },
        'noop-mutate': { phase: 'mutating', mutate: () => undefined },
      },
    }),
    { listen: `unix://${args.serve}`, logger: false, handleSignals: true },
  );
  process.stdout.write('ready\n');
} else {
  await runBenchmark();
}
