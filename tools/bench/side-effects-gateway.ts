/**
 * What a side effect adds to a review through the whole gateway process (issue goals: at most
 * 50 µs of gateway CPU per review, at most 1 ms added p50 with Redis up), and the rate of reviews
 * with side effects while Redis is down (every job fsynced to the spool).
 *
 * One plugin process (SDK, unix socket) serves two validating hooks: `noop.bench.hookgate.dev` allows,
 * `effect.bench.hookgate.dev` allows and reports one side effect. The gateway (`hookgate serve`,
 * --workers of them) routes namespace `plain` to the first and `effect` to the second; the reviews
 * are otherwise identical. Gateway CPU is read from /proc for the primary and all its workers
 * (every thread: the fsyncs run on libuv's pool); the difference per review between the two
 * namespaces is the side effect's cost (job built in the worker, IPC, BullMQ add and the replay
 * batch in the primary).
 *
 * The definition, kept honest (docs/performance.md, "Side-effect jobs"):
 * - The goal's figure is the CPU difference at the same offered load: reviews sent at a fixed
 *   rate (--rate, open loop), so both kinds are served at the same reviews/s and share the same
 *   amortisation of per-wake-up costs. (A closed loop of 16 in flight, also run, serves the
 *   cheaper kind faster: its CPU per review is taken at another rate; it gives the throughput.)
 * - Each run measures the no-side-effect and the side-effect reviews back to back on the same
 *   gateway, and the figure is the median over runs of those pairs' differences, so drift in the
 *   machine's load between runs falls on both.
 * - The gateway logs at info, the default, as in production; not at the test launcher's debug
 *   (a log line per recorded job and per decision).
 *
 *   node --import tsx tools/bench/side-effects-gateway.ts [--reviews 2000] [--runs 3] [--workers 1] [--rate 500]
 *     [--replay-window-minutes 10]   (0: no replay copy of acknowledged jobs, to see what it costs)
 *   (or: npm run bench:side-effects-gateway -w tools/bench -- --runs 3)
 *   --profile DIR: V8 CPU profiles of the Redis-up gateway (src/profile/summarize-profile.ts DIR reads them)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { stringify } from 'yaml';
import { ensureRedis, freePort, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { definePlugin, servePlugin } from '@hookgate/plugin-sdk';
import { childPids, processCpuMs } from './src/load/proc-cpu.js';
import { medianOfRuns } from './src/stats.js';

const { values: args } = parseArgs({
  options: {
    serve: { type: 'string' },
    reviews: { type: 'string', default: '3000' },
    runs: { type: 'string', default: '3' },
    /** Gateway workers (with more, the primary's batches hold more jobs). */
    workers: { type: 'string', default: '1' },
    /** Reviews per second of the paced phase (below what both kinds sustain). */
    rate: { type: 'string', default: '500' },
    /** The spool's replay window (0: no replay copy of the jobs Redis acknowledged, to see its cost). */
    'replay-window-minutes': { type: 'string', default: '10' },
    /** Write V8 CPU profiles of the gateway with Redis up (primary and worker) into this directory. */
    profile: { type: 'string' },
  },
});

interface Row {
  readonly name: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Gateway CPU per review one at a time: no batching of syscalls across reviews in either case. */
  readonly serialCpuMicros: number;
  /** Reviews/s reached by the paced phase (below --rate: the machine did not keep up). */
  readonly pacedPerSecond: number;
  /** Gateway CPU per review at --rate reviews/s: the goal's figure (against the same for no side effect). */
  readonly pacedCpuMicros: number;
  /** The part of it in the primary (IPC, producer, spool); the rest is the workers'. */
  readonly pacedPrimaryCpuMicros: number;
  readonly perSecond: number;
  /** Gateway CPU per review with 16 in flight (closed loop: each kind at its own rate). */
  readonly gatewayCpuMicros: number;
  readonly primaryCpuMicros: number;
}

async function main(): Promise<void> {
  const reviews = Number(args.reviews);
  const runs = Number(args.runs);
  const workers = Number(args.workers);
  const rate = Number(args.rate);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-bench-se-'));
  const socket = `unix://${path.join(dir, 'bench.sock')}`;
  const pluginProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', socket],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const redis = await ensureRedis();
  const prefix = `{bench-gw-${process.pid}}`;
  const gateways: GatewayProcess[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      pluginProcess.stdout.once('data', () => resolve());
      pluginProcess.once('exit', (code) => reject(new Error(`plugin process exited with ${code}`)));
    });
    // Info (the default; the launcher waits for its listening line), not the launcher's debug: a
    // line per recorded job and per decision is not what production pays.
    const env = { HOOKGATE_LOG_LEVEL: 'info' };
    const up = await startGateway({
      config: config(socket, redis.url, prefix, dir, workers),
      readyTimeoutMs: 60_000,
      env,
      ...(args.profile ? { execArgv: ['--cpu-prof', '--cpu-prof-dir', args.profile] } : {}),
    });
    gateways.push(up);
    const down = await startGateway({
      config: config(socket, `redis://127.0.0.1:${await freePort()}`, prefix, dir, workers),
      readyTimeoutMs: 60_000,
      env,
    });
    gateways.push(down);
    console.log(
      `side-effects-gateway: ${reviews} reviews x ${runs} runs, paced at ${rate}/s and 16 in flight, ${workers} gateway worker(s), node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}, Redis ${redis.url}`,
    );
    const cases = [
      ['no side effect', up, 'plain'],
      ['one side effect, Redis up', up, 'effect'],
      ['no side effect (Redis-down gateway)', down, 'plain'],
      ['one side effect, Redis down (spool)', down, 'effect'],
    ] as const;
    for (const [name, gateway, namespace] of cases) await measure(name, gateway, namespace, 500, rate); // warm-up
    // Runs interleaved: each run measures every case back to back; differences are taken per run.
    const samples: Row[][] = cases.map(() => []);
    for (let r = 0; r < runs; r++) {
      for (const [i, [name, gateway, namespace]] of cases.entries())
        samples[i]!.push(await measure(name, gateway, namespace, reviews, rate));
    }
    printTable(
      samples.map((s) => medianOfRuns(s)),
      samples,
    );
  } finally {
    for (const gateway of gateways) await gateway.stop();
    pluginProcess.kill('SIGTERM');
    await deletePrefix(redis.url, prefix);
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function config(socket: string, redisUrl: string, prefix: string, dir: string, workers: number): string {
  const hook = (name: string, namespace: string) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: `${namespace}-hooks` },
    webhooks: [
      {
        name,
        clientConfig: { plugin: 'bench' },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        namespaceSelector: { matchLabels: { bench: namespace } },
        sideEffects: 'NoneOnDryRun',
        failurePolicy: 'Fail',
        admissionReviewVersions: ['v1'],
      },
    ],
  });
  const gateway = {
    apiVersion: 'hookgate.dev/v1alpha1',
    kind: 'GatewayConfiguration',
    workers,
    logLevel: 'info',
    plugins: [{ name: 'bench', target: socket }],
    namespaces: [
      { name: 'plain', labels: { bench: 'plain' } },
      { name: 'effect', labels: { bench: 'effect' } },
    ],
    redis: { url: redisUrl, prefix },
    spoolDir: path.join(dir, `spool-${redisUrl.replace(/\W/g, '')}`),
    spool: { maxBytes: 1024 * 1024 * 1024, replayWindowMinutes: Number(args['replay-window-minutes']) },
  };
  return [gateway, hook('noop.bench.hookgate.dev', 'plain'), hook('effect.bench.hookgate.dev', 'effect')]
    .map((d) => stringify(d))
    .join('---\n');
}

let sequence = 0;
function reviewBody(namespace: string): string {
  const n = ++sequence;
  const uid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      name: `web-${n}`,
      namespace,
      operation: 'CREATE',
      userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller' },
      object: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `web-${n}`, namespace, labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.27.3' }] },
      },
      dryRun: false,
    },
  });
}

async function measure(
  name: string,
  gateway: GatewayProcess,
  namespace: string,
  reviews: number,
  rate: number,
): Promise<Row> {
  const pool = new Pool(gateway.admissionUrl, { connections: 64 });
  const post = async () => {
    const res = await pool.request({
      path: '/validate?timeout=10s',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: reviewBody(namespace),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200 || !text.includes('"allowed":true'))
      throw new Error(`${name}: ${res.statusCode} ${text}`);
  };
  try {
    const pids = [gateway.pid, ...childPids(gateway.pid)];
    const gatewayCpuMs = () => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);

    const serial = new Float64Array(Math.min(1000, reviews));
    const serialCpuBefore = gatewayCpuMs();
    for (let i = 0; i < serial.length; i++) {
      const t0 = performance.now();
      await post();
      serial[i] = performance.now() - t0;
    }
    const serialCpuMs = gatewayCpuMs() - serialCpuBefore;
    serial.sort();

    const paced = await cpuOf(gateway.pid, gatewayCpuMs, reviews, () => pacedLoad(post, reviews, rate));
    const closed = await cpuOf(gateway.pid, gatewayCpuMs, reviews, async () => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next++ < reviews) await post();
        }),
      );
    });
    return {
      name,
      p50Ms: serial[Math.floor(serial.length / 2)]!,
      p99Ms: serial[Math.floor(serial.length * 0.99)]!,
      serialCpuMicros: (serialCpuMs * 1000) / serial.length,
      pacedPerSecond: paced.perSecond,
      pacedCpuMicros: paced.cpuMicros,
      pacedPrimaryCpuMicros: paced.primaryMicros,
      perSecond: closed.perSecond,
      gatewayCpuMicros: closed.cpuMicros,
      primaryCpuMicros: closed.primaryMicros,
    };
  } finally {
    await pool.close();
  }
}

/** Gateway CPU per review (all processes, and the primary's part) and the rate while `load` runs. */
async function cpuOf(primaryPid: number, gatewayCpuMs: () => number, reviews: number, load: () => Promise<void>) {
  const cpuBefore = gatewayCpuMs();
  const primaryBefore = processCpuMs(primaryPid);
  const started = performance.now();
  await load();
  const elapsed = performance.now() - started;
  return {
    perSecond: (reviews / elapsed) * 1000,
    cpuMicros: ((gatewayCpuMs() - cpuBefore) * 1000) / reviews,
    primaryMicros: ((processCpuMs(primaryPid) - primaryBefore) * 1000) / reviews,
  };
}

/** Open loop: `reviews` sent at `rate` per second whatever the answers take (at most 256 in flight). */
async function pacedLoad(post: () => Promise<void>, reviews: number, rate: number): Promise<void> {
  const started = performance.now();
  let sent = 0;
  let inFlight = 0;
  const pending: Promise<void>[] = [];
  while (sent < reviews) {
    const due = Math.min(reviews, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
    while (sent < due && inFlight < 256) {
      sent++;
      inFlight++;
      pending.push(post().finally(() => inFlight--));
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await Promise.all(pending);
}

async function deletePrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url);
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== '0');
  client.disconnect();
}

function printTable(rows: readonly Row[], samples: readonly (readonly Row[])[]): void {
  console.log(
    '| reviews | serial p50 ms | serial p99 ms | gateway CPU µs/review, serial | paced reviews/s | gateway CPU µs/review, paced | of it in the primary | reviews/s (16 in flight) | gateway CPU µs/review (16) | of it in the primary |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} | ${r.serialCpuMicros.toFixed(0)} | ${Math.round(r.pacedPerSecond)} | ${r.pacedCpuMicros.toFixed(0)} | ${r.pacedPrimaryCpuMicros.toFixed(0)} | ${Math.round(r.perSecond)} | ${r.gatewayCpuMicros.toFixed(0)} | ${r.primaryCpuMicros.toFixed(0)} |`,
    );
  }
  const [plainUp, up, plainDown, down] = samples;
  if (!plainUp || !up || !plainDown || !down) return;
  // Per run the pair's difference, then the median over runs (and every run's, for the spread).
  const added = (effect: readonly Row[], plain: readonly Row[], field: keyof Omit<Row, 'name'>) => {
    const each = effect.map((row, i) => row[field] - plain[i]![field]);
    const median = [...each].sort((a, b) => a - b)[Math.floor(each.length / 2)]!;
    return { median, each };
  };
  const say = (what: string, effect: readonly Row[], plain: readonly Row[]) => {
    const p50 = added(effect, plain, 'p50Ms');
    const serialCpu = added(effect, plain, 'serialCpuMicros');
    const pacedCpu = added(effect, plain, 'pacedCpuMicros');
    const closedCpu = added(effect, plain, 'gatewayCpuMicros');
    const runs = (x: { each: number[] }, digits: number) => x.each.map((v) => v.toFixed(digits)).join(', ');
    console.log(
      `side effect adds, ${what}: ${p50.median.toFixed(3)} ms p50 (runs ${runs(p50, 3)}); gateway CPU per review ${pacedCpu.median.toFixed(0)} µs paced (goal ≤ 50; runs ${runs(pacedCpu, 0)}), ${serialCpu.median.toFixed(0)} µs serially, ${closedCpu.median.toFixed(0)} µs with 16 in flight`,
    );
  };
  say('Redis up', up, plainUp);
  say('Redis down (spool)', down, plainDown);
}

async function servePluginProcess(listen: string): Promise<void> {
  const plugin = definePlugin({
    name: 'bench',
    hooks: {
      'noop.bench.hookgate.dev': { phase: 'validating', validate: () => ({ allowed: true }) },
      'effect.bench.hookgate.dev': {
        phase: 'validating',
        validate: (req) => {
          req.reportSideEffect('claim', `${req.namespace}/${req.name}`);
          return { allowed: true };
        },
      },
    },
  });
  await servePlugin(plugin, { listen, logger: false, handleSignals: true });
  process.stdout.write('listening\n');
}

if (args.serve !== undefined) await servePluginProcess(args.serve);
else await main();
