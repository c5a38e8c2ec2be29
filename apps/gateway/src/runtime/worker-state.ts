/**
 * The worker's current GatewayState, rebuilt whole from the configuration and the registry
 * snapshot the primary sends: static and registered hooks merged into one HookSet, plugin clients
 * synced, namespace source chosen, request budget set. Requests read `current()` once; the swap is
 * a single assignment, so a request sees one configuration and one registry generation only.
 *
 * Rebuilds run one at a time, in arrival order, each from the latest configuration and snapshot
 * received. A renewal (same registry generation) rebuilds nothing: it only moves the leases the
 * lease guard reads, and the guard reads the latest snapshot on every call.
 */
import { type HookGroupInvoker, type HookInvoker, type HookSet, type RequestBudgetOptions } from '@hookgate/admission';
import type { GatewayConfiguration, LoadedConfiguration } from '@hookgate/config';
import type { GatewayMetrics, Logger } from '@hookgate/observability';
import { staticNamespaces } from '../namespaces/static-namespaces.js';
import type { LookupOutcome, LookupSource, NamespaceSource } from '../namespaces/namespace-source.js';
import { createLeaseGroupGuard, createLeaseGuard, mergeHookSources, type RegistrySnapshot } from '../registry/index.js';
import type { GatewayState, GatewayStateSource } from '../server/gateway-state.js';
import { failingOpen, hookSetsByPolicy } from '../server/policy-hook-sets.js';
import type { ServiceResolver } from '../bridge/service-resolver.js';
import { PluginSet, type PluginSpec } from './plugin-set.js';
import { kubernetesAccessOf, serviceRefsOf } from './service-refs.js';
import { NO_REGISTRATIONS, staticSourcesOf } from './registry-sources.js';

export interface WorkerGatewayState extends GatewayState {
  readonly gateway: GatewayConfiguration;
  readonly budget: RequestBudgetOptions;
  /** The registry generation merged into `hooks`. */
  readonly registryGeneration: number;
  /** Break glass is on: every hook in `hooks` and `hooksByPolicy` fails open. */
  readonly breakGlass: boolean;
  /** Resolves bridged webhooks' service references through the apiserver; absent with `kubernetes.mode: none`. */
  readonly services?: ServiceResolver;
}

export class WorkerState implements GatewayStateSource {
  #state: WorkerGatewayState | undefined;
  #namespaces: { key: string; source: NamespaceSource } | undefined;
  #services: { key: string; resolver: ServiceResolver } | undefined;
  /** The last configuration applied, rebuilt again on every registry change. */
  #configuration: { readonly generation: number; readonly loaded: LoadedConfiguration } | undefined;
  /** The latest snapshot received (renewals included): what the lease guard reads. */
  #registry: RegistrySnapshot = NO_REGISTRATIONS;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #plugins: PluginSet;
  /** Fails the calls of a registered plugin whose lease ran out; one per registry socket (named in its message). */
  #guard: (inner: HookInvoker) => HookInvoker = (inner) => inner;
  #groupGuard: (inner: HookGroupInvoker) => HookGroupInvoker = (inner) => inner;
  #guardSocket: string | undefined;
  #breakGlass = false;

  constructor(
    private readonly log: Logger,
    private readonly metrics: GatewayMetrics,
  ) {
    this.#plugins = new PluginSet(metrics, log);
  }

  current(): WorkerGatewayState {
    if (this.#state === undefined) throw new Error('no configuration applied yet');
    return this.#state;
  }

  /** The registry snapshot received last. */
  get registry(): RegistrySnapshot {
    return this.#registry;
  }

  /**
   * A configuration (with the snapshot it was checked against). Builds the new state completely
   * before swapping; rejects (state unchanged) if any part fails.
   */
  apply(generation: number, loaded: LoadedConfiguration, registry?: RegistrySnapshot): Promise<void> {
    if (registry !== undefined) this.#receive(registry);
    return this.#enqueue(() => this.#build(generation, loaded));
  }

  /**
   * A registry change. Resolves true when the hooks were rebuilt, false for a renewal (or before
   * the first configuration); rejects, keeping the previous state, when the merge fails.
   */
  applyRegistry(registry: RegistrySnapshot): Promise<boolean> {
    const previous = this.#registry.generation;
    if (!this.#receive(registry) || registry.generation === previous) return Promise.resolve(false);
    return this.#enqueue(async () => {
      const configuration = this.#configuration;
      if (configuration === undefined) return false;
      await this.#build(configuration.generation, configuration.loaded);
      return true;
    });
  }

  /** The break-glass switch: rebuilds the served hooks with every failurePolicy Ignore (or back). */
  setBreakGlass(on: boolean): Promise<void> {
    if (on === this.#breakGlass) return Promise.resolve();
    this.#breakGlass = on;
    return this.#enqueue(async () => {
      const configuration = this.#configuration;
      if (configuration !== undefined) await this.#build(configuration.generation, configuration.loaded);
    });
  }

  async close(): Promise<void> {
    await this.#queue.catch(() => undefined);
    this.#plugins.close();
    await this.#namespaces?.source.close();
    await this.#services?.resolver.close();
  }

  /** Keeps the newest snapshot; an older one (out of order) is ignored. */
  #receive(registry: RegistrySnapshot): boolean {
    if (registry.generation < this.#registry.generation) return false;
    this.#registry = registry;
    return true;
  }

  #enqueue<T>(step: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(step, step);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #build(generation: number, loaded: LoadedConfiguration): Promise<void> {
    const gateway = loaded.gateway;
    const registry = this.#registry;
    const merged = mergeHookSources(staticSourcesOf(loaded), registry);
    if (!merged.ok)
      throw new Error(
        `the configuration and the registrations conflict (keeping the previous hooks):\n${merged.error.join('\n')}`,
      );
    const namespaces = await this.#namespaceSource(gateway);
    const services = await this.#serviceResolver(gateway, merged.value.hooks);
    const specs: PluginSpec[] = [
      ...gateway.plugins,
      ...merged.value.plugins
        .filter((p) => p.source === 'registered')
        .map((p) => ({
          name: p.name,
          target: p.target,
          ...(p.registeredAt === undefined ? {} : { registeredAt: p.registeredAt }),
          // TLS as registered; the client identity presented (mTLS) is the gateway's own setting.
          ...(p.tls === undefined
            ? {}
            : {
                registeredTls: p.tls,
                ...(gateway.registry.clientTls === undefined ? {} : { tls: gateway.registry.clientTls }),
              }),
        })),
    ];
    const plugins = this.#plugins.sync(specs);
    if (this.#guardSocket !== gateway.registry.socket) {
      this.#guardSocket = gateway.registry.socket;
      this.#guard = createLeaseGuard(() => this.#registry, { socket: gateway.registry.socket });
      this.#groupGuard = createLeaseGroupGuard(() => this.#registry, { socket: gateway.registry.socket });
    }
    this.#configuration = { generation, loaded };
    this.#state = {
      generation,
      registryGeneration: registry.generation,
      gateway,
      ...this.#served(merged.value.hooks),
      plugins,
      namespaces: namespaces.lookup,
      budget: {
        minMarginMs: gateway.timeouts.safetyMarginMs,
        defaultTimeoutMs: gateway.timeouts.defaultRequestTimeoutSeconds * 1000,
      },
      annotations: { includePatchAnnotations: gateway.audit.patchAnnotations },
      guardPlugins: this.#guard,
      guardPluginGroups: this.#groupGuard,
      ...(services === undefined ? {} : { services }),
    };
  }

  /** The hooks as served: split by configured failurePolicy first, then failing open under break glass. */
  #served(hooks: HookSet): Pick<WorkerGatewayState, 'hooks' | 'hooksByPolicy' | 'breakGlass'> {
    const byPolicy = hookSetsByPolicy(hooks);
    if (!this.#breakGlass) return { hooks, hooksByPolicy: byPolicy, breakGlass: false };
    return {
      hooks: failingOpen(hooks),
      hooksByPolicy: { Fail: failingOpen(byPolicy.Fail), Ignore: byPolicy.Ignore },
      breakGlass: true,
    };
  }

  /** Kept while the kubernetes section is unchanged; watches the Services the current hooks name. */
  async #serviceResolver(gateway: GatewayConfiguration, hooks: HookSet): Promise<ServiceResolver | undefined> {
    const key = JSON.stringify(gateway.kubernetes);
    let resolver = this.#services?.key === key ? this.#services.resolver : undefined;
    if (resolver === undefined) {
      void this.#services?.resolver.close();
      this.#services = undefined;
      if (gateway.kubernetes.mode === 'none') return undefined;
      const { serviceResolverFor } = await import('../bridge/service-resolver.js');
      resolver = serviceResolverFor(kubernetesAccessOf(gateway.kubernetes), { log: this.log });
      this.#services = { key, resolver };
    }
    resolver.watch(serviceRefsOf(hooks));
    return resolver;
  }

  /** Static labels are rebuilt on every change; an informer is kept while the kubernetes section is unchanged. */
  async #namespaceSource(gateway: GatewayConfiguration): Promise<NamespaceSource> {
    const key =
      gateway.kubernetes.mode === 'none' ? JSON.stringify(gateway.namespaces) : JSON.stringify(gateway.kubernetes);
    if (this.#namespaces?.key === key) return this.#namespaces.source;
    const previous = this.#namespaces?.source;
    const source =
      gateway.kubernetes.mode === 'none'
        ? staticNamespaces(gateway.namespaces, this.#countLookup)
        : await this.#informer(gateway.kubernetes);
    this.#namespaces = { key, source };
    void previous?.close();
    return source;
  }

  /** @kubernetes/client-node costs a second to load: only when an apiserver is configured. */
  async #informer(kubernetes: GatewayConfiguration['kubernetes']): Promise<NamespaceSource> {
    const { informerNamespacesFor } = await import('../namespaces/informer-namespaces.js');
    const access =
      kubernetes.mode === 'inCluster'
        ? { mode: 'inCluster' as const }
        : { mode: 'kubeconfig' as const, ...(kubernetes.kubeconfig ? { kubeconfig: kubernetes.kubeconfig } : {}) };
    return informerNamespacesFor(access, {
      log: this.log,
      onLookup: this.#countLookup,
    });
  }

  readonly #countLookup = (source: LookupSource, result: LookupOutcome): void => {
    this.metrics.namespaceLookups.inc({ source, result });
  };
}
