/**
 * An informer for any resource: list, then watch from the list's resourceVersion, keeping every
 * object in memory and telling the handlers about each change (client-node's ListWatch).
 *
 * ListWatch stops on errors (a failed list, a refused watch), so this informer restarts it with
 * exponential backoff, reset by any sign of life (a list, an event). A watch that simply ends is
 * resumed by ListWatch itself, and a 410 Gone makes it re-list.
 *
 *   const pods = startInformer(kubeConfig, { group: '', version: 'v1', resource: 'pods' }, {
 *     namespace: 'shop',
 *     handlers: { added: (pod) => ..., deleted: (pod) => ..., failed: (err, retryInMs) => log.warn(...) },
 *   });
 *   await pods.whenSynced();
 *   pods.get('web-0', 'shop');
 *   await pods.close();
 */
import { ListWatch, Watch, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { KubernetesApiError, isKubernetesApiError, resourceClient } from './resource-client.js';
import { resourcePath, type ResourceRef } from './resource.js';

export interface InformerHandlers<T> {
  /**
   * Every complete list (the first, and each re-list after a restart or a 410 Gone), before its
   * objects are announced one by one: replace whatever was derived from the previous list at once.
   */
  readonly listed?: (items: readonly T[]) => void;
  /** Once, after the first complete list. */
  readonly synced?: () => void;
  readonly added?: (object: T) => void;
  readonly updated?: (object: T) => void;
  readonly deleted?: (object: T) => void;
  /**
   * The informer stopped on an error and restarts in `retryInMs`. `stage` 'run': a list or a watch
   * failed (a KubernetesApiError when the apiserver answered with an error status); 'start': starting
   * it threw (one restart is scheduled either way).
   */
  readonly failed?: (error: unknown, stage: 'run' | 'start', retryInMs: number) => void;
}

export interface InformerOptions<T> {
  /** Only this namespace (namespaced resources); all namespaces when absent. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Restart delays after errors: doubles from initial up to max. Defaults 500 and 30000. */
  readonly restartBackoffMs?: { readonly initial: number; readonly max: number };
  readonly handlers?: InformerHandlers<T>;
}

export interface ResourceInformer<T> {
  /** True once the first list completed. */
  synced(): boolean;
  /** Resolves when synced() first becomes true. */
  whenSynced(): Promise<void>;
  /** An object from the cache. */
  get(name: string, namespace?: string): T | undefined;
  /** The cached objects (of one namespace, or all). */
  list(namespace?: string): readonly T[];
  close(): Promise<void>;
}

export function startInformer<T extends KubernetesObject = KubernetesObject>(
  kubeConfig: KubeConfig,
  ref: ResourceRef,
  options: InformerOptions<T> = {},
): ResourceInformer<T> {
  const api = resourceClient(kubeConfig);
  const handlers = options.handlers ?? {};
  const backoff = options.restartBackoffMs ?? { initial: 500, max: 30_000 };
  // Our own cache, replaced whole by each list before synced() turns true (ListWatch fills its
  // own only after the list function returned).
  let objects = new Map<string, T>();
  let synced = false;
  let closed = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let nextDelay = backoff.initial;
  let resolveSynced: () => void = () => undefined;
  const syncedPromise = new Promise<void>((resolve) => (resolveSynced = resolve));

  const list = async () => {
    const result = await api.list<T>(ref, {
      ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
      ...(options.labelSelector === undefined ? {} : { labelSelector: options.labelSelector }),
      ...(options.fieldSelector === undefined ? {} : { fieldSelector: options.fieldSelector }),
    });
    objects = new Map(result.items.map((object) => [keyOf(object), object]));
    handlers.listed?.(result.items);
    nextDelay = backoff.initial;
    if (!synced) {
      synced = true;
      resolveSynced();
      handlers.synced?.();
    }
    return result;
  };
  const path = resourcePath(ref, options.namespace === undefined ? {} : { namespace: options.namespace });
  const informer = new ListWatch<T>(
    path,
    new Watch(kubeConfig),
    list,
    false,
    options.labelSelector,
    options.fieldSelector,
  );
  const stored = (callback: ((object: T) => void) | undefined) => (object: T) => {
    nextDelay = backoff.initial;
    objects.set(keyOf(object), object);
    callback?.(object);
  };
  informer.on('add', stored(handlers.added));
  informer.on('update', stored(handlers.updated));
  informer.on('delete', (object) => {
    objects.delete(keyOf(object));
    handlers.deleted?.(object);
  });
  informer.on('error', (error) => {
    if (closed) return; // close() aborts the watch, which reports an AbortError
    handlers.failed?.(fromWatchError(error, path), 'run', nextDelay);
    scheduleRestart();
  });

  function scheduleRestart(): void {
    if (closed || restartTimer !== undefined) return;
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      start();
    }, nextDelay);
    restartTimer.unref();
    nextDelay = Math.min(nextDelay * 2, backoff.max);
  }

  function start(): void {
    if (closed) return;
    informer.start().catch((error: unknown) => {
      handlers.failed?.(error, 'start', nextDelay);
      scheduleRestart();
    });
  }

  start();

  return {
    synced: () => synced,
    whenSynced: () => syncedPromise,
    get: (name, namespace) => objects.get(`${namespace ?? ''}/${name}`),
    list: (namespace) =>
      [...objects.values()].filter((o) => namespace === undefined || o.metadata?.namespace === namespace),
    async close() {
      closed = true;
      clearTimeout(restartTimer);
      await informer.stop();
    },
  };
}

function keyOf(object: KubernetesObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/**
 * client-node's Watch rejects a refused watch with a plain Error carrying `statusCode` (and the
 * status text as its message): give it this package's error, so callers handle one shape.
 */
function fromWatchError(error: unknown, path: string): unknown {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== 'number' || isKubernetesApiError(error)) return error;
  return new KubernetesApiError(status, `GET ${path}?watch=true`, undefined, undefined);
}
