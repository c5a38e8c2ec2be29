/**
 * The worker's current GatewayState, rebuilt whole from each configuration the primary sends:
 * hooks compiled, plugin clients synced, namespace source chosen, request budget set. Requests
 * read `current()` once; the swap is a single assignment, so a request sees one generation only.
 */
import { compileHooks, type RequestBudgetOptions } from '@hookgate/admission';
import type { GatewayConfiguration, LoadedConfiguration } from '@hookgate/config';
import type { GatewayMetrics, Logger } from '@hookgate/observability';
import { staticNamespaces } from '../namespaces/static-namespaces.js';
import type { NamespaceSource } from '../namespaces/namespace-source.js';
import type { GatewayState, GatewayStateSource } from '../server/gateway-state.js';
import { PluginSet } from './plugin-set.js';

export interface WorkerGatewayState extends GatewayState {
  readonly gateway: GatewayConfiguration;
  readonly budget: RequestBudgetOptions;
}

export class WorkerState implements GatewayStateSource {
  #state: WorkerGatewayState | undefined;
  #namespaces: { key: string; source: NamespaceSource } | undefined;
  readonly #plugins: PluginSet;

  constructor(
    private readonly log: Logger,
    private readonly metrics: GatewayMetrics,
  ) {
    this.#plugins = new PluginSet(metrics);
  }

  current(): WorkerGatewayState {
    if (this.#state === undefined) throw new Error('no configuration applied yet');
    return this.#state;
  }

  /** Builds the new state completely before swapping; rejects (state unchanged) if any part fails. */
  async apply(generation: number, loaded: LoadedConfiguration): Promise<void> {
    const gateway = loaded.gateway;
    const hooks = compileHooks(loaded.webhookConfigurations);
    const namespaces = await this.#namespaceSource(gateway);
    const plugins = this.#plugins.sync(gateway.plugins);
    this.#state = {
      generation,
      gateway,
      hooks,
      plugins,
      namespaces: namespaces.lookup,
      budget: { minMarginMs: gateway.timeouts.safetyMarginMs, defaultTimeoutMs: gateway.timeouts.defaultRequestTimeoutSeconds * 1000 },
    };
  }

  async close(): Promise<void> {
    this.#plugins.close();
    await this.#namespaces?.source.close();
  }

  /** Static labels are rebuilt on every change; an informer is kept while the kubernetes section is unchanged. */
  async #namespaceSource(gateway: GatewayConfiguration): Promise<NamespaceSource> {
    const key = gateway.kubernetes.mode === 'none' ? JSON.stringify(gateway.namespaces) : JSON.stringify(gateway.kubernetes);
    if (this.#namespaces?.key === key) return this.#namespaces.source;
    const previous = this.#namespaces?.source;
    const source = gateway.kubernetes.mode === 'none' ? staticNamespaces(gateway.namespaces) : await this.#informer(gateway.kubernetes);
    this.#namespaces = { key, source };
    void previous?.close();
    return source;
  }

  /** @kubernetes/client-node costs a second to load: only when an apiserver is configured. */
  async #informer(kubernetes: GatewayConfiguration['kubernetes']): Promise<NamespaceSource> {
    const { informerNamespaces, loadKubeConfig } = await import('../namespaces/index.js');
    const access = kubernetes.mode === 'inCluster' ? { mode: 'inCluster' as const } : { mode: 'kubeconfig' as const, ...(kubernetes.kubeconfig ? { kubeconfig: kubernetes.kubeconfig } : {}) };
    return informerNamespaces(loadKubeConfig(access), {
      log: this.log,
      onLookup: (source, result) => this.metrics.namespaceLookups.inc({ source, result }),
    });
  }
}
