/**
 * Keeps one client per plugin in step with the merged plugin table: a plugin whose target did not
 * change keeps its warm channel; a new or moved plugin, or a registered plugin that registered
 * afresh (back after its lease ran out, or changed), gets a new client, which connects at once
 * instead of waiting out the old channel's reconnect backoff. The clients left over are returned
 * to be closed once the new table is in place (calls in flight finish on the old ones).
 */
import type { PluginTarget } from './types.js';

export interface Closable {
  readonly target: string;
  close(): void;
}

export interface ReconciledClients<C extends Closable> {
  readonly clients: Map<string, C>;
  /** No longer in the table, or replaced: close these after the swap. */
  readonly retired: C[];
}

/** The registration epoch each client was created for (clients made elsewhere have none). */
const epochs = new WeakMap<object, number | undefined>();

export function reconcilePluginClients<C extends Closable>(
  previous: ReadonlyMap<string, C>,
  wanted: readonly PluginTarget[],
  create: (plugin: PluginTarget) => C,
): ReconciledClients<C> {
  const clients = new Map<string, C>();
  for (const plugin of wanted) {
    const existing = previous.get(plugin.name);
    const reusable =
      existing !== undefined &&
      existing.target === plugin.target &&
      (!epochs.has(existing) || epochs.get(existing) === plugin.registeredAt);
    if (reusable) {
      clients.set(plugin.name, existing);
      continue;
    }
    const client = create(plugin);
    epochs.set(client, plugin.registeredAt);
    clients.set(plugin.name, client);
  }
  const retired = [...previous].filter(([name, client]) => clients.get(name) !== client).map(([, client]) => client);
  return { clients, retired };
}
