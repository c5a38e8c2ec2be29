/**
 * Metrics across node:cluster workers. Each worker keeps its own registry and answers the
 * primary's IPC requests (prom-client's AggregatorRegistry protocol); the primary, which serves
 * /metrics, sums counters and histograms and applies each gauge's `aggregator`.
 *
 *   worker:  exposeWorkerMetrics([registry])
 *   primary: const source = clusterMetricsSource(primaryRegistry); reply(await source.collect())
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';

/** What a /metrics handler needs, whatever the process layout. */
export interface MetricsSource {
  readonly contentType: string;
  collect(): Promise<string>;
}

/** Single process: the registry itself. */
export function registryMetricsSource(registry: Registry): MetricsSource {
  return { contentType: registry.contentType, collect: () => registry.metrics() };
}

/**
 * In a cluster worker: answer the primary's metric requests from these registries.
 * Constructing an AggregatorRegistry is what installs prom-client's worker-side IPC listener.
 */
export function exposeWorkerMetrics(registries: readonly Registry[]): void {
  if (!cluster.isWorker) throw new Error('exposeWorkerMetrics must run in a node:cluster worker');
  AggregatorRegistry.setRegistries([...registries]);
  new AggregatorRegistry();
}

/**
 * In the cluster primary: aggregated worker metrics, followed by the primary's own registry.
 * The primary's metric names must not overlap the workers' (they are concatenated, not merged).
 * A worker that does not answer within prom-client's 5 s makes collect() reject.
 */
export function clusterMetricsSource(primaryRegistry?: Registry): MetricsSource {
  if (!cluster.isPrimary) throw new Error('clusterMetricsSource must run in the node:cluster primary');
  const aggregator = new AggregatorRegistry();
  return {
    contentType: aggregator.contentType,
    async collect() {
      const [workers, own] = await Promise.all([aggregator.clusterMetrics(), primaryRegistry?.metrics() ?? '']);
      return [workers, own].filter((text) => text.trim() !== '').join('\n');
    },
  };
}
