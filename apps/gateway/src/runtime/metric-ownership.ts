/**
 * Who records which gateway metric under node:cluster. The primary validates configurations, so it
 * owns the reload metrics; workers own everything about requests, hooks and certificates. Each side
 * removes the other's metrics from its registry, because the primary's /metrics concatenates the
 * aggregated worker metrics with its own and a name must appear once.
 */
import type { Registry } from 'prom-client';
import type { GatewayMetricKey, GatewayMetrics } from '@hookgate/observability';

const PRIMARY_OWNED: readonly GatewayMetricKey[] = [
  'configReloads',
  'configLastReloadSuccessful',
  'configLastSuccess',
  'configGeneration',
];

export function keepPrimaryMetrics(registry: Registry, metrics: GatewayMetrics): void {
  for (const key of metricKeys(metrics)) {
    if (!PRIMARY_OWNED.includes(key)) registry.removeSingleMetric(metricName(metrics, key));
  }
}

export function keepWorkerMetrics(registry: Registry, metrics: GatewayMetrics): void {
  for (const key of PRIMARY_OWNED) registry.removeSingleMetric(metricName(metrics, key));
}

function metricKeys(metrics: GatewayMetrics): GatewayMetricKey[] {
  return (Object.keys(metrics) as (keyof GatewayMetrics)[]).filter((key): key is GatewayMetricKey => key !== 'worker');
}

function metricName(metrics: GatewayMetrics, key: GatewayMetricKey): string {
  return (metrics[key] as unknown as { name: string }).name;
}
