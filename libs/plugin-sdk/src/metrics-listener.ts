/**
 * The plugin's /metrics listener, when a plugin asks for one: the health and metrics listener
 * every Hookgate process shares (@hookgate/observability), so plugins also answer /livez and /readyz
 * (503 while the plugin is not serving: draining at shutdown).
 */
import { registryMetricsSource, startHealthListener } from '@hookgate/observability';
import type client from 'prom-client';
import { parseListen } from './listen.js';

export interface MetricsListener {
  readonly address: string;
  close(): Promise<void>;
}

/**
 * `notReadyReason`: why /readyz answers 503 (the plugin is draining, say), undefined while the plugin
 * serves.
 */
export async function startMetricsListener(
  listen: string,
  registry: client.Registry,
  notReadyReason: () => string | undefined,
): Promise<MetricsListener> {
  const address = parseListen(listen);
  if (address.kind !== 'tcp') throw new Error(`metrics listen address ${JSON.stringify(listen)} must be host:port`);
  try {
    return await startHealthListener({
      host: address.host || '127.0.0.1',
      port: address.port,
      metrics: registryMetricsSource(registry),
      notReadyReason,
    });
  } catch (error) {
    // A plugin has two host:port listeners: say which one could not bind.
    const failure = new Error(
      `metrics listener (metrics.listen ${JSON.stringify(listen)}): ${(error as Error).message}`,
      {
        cause: error,
      },
    ) as Error & { code?: string };
    failure.code = (error as { code?: string }).code;
    throw failure;
  }
}
