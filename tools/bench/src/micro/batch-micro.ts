/**
 * Per-plugin batching, measured alone: one SDK plugin process serving three no-op validating hooks,
 * called the way the gateway's validating chain calls them (pluginTransport.invokeTogether, the
 * received review forwarded), once by a plugin that declares admit_batch (one message per review)
 * and once by the same plugin without it (one message per hook). Each plugin runs in a child
 * process on a unix socket; its CPU is read from /proc.
 *
 *   node --conditions=development --import tsx tools/bench/src/micro/batch-micro.ts \
 *     [--reviews 3000] [--concurrency 16] [--hooks 3] [--runs 3]
 *
 * Medians of the runs; on a shared machine read the ratios, not the absolute figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AdmissionRequest, Hook, HookCall } from '@hookgate/admission';
import { definePlugin, servePlugin } from '@hookgate/plugin-sdk';
import { pluginTransport } from '@hookgate/gateway';
import { createPluginClient, type PluginClient } from '@hookgate/plugin-client';
import { processCpuMs } from '../load/proc-cpu.js';
import { podReviewRequest } from './pod-request.js';
import { medianOfRuns } from '../stats.js';

const { values: args } = parseArgs({
  options: {
    serve: { type: 'string' },
    batch: { type: 'string', default: 'true' },
    hooks: { type: 'string', default: '3' },
    reviews: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '16' },
    runs: { type: 'string', default: '3' },
  },
});

const hookCount = Number(args.hooks);
const hookNames = Array.from({ length: hookCount }, (_, i) => `check-${i}.example.com`);

interface Result {
  readonly perSecond: number;
  readonly gatewayMicrosPerReview: number;
  readonly pluginMicrosPerReview: number;
  readonly serialP50Ms: number;
}

async function startPlugin(socket: string, batch: boolean): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      // The same loader and conditions as this process (tsx, development sources).
      ...process.execArgv,
      fileURLToPath(import.meta.url),
      '--serve',
      socket,
      '--batch',
      String(batch),
      '--hooks',
      String(hookCount),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`plugin process exited with ${code}`)));
  });
  return child;
}

async function runBenchmark(): Promise<void> {
  const reviews = Number(args.reviews);
  const concurrency = Number(args.concurrency);
  const runs = Number(args.runs);
  const request = podReviewRequest(8);
  const body = Buffer.from(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-batch-micro-'));
  const children: ChildProcess[] = [];
  try {
    const setups: { name: string; client: PluginClient; pid: number }[] = [];
    for (const batch of [false, true]) {
      const socket = path.join(dir, `${batch ? 'batch' : 'plain'}.sock`);
      const child = await startPlugin(socket, batch);
      children.push(child);
      const client = createPluginClient('bench', `unix://${socket}`, { circuitBreaker: false });
      const capabilities = await client.describe();
      if (capabilities.batch !== batch) throw new Error(`the plugin declares admit_batch=${capabilities.batch}`);
      setups.push({
        name: batch ? 'one message per review (admit_batch)' : 'one message per hook',
        client,
        pid: child.pid ?? 0,
      });
    }
    console.log(
      `batch-micro: ${hookCount} validating hooks in one plugin, ${reviews} reviews x ${runs} runs, concurrency ${concurrency}, review ${(body.length / 1024).toFixed(1)} KiB, node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`,
    );
    const samples = new Map<string, Result[]>(setups.map((s) => [s.name, []]));
    for (const s of setups) await measure(s.client, s.pid, request, body, 500, concurrency); // warm-up
    // Interleaved, so that both see the same machine.
    for (let r = 0; r < runs; r++)
      for (const s of setups)
        samples.get(s.name)!.push(await measure(s.client, s.pid, request, body, reviews, concurrency));
    const rows = [...samples].map(([name, results]) => ({ name, ...medianOfRuns(results) }));
    const base = rows[0]!;
    console.table(
      rows.map((r) => ({
        scenario: r.name,
        'reviews/s': Math.round(r.perSecond),
        'gateway CPU µs/review': Math.round(r.gatewayMicrosPerReview),
        'plugin CPU µs/review': Math.round(r.pluginMicrosPerReview),
        'p50 ms (serial)': r.serialP50Ms.toFixed(3),
        'throughput ×': (r.perSecond / base.perSecond).toFixed(2),
        'total CPU ×': (
          (r.gatewayMicrosPerReview + r.pluginMicrosPerReview) /
          (base.gatewayMicrosPerReview + base.pluginMicrosPerReview)
        ).toFixed(2),
      })),
    );
    for (const s of setups) s.client.close();
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (c) => new Promise((resolve) => (c.exitCode === null ? c.once('exit', resolve) : resolve(undefined))),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  }
}

const hooks = hookNames.map(
  (name, index) =>
    ({
      uid: `bench/${name}/0`,
      name,
      phase: 'validating',
      configurationName: 'bench',
      index,
      target: { kind: 'plugin', plugin: 'bench' },
      timeoutSeconds: 10,
    }) as Partial<Hook> as Hook,
);
const never = new AbortController().signal;
const NO_PATCH: readonly never[] = [];

async function measure(
  client: PluginClient,
  pluginPid: number,
  request: AdmissionRequest,
  body: Buffer,
  reviews: number,
  concurrency: number,
): Promise<Result> {
  const clients = new Map([['bench', client]]);
  let uid = 0;
  // One review: a fresh transport (as the gateway builds per review), the hooks started together.
  const review = async (): Promise<void> => {
    const transport = pluginTransport(clients, { received: { bytes: body, form: 'review', request } });
    const deadline = Date.now() + 10_000;
    const calls: HookCall[] = hooks.map((hook) => ({
      hook,
      request: { ...request, uid: `uid-${++uid}` },
      version: 'v1',
      round: 0,
      deadline,
      timeoutSeconds: 10,
      patchFromOriginal: NO_PATCH,
    }));
    const replies = await Promise.all(transport.invokeTogether(calls, never));
    for (const reply of replies) if (!reply.ok) throw new Error(`call failed: ${reply.failure.message}`);
  };
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const pluginBefore = processCpuMs(pluginPid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < reviews) await review();
    }),
  );
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const pluginMs = processCpuMs(pluginPid) - pluginBefore;
  const serial = new Float64Array(200);
  for (let i = 0; i < serial.length; i++) {
    const t0 = performance.now();
    await review();
    serial[i] = performance.now() - t0;
  }
  serial.sort();
  return {
    perSecond: (reviews / elapsed) * 1000,
    gatewayMicrosPerReview: (cpu.user + cpu.system) / reviews,
    pluginMicrosPerReview: (pluginMs * 1000) / reviews,
    serialP50Ms: serial[Math.floor(serial.length / 2)]!,
  };
}

// Entry point last: the module-level constants above must be initialised first.
if (args.serve !== undefined) {
  await servePlugin(
    definePlugin({
      name: 'bench',
      hooks: Object.fromEntries(
        hookNames.map((name) => [name, { phase: 'validating' as const, validate: () => ({ allowed: true }) }]),
      ),
    }),
    { listen: `unix://${args.serve}`, logger: false, handleSignals: true, admitBatch: args.batch === 'true' },
  );
  process.stdout.write('ready\n');
} else {
  await runBenchmark();
}
