/**
 * What the gateway serves right now: the HookSet of static + registered hooks and one client per
 * plugin, rebuilt on every registry change that touches hooks and swapped in as one object, so a
 * request reads a consistent pair (`const { hooks, clients } = served.current`) for its whole life.
 */
import { err, ok } from '@hookgate/admission';
import type { HookSet, Result } from '@hookgate/admission';
import { mergeHookSources } from './merge-hook-sources.js';
import { reconcilePluginClients, type Closable } from './plugin-clients.js';
import type { RegistrationStore } from './registration-store.js';
import type { PluginTarget, RegistryRefusal, StaticSources } from './types.js';

export interface ServedState<C> {
  readonly hooks: HookSet;
  readonly clients: ReadonlyMap<string, C>;
  readonly plugins: readonly PluginTarget[];
  /** The registry generation this state was built from. */
  readonly generation: number;
}

export interface ServedHooksOptions<C extends Closable> {
  readonly static: StaticSources;
  readonly store: RegistrationStore;
  /** Static plugins: with their TLS and stream settings from the GatewayConfiguration. */
  readonly createClient: (plugin: PluginTarget) => C;
  /** Clients replaced or removed are closed this long after the swap, so calls in flight finish. Default 30 s (the longest hook timeout). */
  readonly retireAfterMs?: number;
  /** After each swap (for logs and metrics). */
  readonly onSwap?: (state: ServedState<C>) => void;
  /** A rebuild that could not be merged; the previous state stays. Should not happen: the store refuses conflicts. */
  readonly onError?: (problems: readonly string[]) => void;
}

export class ServedHooks<C extends Closable> {
  readonly #options: ServedHooksOptions<C>;
  readonly #unsubscribe: () => void;
  readonly #retiring = new Map<C, NodeJS.Timeout>();
  #static: StaticSources;
  #current: ServedState<C>;

  constructor(options: ServedHooksOptions<C>) {
    this.#options = options;
    this.#static = options.static;
    const first = this.#build(new Map());
    if (!first.ok)
      throw new Error(`the static configuration and the registrations conflict:\n${first.error.join('\n')}`);
    this.#current = first.value;
    this.#unsubscribe = options.store.onChange((change) => {
      if (change.hooksChanged) this.#rebuild();
    });
  }

  get current(): ServedState<C> {
    return this.#current;
  }

  /**
   * A configuration reload. Refused, with the previous configuration kept, when the new static side
   * takes a name a registration holds (the store says which).
   */
  reload(sources: StaticSources): Result<ServedState<C>, RegistryRefusal> {
    const accepted = this.#options.store.replaceStatic(sources);
    if (!accepted.ok) return err(accepted.error);
    this.#static = sources;
    this.#rebuild();
    return ok(this.#current);
  }

  /** Stops following the store and closes every client, retiring ones included. */
  close(): void {
    this.#unsubscribe();
    for (const [client, timer] of this.#retiring) {
      clearTimeout(timer);
      client.close();
    }
    this.#retiring.clear();
    for (const client of this.#current.clients.values()) client.close();
  }

  #rebuild(): void {
    const next = this.#build(this.#current.clients);
    if (!next.ok) {
      this.#options.onError?.(next.error);
      return;
    }
    this.#current = next.value;
    this.#options.onSwap?.(next.value);
  }

  #build(previous: ReadonlyMap<string, C>): Result<ServedState<C>, string[]> {
    const snapshot = this.#options.store.snapshot();
    const merged = mergeHookSources(this.#static, snapshot);
    if (!merged.ok) return merged;
    const { clients, retired } = reconcilePluginClients(previous, merged.value.plugins, this.#options.createClient);
    for (const client of retired) this.#retire(client);
    return ok({ hooks: merged.value.hooks, clients, plugins: merged.value.plugins, generation: snapshot.generation });
  }

  #retire(client: C): void {
    const timer = setTimeout(() => {
      this.#retiring.delete(client);
      client.close();
    }, this.#options.retireAfterMs ?? 30_000);
    timer.unref();
    this.#retiring.set(client, timer);
  }
}
