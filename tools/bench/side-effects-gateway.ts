/**
 * What a side effect adds to a review through the whole gateway process (issue goals: at most
 * 50 µs of gateway CPU per review, at most 1 ms added p50 with Redis up), and the rate of reviews
 * with side effects while Redis is down (every job fsynced to the spool).
 *
 * One plugin process (SDK, unix socket) serves two validating hooks: `noop.bench.hookgate.dev` allows,
 * `effect.bench.hookgate.dev` allows and reports one side effect. The gateway (`hookgate serve`, 1 worker, so
 * the CPU of its two processes is the whole cost) routes namespace `plain` to the first and
 * `effect` to the second; the reviews are otherwise identical. Gateway CPU is read from /proc for
 * the primary and its worker; the difference per review between the two namespaces is the side
 * effect's cost (job built in the worker, IPC, BullMQ add and the replay batch in the primary).
 *
 *   node --import tsx tools/bench/side-effects-gateway.ts [--reviews 3000] [--runs 3]
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
    /** Write V8 CPU profiles of the gateway with Redis up (primary and worker) into this directory. */
    profile: { type: 'string' },
  },
});

interface Row {
  readonly name: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly perSecond: number;
  readonly gatewayCpuMicros: number;
  /** The part of it in the primary (IPC, producer, spool); the rest is the worker's. */
  readonly primaryCpuMicros: number;
  /** Gateway CPU per review one at a time: no batching of syscalls across reviews in either case. */
  readonly serialCpuMicros: number;
}

async function main(): Promise<void> {
  const reviews = Number(args.reviews);
  const runs = Number(args.runs);
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
    const up = await startGateway({
      config: config(socket, redis.url, prefix, dir),
      readyTimeoutMs: 60_000,
      ...(args.profile ? { execArgv: ['--cpu-prof', '--cpu-prof-dir', args.profile] } : {}),
    });
    gateways.push(up);
    const down = await startGateway({
      config: config(socket, `redis://127.0.0.1:${await freePort()}`, prefix, dir),
      readyTimeoutMs: 60_000,
    });
    gateways.push(down);
    console.log(
      `side-effects-gateway: ${reviews} reviews x ${runs} runs, 16 in flight, 1 gateway worker, node ${process.version}, ${os.cpus().length} CPUs, Redis ${redis.url}`,
    );
    const rows: Row[] = [];
    for (const [name, gateway, namespace] of [
      ['no side effect', up, 'plain'],
      ['one side effect, Redis up', up, 'effect'],
      ['one side effect, Redis down (spool)', down, 'effect'],
    ] as const) {
      await measure(name, gateway, namespace, 500); // warm-up
      const samples: Row[] = [];
      for (let r = 0; r < runs; r++) samples.push(await measure(name, gateway, namespace, reviews));
      rows.push(medianOfRuns(samples));
    }
    printTable(rows);
  } finally {
    for (const gateway of gateways) await gateway.stop();
    pluginProcess.kill('SIGTERM');
    await deletePrefix(redis.url, prefix);
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function config(socket: string, redisUrl: string, prefix: string, dir: string): string {
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
    workers: 1,
    logLevel: 'warn',
    plugins: [{ name: 'bench', target: socket }],
    namespaces: [
      { name: 'plain', labels: { bench: 'plain' } },
      { name: 'effect', labels: { bench: 'effect' } },
    ],
    redis: { url: redisUrl, prefix },
    spoolDir: path.join(dir, `spool-${redisUrl.replace(/\W/g, '')}`),
    spool: { maxBytes: 1024 * 1024 * 1024 },
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

async function measure(name: string, gateway: GatewayProcess, namespace: string, reviews: number): Promise<Row> {
  const pool = new Pool(gateway.admissionUrl, { connections: 16 });
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
    const serial = new Float64Array(Math.min(1000, reviews));
    const pids = [gateway.pid, ...childPids(gateway.pid)];
    const gatewayCpuMs = () => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
    const serialCpuBefore = gatewayCpuMs();
    for (let i = 0; i < serial.length; i++) {
      const t0 = performance.now();
      await post();
      serial[i] = performance.now() - t0;
    }
    const serialCpuMs = gatewayCpuMs() - serialCpuBefore;
    serial.sort();
    const cpuBefore = gatewayCpuMs();
    const primaryBefore = processCpuMs(gateway.pid);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < reviews) await post();
      }),
    );
    const elapsed = performance.now() - started;
    const cpuMs = gatewayCpuMs() - cpuBefore;
    const primaryMs = processCpuMs(gateway.pid) - primaryBefore;
    return {
      name,
      p50Ms: serial[Math.floor(serial.length / 2)]!,
      p99Ms: serial[Math.floor(serial.length * 0.99)]!,
      perSecond: (reviews / elapsed) * 1000,
      gatewayCpuMicros: (cpuMs * 1000) / reviews,
      primaryCpuMicros: (primaryMs * 1000) / reviews,
      serialCpuMicros: (serialCpuMs * 1000) / serial.length,
    };
  } finally {
    await pool.close();
  }
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

function printTable(rows: readonly Row[]): void {
  console.log(
    '| reviews | serial p50 ms | serial p99 ms | gateway CPU µs/review, serial | reviews/s (16 in flight) | gateway CPU µs/review | of it in the primary |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} | ${r.serialCpuMicros.toFixed(0)} | ${Math.round(r.perSecond)} | ${r.gatewayCpuMicros.toFixed(0)} | ${r.primaryCpuMicros.toFixed(0)} |`,
    );
  }
  const [plain, up, down] = rows;
  if (plain && up && down) {
    console.log(
      `side effect adds, Redis up: ${(up.p50Ms - plain.p50Ms).toFixed(3)} ms p50, ${(up.serialCpuMicros - plain.serialCpuMicros).toFixed(0)} µs gateway CPU per review serially, ${(up.gatewayCpuMicros - plain.gatewayCpuMicros).toFixed(0)} µs under load; Redis down: ${(down.p50Ms - plain.p50Ms).toFixed(3)} ms p50, ${(down.serialCpuMicros - plain.serialCpuMicros).toFixed(0)} / ${(down.gatewayCpuMicros - plain.gatewayCpuMicros).toFixed(0)} µs`,
    );
  }
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
