/**
 * Side-effect job micro-benchmark: what handing one job to Redis costs a gateway process under
 * node:cluster, for the choice of who owns the producer and the spool (docs/performance.md):
 *
 *   ipc          a worker sends a job-sized message to the primary over the cluster IPC channel and
 *                awaits an answer (the primary answers at once): the price of the primary owning them
 *   ipc+add      the same, the primary calling producer.add before it answers (the whole primary path)
 *   direct add   producer.add in the worker itself (each worker owning a producer and a spool)
 *   spool        spool.append (fsync) of the same job, Redis down: what the spool takes per second
 *
 * Serial round trips give the latency a review pays (p50/p99); 16 in flight give the CPU per job
 * (worker and primary CPU from process.cpuUsage) and the rate.
 *
 *   node --import tsx tools/bench/side-effects-micro.ts [--jobs 5000] [--runs 3]
 *   (or: npm run bench:side-effects -w tools/bench -- --runs 3)
 *
 * Redis from REDIS_URL, else 127.0.0.1:6379, else a redis-server of its own (ensureRedis).
 */
import cluster from 'node:cluster';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureRedis } from '@hookgate/devtools';
import { SideEffectProducer, buildSideEffectJob, type SideEffectJob } from '@hookgate/queue';
import { Spool } from '@hookgate/spool';
import { medianOfRuns } from './src/stats.js';

const { values: args } = parseArgs({
  options: {
    jobs: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '3' },
  },
});
const JOBS = Number(args.jobs);
const RUNS = Number(args.runs);
const CONCURRENCY = 16;
/** The primary's pid names the keys of this run (the worker is told it): all deleted at the end. */
const PREFIX = `{bench-${cluster.isPrimary ? process.pid : process.env['BENCH_PRIMARY_PID']}}`;

interface Row {
  readonly name: string;
  readonly serialP50Ms: number;
  readonly serialP99Ms: number;
  readonly perSecond: number;
  readonly workerCpuMicros: number;
  readonly primaryCpuMicros: number;
}

type ToWorker = { type: 'run'; mode: Mode; redisUrl: string; run: number } | { type: 'ack'; id: number };
type ToPrimary =
  | { type: 'job'; id: number; job: SideEffectJob }
  | { type: 'cpu?' }
  | { type: 'result'; row: Omit<Row, 'primaryCpuMicros'> & { primaryCpuMicros?: number } };
type Mode = 'ipc' | 'ipc+add' | 'direct add';

function job(i: number, run: number): SideEffectJob {
  return buildSideEffectJob({
    plugin: 'ledger',
    effect: { hook: 'ledger.hookgate.dev', kind: 'ledger-claim', key: `hostnames/shop-${i}.example.com` },
    admission: {
      uid: `6b1f0d5e-1c2a-4b0e-9d8f-${String(run).padStart(4, '0')}${String(i).padStart(8, '0')}`,
      operation: 'CREATE',
      resource: { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' },
      subResource: '',
      namespace: 'shop',
      name: `web-${i}`,
      generateName: '',
      objectUid: '0d7e5a43-3b7e-4c55-8a8e-3b1f0b9b6f21',
      dryRun: false,
      phase: 'validating',
    },
    decision: { allowed: true },
    gateway: 'bench-gateway',
    time: Date.now(),
  });
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** Serial latency over `serialJobs`, then CPU and rate over JOBS with CONCURRENCY in flight. */
async function measure(
  name: string,
  send: (i: number) => Promise<unknown>,
  primaryCpu: () => Promise<number>,
): Promise<Row> {
  const serialJobs = Math.min(1000, JOBS);
  const serial = new Float64Array(serialJobs);
  for (let i = 0; i < serialJobs; i++) {
    const t0 = performance.now();
    await send(i);
    serial[i] = performance.now() - t0;
  }
  serial.sort();
  const primaryBefore = await primaryCpu();
  const before = process.cpuUsage();
  let next = serialJobs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < serialJobs + JOBS) await send(next++);
    }),
  );
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(before);
  const primaryMicros = (await primaryCpu()) - primaryBefore;
  return {
    name,
    serialP50Ms: percentile(serial, 0.5),
    serialP99Ms: percentile(serial, 0.99),
    perSecond: (JOBS / elapsed) * 1000,
    workerCpuMicros: (cpu.user + cpu.system) / JOBS,
    primaryCpuMicros: primaryMicros / JOBS,
  };
}

async function runWorker(): Promise<void> {
  const waiting = new Map<number, () => void>();
  let cpuAnswer: ((micros: number) => void) | undefined;
  let ids = 0;
  const send = (message: ToPrimary) => process.send!(message);
  process.on('message', (message: ToWorker | { type: 'cpu'; micros: number }) => {
    if (message.type === 'ack') {
      waiting.get(message.id)?.();
      waiting.delete(message.id);
    } else if (message.type === 'cpu') {
      cpuAnswer?.(message.micros);
    } else if (message.type === 'run') {
      void (async () => {
        const { mode, run } = message;
        const primaryCpu = () =>
          new Promise<number>((resolve) => {
            cpuAnswer = resolve;
            send({ type: 'cpu?' });
          });
        let row: Row;
        if (mode === 'direct add') {
          const producer = new SideEffectProducer({ redisUrl: message.redisUrl, prefix: PREFIX });
          await waitReady(producer);
          await producer.add(job(-1, run)); // the queue's first add loads BullMQ's scripts
          row = await measure(
            mode,
            (i) => producer.add(job(i, run)),
            async () => 0,
          );
          await producer.close();
        } else {
          row = await measure(
            mode,
            (i) =>
              new Promise<void>((resolve) => {
                const id = ++ids;
                waiting.set(id, resolve);
                send({ type: 'job', id, job: job(i, run) });
              }),
            primaryCpu,
          );
        }
        send({ type: 'result', row });
      })();
    }
  });
  send({ type: 'cpu?' }); // hello
}

async function waitReady(producer: SideEffectProducer): Promise<void> {
  for (let i = 0; i < 100 && producer.connectionStatus !== 'ready'; i++) await new Promise((r) => setTimeout(r, 20));
}

async function runPrimary(): Promise<void> {
  const redis = await ensureRedis();
  const producer = new SideEffectProducer({ redisUrl: redis.url, prefix: PREFIX });
  await waitReady(producer);
  const worker = cluster.fork({ BENCH_PRIMARY_PID: String(process.pid) });
  let addInPrimary = false;
  let resultOf: ((row: Row) => void) | undefined;
  let helloSeen: () => void = () => undefined;
  const hello = new Promise<void>((resolve) => (helloSeen = resolve));
  worker.on('message', (message: ToPrimary) => {
    if (message.type === 'job') {
      if (!addInPrimary) worker.send({ type: 'ack', id: message.id } satisfies ToWorker);
      else void producer.add(message.job).then(() => worker.send({ type: 'ack', id: message.id } satisfies ToWorker));
    } else if (message.type === 'cpu?') {
      const cpu = process.cpuUsage();
      worker.send({ type: 'cpu', micros: cpu.user + cpu.system });
      helloSeen();
    } else if (message.type === 'result') {
      resultOf?.(message.row as Row);
    }
  });
  await hello;
  console.log(
    `side-effects-micro: ${JOBS} jobs x ${RUNS} runs, ${CONCURRENCY} in flight, job ${Buffer.byteLength(JSON.stringify(job(0, 0)))} bytes of JSON, node ${process.version}, ${os.cpus().length} CPUs, Redis ${redis.url}`,
  );
  const rows: Row[] = [];
  try {
    await producer.add(job(-1, 999));
    for (const mode of ['ipc', 'ipc+add', 'direct add'] as const) {
      addInPrimary = mode === 'ipc+add';
      const runs: Row[] = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(
          await new Promise<Row>((resolve) => {
            resultOf = resolve;
            worker.send({ type: 'run', mode, redisUrl: redis.url, run: run + (mode === 'direct add' ? 100 : 0) });
          }),
        );
        await flush(redis.url);
      }
      rows.push(medianOfRuns(runs));
    }
    rows.push(medianOfRuns(await Promise.all([0, 1, 2].slice(0, RUNS).map(async (run) => measureSpool(run)))));
  } finally {
    worker.kill();
    await producer.close();
    await flush(redis.url);
    await redis.stop();
  }
  printTable(rows);
}

/** Spool appends of the same job (Redis down): serial latency, then the rate with 16 in flight. */
async function measureSpool(run: number): Promise<Row> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-bench-spool-'));
  const spool = await Spool.open({ dir, sweepIntervalMs: 0 });
  try {
    return await measure(
      'spool append (fsync)',
      (i) => spool.append(Buffer.from(JSON.stringify(job(i, run + 200)))),
      async () => 0,
    );
  } finally {
    await spool.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function flush(redisUrl: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl);
  const keys = await client.keys(`${PREFIX}:*`);
  for (let i = 0; i < keys.length; i += 500) await client.del(...keys.slice(i, i + 500));
  await client.quit();
}

function printTable(rows: readonly Row[]): void {
  console.log(
    '| path | serial p50 ms | serial p99 ms | jobs/s (16 in flight) | worker CPU µs/job | primary CPU µs/job |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.serialP50Ms.toFixed(3)} | ${r.serialP99Ms.toFixed(3)} | ${Math.round(r.perSecond)} | ${r.workerCpuMicros.toFixed(1)} | ${r.primaryCpuMicros.toFixed(1)} |`,
    );
  }
}

if (cluster.isPrimary) await runPrimary();
else await runWorker();
