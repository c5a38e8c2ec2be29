/**
 * Namespace labels from the apiserver (k8s-semantics §6): an informer (list + watch of
 * /api/v1/namespaces, @hookgate/kubernetes) keeps every namespace's labels in memory; a cache miss
 * falls back to a live GET, as the apiserver's own matcher does. A 404 means the namespace does
 * not exist; any other failure is an error the chain turns into a 500. The informer restarts
 * itself with backoff after errors.
 */
import type { NamespaceLookupResult } from '@hookgate/admission';
import {
  isKubernetesApiError,
  isNotFound,
  loadKubeConfig,
  resourceClient,
  startInformer,
  type KubeConfig,
  type KubernetesAccess,
  type KubernetesObject,
} from '@hookgate/kubernetes';
import type { ComponentLog } from '@hookgate/observability';
import { NOT_FOUND, buildFoundResult } from './namespace-result.js';
import type { LookupOutcome, LookupSource, NamespaceSource } from './namespace-source.js';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' } as const;

export interface InformerNamespacesOptions {
  readonly log?: Pick<ComponentLog, 'warn' | 'info'>;
  /** Called once per lookup, for hookgate_namespace_lookups_total. */
  readonly onLookup?: (source: LookupSource, outcome: LookupOutcome) => void;
  /** Bound on a live GET; the chain's own deadline is usually shorter. Default 5000. */
  readonly liveTimeoutMs?: number;
  /** Restart delays after informer errors: doubles from initial up to max. Defaults 500 and 30000. */
  readonly restartBackoffMs?: { readonly initial: number; readonly max: number };
}

/** The informer with the kubeconfig the GatewayConfiguration's `kubernetes` section names. */
export function informerNamespacesFor(
  access: KubernetesAccess,
  options: InformerNamespacesOptions = {},
): NamespaceSource {
  return informerNamespaces(loadKubeConfig(access), options);
}

export function informerNamespaces(kubeConfig: KubeConfig, options: InformerNamespacesOptions = {}): NamespaceSource {
  const api = resourceClient(kubeConfig);
  const liveTimeoutMs = options.liveTimeoutMs ?? 5000;
  const onLookup = options.onLookup ?? (() => undefined);

  let cache = new Map<string, NamespaceLookupResult>();
  const inFlight = new Map<string, Promise<NamespaceLookupResult>>();
  const put = (ns: KubernetesObject) => {
    if (ns.metadata?.name) cache.set(ns.metadata.name, buildFoundResult(ns));
  };

  const informer = startInformer(kubeConfig, NAMESPACES, {
    ...(options.restartBackoffMs === undefined ? {} : { restartBackoffMs: options.restartBackoffMs }),
    handlers: {
      // Rebuild the whole cache from the list in one step, so readiness never sees a half-filled map.
      listed: (items) => {
        cache = new Map(items.map((ns) => [ns.metadata?.name ?? '', buildFoundResult(ns)]));
      },
      synced: () => options.log?.info({ namespaces: cache.size }, 'namespace informer synced'),
      added: put,
      updated: put,
      deleted: (ns) => {
        if (ns.metadata?.name) cache.delete(ns.metadata.name);
      },
      failed: (err, stage, retryInMs) => {
        if (stage === 'start') options.log?.warn({ error: describeError(err) }, 'namespace informer could not start');
        else
          options.log?.warn(
            { error: describeError(err), retryInMs },
            'namespace informer failed; serving cached labels and live GETs until it restarts',
          );
      },
    },
  });

  async function readLive(name: string): Promise<NamespaceLookupResult> {
    let timer: NodeJS.Timeout | undefined;
    const abort = new AbortController();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`no answer within ${liveTimeoutMs} ms`));
        abort.abort();
      }, liveTimeoutMs);
      timer.unref();
    });
    try {
      const ns = await Promise.race([api.get(NAMESPACES, name, { signal: abort.signal }), timeout]);
      onLookup('live', 'found');
      return buildFoundResult(ns);
    } catch (err) {
      if (isNotFound(err)) {
        onLookup('live', 'not_found');
        return NOT_FOUND;
      }
      onLookup('live', 'error');
      return { error: `reading namespace "${name}" from the apiserver failed: ${describeError(err)}` };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    lookup(name) {
      const hit = cache.get(name);
      if (hit !== undefined) {
        onLookup('cache', 'found');
        return hit;
      }
      // Concurrent requests for the same missing namespace share one GET.
      let pending = inFlight.get(name);
      if (pending === undefined) {
        pending = readLive(name).finally(() => inFlight.delete(name));
        inFlight.set(name, pending);
      }
      return pending;
    },
    ready: () => informer.synced(),
    whenSynced: () => informer.whenSynced(),
    close: () => informer.close(),
  };
}

/** One line: the apiserver's answer (HTTP status and Status message) when it gave one, else the error's message. */
function describeError(err: unknown): string {
  if (isKubernetesApiError(err)) return err.answer;
  return err instanceof Error ? err.message : String(err);
}
