import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterMetricsSource } from './cluster-metrics.js';
import { createMetricsRegistry } from './metrics.js';
import { Gauge } from 'prom-client';

const workers: Worker[] = [];

afterAll(async () => {
  await Promise.all(
    workers.map((w) =>
      w.isDead()
        ? undefined
        : new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.kill();
          }),
    ),
  );
});

describe('clusterMetricsSource', () => {
  it('aggregates worker registries and appends the primary registry', async () => {
    cluster.setupPrimary({
      exec: fileURLToPath(new URL('./fixtures/metrics-worker.ts', import.meta.url)),
      execArgv: ['--import', 'tsx'],
      silent: true,
    });
    const primary = createMetricsRegistry();
    new Gauge({ name: 'hookgate_cluster_workers', help: 'Workers running.', registers: [primary] }).set(2);
    const source = clusterMetricsSource(primary);
    const ready = [0, 1].map(() => {
      const worker = cluster.fork();
      workers.push(worker);
      return new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
    });
    await Promise.all(ready);
    const text = await source.collect();
    expect(text).toContain('hookgate_admission_requests_total{type="admit",operation="CREATE",outcome="allowed"} 2');
    // Circuit state per worker: each worker's series reads 1 on its own state, never a sum.
    const [first, second] = workers.map((w) => String(w.id));
    expect(text).toContain(`hookgate_plugin_circuit_state{plugin="p1",state="open",worker="${first}"} 1`);
    expect(text).toContain(`hookgate_plugin_circuit_state{plugin="p1",state="closed",worker="${first}"} 0`);
    expect(text).toContain(`hookgate_plugin_circuit_state{plugin="p1",state="closed",worker="${second}"} 1`);
    // Process metrics per worker, the start time included (prom-client's default would omit it).
    for (const id of [first, second])
      expect(text).toMatch(new RegExp(`^process_start_time_seconds\\{worker="${id}"\\} \\d+`, 'm'));
    expect(text).toContain('hookgate_config_generation 1');
    expect(text).toContain('hookgate_cluster_workers 2');
  }, 30_000);
});
