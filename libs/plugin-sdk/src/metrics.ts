/** Optional prom-client metrics of a plugin process. Hook names are the only free-form label. */
import client from 'prom-client';

export type AdmitOutcome = 'allowed' | 'patched' | 'denied' | 'error';

export interface PluginMetrics {
  readonly registry: client.Registry;
  observeAdmit(hook: string, outcome: AdmitOutcome, seconds: number): void;
  countSideEffects(hook: string, count: number): void;
  streamOpened(): void;
  streamClosed(): void;
  observeReconcile(outcome: 'done' | 'retry' | 'error'): void;
}

export function createPluginMetrics(plugin: string, registry: client.Registry): PluginMetrics {
  const admitDuration = new client.Histogram({
    name: 'hookgate_plugin_admit_duration_seconds',
    help: 'Time to answer one admit message, from decode to the answer (handler included), by hook and outcome.',
    labelNames: ['plugin', 'hook', 'outcome'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [registry],
  });
  const sideEffects = new client.Counter({
    name: 'hookgate_plugin_side_effects_reported_total',
    help: 'Side effects reported by hooks.',
    labelNames: ['plugin', 'hook'] as const,
    registers: [registry],
  });
  const streams = new client.Gauge({
    name: 'hookgate_plugin_admit_streams',
    help: 'AdmitStream calls currently open.',
    labelNames: ['plugin'] as const,
    registers: [registry],
  });
  const reconciles = new client.Counter({
    name: 'hookgate_plugin_reconcile_total',
    help: 'Reconcile calls by result.',
    labelNames: ['plugin', 'result'] as const,
    registers: [registry],
  });
  return {
    registry,
    observeAdmit: (hook, outcome, seconds) => admitDuration.observe({ plugin, hook, outcome }, seconds),
    countSideEffects: (hook, count) => sideEffects.inc({ plugin, hook }, count),
    streamOpened: () => streams.inc({ plugin }),
    streamClosed: () => streams.dec({ plugin }),
    observeReconcile: (result) => reconciles.inc({ plugin, result }),
  };
}
