/**
 * Controller throughput: how many side-effect jobs one controller process settles per second when
 * each needs one consistent read of its object (the fake apiserver, its own process) and one
 * Reconcile of a plugin that does nothing (served from this process on a unix socket). Real Redis
 * (ensureRedis). Each run queues `--jobs` jobs for validating CREATEs of stored Deployments (so
 * every job is read and decided PERSISTED), starts a fresh controller, and times it from its
 * start line to the last completed job. Goal: at least 1,000 reconciles/s.
 *
 *   node --import tsx tools/bench/controller-throughput.ts [--jobs 5000] [--concurrency 64] [--runs 3]
 *   (or: npm run bench:controller -w tools/bench -- --runs 3)
 *   BENCH_PROF=DIR: the controller writes V8 CPU profiles there (src/profile/summarize-profile.ts reads them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { REPO_ROOT, ensureRedis } from '@hookgate/devtools';
import { definePlugin, servePlugin } from '@hookgate/plugin-sdk';
import { SideEffectProducer, reconcileQueueName } from '@hookgate/queue';
import { sampleJob } from '@hookgate/queue/testing';
import { stringify } from 'yaml';
import { processCpuMs } from './src/load/proc-cpu.js';

const { values: args } = parseArgs({
  options: {
    jobs: { type: 'string', default: '5000' },
    objects: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '64' },
    runs: { type: 'string', default: '3' },
  },
});
const JOBS = Number(args.jobs);
const OBJECTS = Number(args.objects);
const CONCURRENCY = Number(args.concurrency);
const RUNS = Number(args.runs);
const PLUGIN = 'noop';

const log = (line: string) => process.stderr.write(`${line}\n`);
const children: ChildProcess[] = [];
const stopChildren = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
};
process.once('exit', stopChildren);

/** Starts `script` with tsx; resolves with the first stdout match of `ready`. */
function spawnScript(
  script: string,
  scriptArgs: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...scriptArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, REDIS_URL: '' },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${script}: not ready in 60 s`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        out = '';
        resolve({ child, match });
      } else if (out.length > 1_000_000) out = out.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

const redis = await ensureRedis();
const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-controller-bench-'));
const plugin = await servePlugin(
  definePlugin({
    name: PLUGIN,
    hooks: { 'noop.bench': { phase: 'validating', validate: () => ({ allowed: true }) } },
    reconcile: () => ({ done: true }),
  }),
  { listen: `unix://${path.join(dir, 'noop.sock')}`, logger: false },
);
const api = await spawnScript(path.join(REPO_ROOT, 'test/src/fake-apiserver-main.ts'), [], /listening (\S+) (\S+)\n/);
const [, apiUrl, kubeconfig] = api.match;

// The objects the jobs are about, stored through the apiserver's own API (uids assigned by it).
const stored: { name: string; uid: string }[] = [];
for (let i = 0; i < OBJECTS; i++) {
  const name = `web-${i}`;
  const response = await fetch(`${apiUrl}/apis/apps/v1/namespaces/bench/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'bench' } }),
  });
  const body = (await response.json()) as { metadata: { uid: string } };
  stored.push({ name, uid: body.metadata.uid });
}

const rates: number[] = [];
/** The controller's own CPU per reconcile: on a loaded machine the wall rate says more about the neighbours. */
const cpuPerReconcile: number[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const prefix = `{hgbench-${randomUUID().slice(0, 8)}}`;
    const producer = new SideEffectProducer({ redisUrl: redis.url, prefix });
    const queue = new Queue(reconcileQueueName(PLUGIN), { connection: { url: redis.url }, prefix });
    while (producer.connectionStatus !== 'ready') await new Promise((r) => setTimeout(r, 20));
    const now = Date.now();
    for (let i = 0; i < JOBS; i += 200) {
      await Promise.all(
        Array.from({ length: Math.min(200, JOBS - i) }, (_, k) => {
          const object = stored[(i + k) % stored.length]!;
          return producer.add(
            sampleJob(
              {
                plugin: PLUGIN,
                hook: 'noop.bench',
                effect: { kind: 'noop', key: `bench/${i + k}` },
                time: now - 60_000,
              },
              { uid: randomUUID(), namespace: 'bench', name: object.name, objectUid: object.uid },
            ),
          );
        }),
      );
    }
    const config = path.join(dir, `controller-${run}.yaml`);
    await writeFile(
      config,
      stringify({
        redis: { url: redis.url, prefix },
        plugins: [{ name: PLUGIN, target: plugin.target }],
        kubernetes: { mode: 'kubeconfig', kubeconfig },
        concurrency: CONCURRENCY,
        graceMs: 0,
        health: { port: 0 },
        dashboard: { enabled: false },
        resync: { intervalMs: 0 },
        logLevel: 'warn',
      }),
    );
    const controller = spawn(
      process.execPath,
      [
        ...(process.env['BENCH_PROF'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_PROF']}`] : []),
        '--import',
        'tsx',
        path.join(REPO_ROOT, 'apps/controller/src/main.ts'),
        '--config',
        config,
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, REDIS_URL: '' } },
    );
    children.push(controller);
    // Timed from the first completion (the controller's start-up, about a second of module loading, is not throughput).
    let first: number | undefined;
    let cpuAtFirst = 0;
    let completed = 0;
    while (completed < JOBS) {
      await new Promise((r) => setTimeout(r, 20));
      completed = (await queue.getJobCounts('completed'))['completed'] ?? 0;
      if (first === undefined && completed > 0) {
        first = performance.now() - 20;
        cpuAtFirst = processCpuMs(controller.pid!);
      }
      const failed = (await queue.getJobCounts('failed'))['failed'] ?? 0;
      if (failed > 0) throw new Error(`${failed} job(s) failed: see the controller's log`);
    }
    const seconds = (performance.now() - first!) / 1000;
    const cpuMsPerReconcile = (processCpuMs(controller.pid!) - cpuAtFirst) / JOBS;
    const rate = JOBS / seconds;
    rates.push(rate);
    cpuPerReconcile.push(cpuMsPerReconcile);
    log(
      `run ${run}: ${JOBS} reconciles in ${seconds.toFixed(2)} s: ${rate.toFixed(0)}/s; controller CPU ${cpuMsPerReconcile.toFixed(3)} ms per reconcile (${(1000 / cpuMsPerReconcile).toFixed(0)} per CPU-second)`,
    );
    controller.kill('SIGTERM');
    await new Promise((r) => controller.once('exit', r));
    await producer.close();
    await queue.obliterate({ force: true });
    await queue.close();
  }
} finally {
  stopChildren();
  await plugin.shutdown(100);
  await rm(dir, { recursive: true, force: true });
  await redis.stop();
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
process.stdout.write(
  `${JSON.stringify({
    jobs: JOBS,
    concurrency: CONCURRENCY,
    runs: rates.map(Math.round),
    medianPerSecond: Math.round(median(rates)),
    medianControllerCpuMsPerReconcile: Number(median(cpuPerReconcile).toFixed(3)),
    medianPerControllerCpuSecond: Math.round(1000 / median(cpuPerReconcile)),
    goal: 1000,
  })}\n`,
);
process.exit(0);
