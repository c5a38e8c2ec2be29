/**
 * What durability costs on this machine: the latency of one small write + fdatasync, then the
 * spool's append rate alone (every append its own fsync) and under concurrency (group commit).
 * Usage: npm run bench -w @hookgate/spool -- [directory on the disk to measure, default the OS temp dir]
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Spool } from '../src/spool.js';

const base = process.argv[2] ?? os.tmpdir();
const payload = Buffer.alloc(512, 'x'); // about the size of a side-effect job
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (value: number) => `${value.toFixed(3)} ms`;

async function rawFdatasync(dir: string, rounds: number): Promise<void> {
  const file = await open(path.join(dir, 'raw'), 'w');
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await file.write(payload, 0, payload.length, i * payload.length);
    const began = performance.now();
    await file.datasync();
    times.push(performance.now() - began);
  }
  await file.close();
  times.sort((a, b) => a - b);
  console.log(
    `fdatasync after a ${payload.length}-byte append, ${rounds} rounds: p50 ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))}, max ${ms(times[times.length - 1]!)}`,
  );
}

async function spoolRate(dir: string, label: string, total: number, concurrency: number, groupCommitMs: number) {
  const spool = await Spool.open({ dir, groupCommitMs, sweepIntervalMs: 0 });
  const latencies: number[] = [];
  const began = performance.now();
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started++ < total) {
        const t = performance.now();
        await spool.append(payload);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  const { fsyncs, appendedRecords } = spool.stats();
  await spool.close();
  latencies.sort((a, b) => a - b);
  console.log(
    `${label}: ${Math.round(appendedRecords / seconds)} appends/s, ${(appendedRecords / fsyncs).toFixed(1)} records per fsync, append latency p50 ${ms(quantile(latencies, 0.5))}, p99 ${ms(quantile(latencies, 0.99))}`,
  );
}

/** An acknowledgement rewrites the cursor file: write, fsync, rename, fsync of the directory. */
async function acknowledgeRate(dir: string, total: number, concurrency: number): Promise<void> {
  const spool = await Spool.open({ dir, sweepIntervalMs: 0 });
  const seqs = (await Promise.all(Array.from({ length: total }, () => spool.append(payload)))).map((r) => r.seq);
  const began = performance.now();
  for (let i = 0; i < seqs.length; i += concurrency) {
    await Promise.all(seqs.slice(i, i + concurrency).map((seq) => spool.acknowledge(seq)));
  }
  const seconds = (performance.now() - began) / 1000;
  await spool.close();
  console.log(`acknowledge, ${concurrency} at a time: ${Math.round(total / seconds)} acknowledgements/s`);
}

const dir = await mkdtemp(path.join(base, 'hookgate-spool-bench-'));
try {
  await rawFdatasync(dir, 1000);
  await spoolRate(path.join(dir, 'alone'), 'spool, 1 writer, groupCommitMs 0', 1000, 1, 0);
  await spoolRate(path.join(dir, 'alone-window'), 'spool, 1 writer, groupCommitMs 2', 500, 1, 2);
  for (const concurrency of [16, 256]) {
    for (const windowMs of [0, 2]) {
      const label = `spool, ${concurrency} concurrent writers, groupCommitMs ${windowMs}`;
      await spoolRate(path.join(dir, `c${concurrency}-${windowMs}`), label, 100 * concurrency, concurrency, windowMs);
    }
  }
  await acknowledgeRate(path.join(dir, 'ack1'), 500, 1);
  await acknowledgeRate(path.join(dir, 'ack64'), 6400, 64);
} finally {
  await rm(dir, { recursive: true, force: true });
}
