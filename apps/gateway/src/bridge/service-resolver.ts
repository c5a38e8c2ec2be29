/**
 * Resolves bridged webhooks' `service` references through the apiserver, as kube-apiserver does:
 * the Service's ClusterIP and port (service-address.ts), read from a cache that a watch keeps
 * current. `<name>.<namespace>.svc` does not resolve on a control-plane node, whose resolver is
 * the host's, not the cluster's DNS.
 *
 * One informer per referenced Service (list + watch of that one name in its namespace, so the
 * gateway holds no other Services and needs get/list/watch on services only). Watches start when a
 * configuration names the Service (watch()) or at its first call, and stop when no hook names it.
 * Loads @kubernetes/client-node: import it lazily (worker-state does).
 */
import {
  isKubernetesApiError,
  loadKubeConfig,
  startInformer,
  type KubeConfig,
  type KubernetesAccess,
  type ResourceInformer,
} from '@hookgate/kubernetes';
import type { KubernetesObject } from '@hookgate/kubernetes';
import {
  serviceAddress,
  serviceKey,
  type ServiceAddressResult,
  type ServiceLike,
  type ServiceRef,
} from './service-address.js';

const SERVICES = { group: '', version: 'v1', resource: 'services' } as const;

export interface ServiceResolver {
  /** Watches exactly these Services from now on (the ones the current hooks name). */
  watch(refs: Iterable<Pick<ServiceRef, 'namespace' | 'name'>>): void;
  /** The address of the Service port; waits for the first list at most until `signal` aborts. */
  resolve(ref: ServiceRef, signal: AbortSignal): Promise<ServiceAddressResult>;
  close(): Promise<void>;
}

export interface ServiceResolverOptions {
  readonly log?: { warn(fields: object, message: string): void };
  /** Restart delays after watch errors: doubles from initial up to max. Defaults 500 and 30000. */
  readonly restartBackoffMs?: { readonly initial: number; readonly max: number };
}

interface Watched {
  readonly informer: ResourceInformer<KubernetesObject>;
  /** Why the last list or watch failed, until the next list succeeds. */
  lastError: string | undefined;
  /** Calls waiting for the first list: woken by the list or by a failure. */
  readonly waiting: Set<() => void>;
}

/** The resolver with the kubeconfig the GatewayConfiguration's `kubernetes` section names. */
export function serviceResolverFor(access: KubernetesAccess, options: ServiceResolverOptions = {}): ServiceResolver {
  return apiserverServiceResolver(loadKubeConfig(access), options);
}

export function apiserverServiceResolver(
  kubeConfig: KubeConfig,
  options: ServiceResolverOptions = {},
): ServiceResolver {
  const watched = new Map<string, Watched>();

  function start(namespace: string, name: string): Watched {
    const key = serviceKey(namespace, name);
    const existing = watched.get(key);
    if (existing !== undefined) return existing;
    const wake = () => {
      for (const waiter of entry.waiting) waiter();
      entry.waiting.clear();
    };
    const entry: Watched = {
      lastError: undefined,
      waiting: new Set(),
      informer: startInformer(kubeConfig, SERVICES, {
        namespace,
        fieldSelector: `metadata.name=${name}`,
        ...(options.restartBackoffMs === undefined ? {} : { restartBackoffMs: options.restartBackoffMs }),
        handlers: {
          listed: () => (entry.lastError = undefined),
          synced: wake,
          failed: (error, _stage, retryInMs) => {
            entry.lastError = describeError(error);
            wake();
            options.log?.warn(
              { service: key, error: entry.lastError, retryInMs },
              `reading Service ${key} for bridged webhooks failed; hooks calling it fail by their failurePolicy ` +
                'until it succeeds: check that the gateway kubeconfig may get, list and watch services ' +
                `in namespace ${namespace} (deploy/base/gateway/rbac.yaml)`,
            );
          },
        },
      }),
    };
    watched.set(key, entry);
    return entry;
  }

  return {
    watch(refs) {
      const wanted = new Set<string>();
      for (const ref of refs) {
        wanted.add(serviceKey(ref.namespace, ref.name));
        start(ref.namespace, ref.name);
      }
      for (const [key, entry] of watched) {
        if (wanted.has(key)) continue;
        watched.delete(key);
        void entry.informer.close();
      }
    },

    async resolve(ref, signal) {
      const entry = start(ref.namespace, ref.name);
      // Before the first list: wait for it, but not past a failure (no cached answer to give then).
      if (!entry.informer.synced() && entry.lastError === undefined) await listedOrFailed(entry, signal);
      if (!entry.informer.synced()) {
        const why = entry.lastError ?? 'the apiserver has not answered the list of services yet';
        return { ok: false, error: `cannot resolve service "${ref.name}" in namespace "${ref.namespace}": ${why}` };
      }
      const service = entry.informer.get(ref.name, ref.namespace) as ServiceLike | undefined;
      // The lister's error, as the apiserver words it.
      if (service === undefined) return { ok: false, error: `service "${ref.name}" not found` };
      return serviceAddress(service, ref.name, ref.port);
    },

    async close() {
      const entries = [...watched.values()];
      watched.clear();
      await Promise.all(entries.map((e) => e.informer.close()));
    },
  };
}

/** Resolves at the first list, the next failure, or when the signal aborts, whichever comes first. */
function listedOrFailed(entry: Watched, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      entry.waiting.delete(done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    entry.waiting.add(done);
  });
}

function describeError(error: unknown): string {
  if (isKubernetesApiError(error)) return error.answer;
  return error instanceof Error ? error.message : String(error);
}
