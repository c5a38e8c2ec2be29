/**
 * @hookgate/observability: the logger setup, metric definitions and health/metrics listener every
 * Hookgate process shares.
 *
 *   const log = createLogger({ component: 'gateway', level: 'info' });
 *   const registryLog = componentLogger(log, 'registry'); // its lines say component: registry
 *   const nextRequestId = createRequestIds(); // reqId values unique across processes
 *   const registry = createMetricsRegistry({ collectDefault: true });
 *   const metrics = createGatewayMetrics(registry, { worker: '1' });
 *   metrics.hookRequests.inc({ name, type: webhookType('mutating'), operation: 'CREATE', code: clampCode(200), rejected: 'false' });
 *   registerBuildInfo(registry, { version: '0.1.0' });
 *   // /metrics: registryMetricsSource(registry), or across node:cluster workers:
 *   //   worker: exposeWorkerMetrics([registry, createWorkerProcessRegistry('1')]); primary: clusterMetricsSource()
 *   const listener = await startHealthListener({ host, port, metrics: registryMetricsSource(registry), notReadyReason });
 */
export * from './logger.js';
export * from './request-id.js';
export * from './metrics.js';
export * from './cluster-metrics.js';
export * from './health-listener.js';
