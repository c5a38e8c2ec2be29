/**
 * The worker's gRPC plugin clients, kept across reloads and registry changes: a plugin whose
 * target, TLS and transport did not change keeps its warm channel (and its circuit breaker);
 * changed or removed plugins are retired and closed after a grace period, so requests still
 * running on the old configuration finish. A registered plugin that registered afresh (back after
 * a crash, or changed) gets a new client: a fresh channel and a closed circuit.
 */
import { loadPluginTls, type PluginConfiguration } from '@hookgate/config';
import { setCircuitState, forgetPlugin, type GatewayMetrics, type Logger } from '@hookgate/observability';
import { createPluginClient, type CircuitState, type PluginClient, type PluginTls } from '@hookgate/plugin-client';
import type { PluginClients } from '../grpc/index.js';

/** Longer than any request can run (timeoutSeconds ≤ 30 s plus the apiserver's own margin). */
const RETIRE_AFTER_MS = 45_000;
const STRAY_LOG_INTERVAL_MS = 60_000;

/**
 * A plugin to keep a client for: a static one from the GatewayConfiguration, or a registered one
 * with its registration epoch and the TLS it registered (CA bundle and server name, as PEM text);
 * a registered plugin's `tls` files are the gateway's own client identity (`registry.clientTls`).
 */
export type PluginSpec = PluginConfiguration & {
  readonly registeredAt?: number;
  readonly registeredTls?: { readonly ca: string; readonly serverName?: string };
};

export interface PluginSetOptions {
  /** How long a replaced or removed client stays open for the calls still on it. Default 45 s. */
  readonly retireAfterMs?: number;
}

export class PluginSet {
  #clients = new Map<string, { key: string; client: PluginClient }>();
  readonly #retiring = new Set<NodeJS.Timeout>();
  readonly #retired = new Set<PluginClient>();

  /** When each plugin's stray answers were last logged: at most one line per plugin and minute. */
  readonly #strayLogged = new Map<string, number>();

  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly log?: Pick<Logger, 'warn' | 'info'>,
    private readonly options: PluginSetOptions = {},
  ) {}

  /** The clients for `plugins`; throws when a TLS file cannot be read (the reload then fails as a whole). */
  sync(plugins: readonly PluginSpec[]): PluginClients {
    const next = new Map<string, { key: string; client: PluginClient }>();
    const tlsByName = new Map(plugins.map((p) => [p.name, tlsOf(p)] as const));
    for (const plugin of plugins) {
      const key = JSON.stringify({
        target: plugin.target,
        tls: plugin.tls ?? null,
        registeredTls: plugin.registeredTls ?? null,
        stream: plugin.stream ?? null,
        registeredAt: plugin.registeredAt ?? null,
      });
      const existing = this.#clients.get(plugin.name);
      if (existing !== undefined && existing.key === key) {
        next.set(plugin.name, existing);
        continue;
      }
      const tls = tlsByName.get(plugin.name);
      const client = createPluginClient(plugin.name, plugin.target, {
        ...(tls ? { tls } : {}),
        ...(plugin.stream === false ? { transport: 'unary' as const } : {}),
        onCircuitStateChange: (name, state, previous) => {
          setCircuitState(this.metrics, name, state);
          this.#circuitChanged(name, state, previous, client.breaker?.consecutiveFailures ?? 0);
        },
        onStrayAnswer: (name, id) => this.#strayAnswer(name, id),
      });
      setCircuitState(this.metrics, plugin.name, 'closed');
      next.set(plugin.name, { key, client });
    }
    for (const [name, old] of this.#clients) {
      if (next.get(name)?.client !== old.client) this.#retire(name, old.client, next.has(name));
    }
    this.#clients = next;
    return new Map([...next].map(([name, { client }]) => [name, client]));
  }

  close(): void {
    for (const timer of this.#retiring) clearTimeout(timer);
    this.#retiring.clear();
    for (const client of this.#retired) client.close();
    this.#retired.clear();
    for (const { client } of this.#clients.values()) client.close();
    this.#clients.clear();
  }

  /** Operators see the circuit open and close in the log, not only in hookgate_plugin_circuit_state. */
  #circuitChanged(plugin: string, state: CircuitState, previous: CircuitState, failures: number): void {
    if (state === 'open' && previous === 'closed') {
      this.log?.warn(
        { plugin, failures },
        'plugin circuit opened: its hooks now fail at once under their failurePolicy until a health probe succeeds; check that the plugin process is running and listening on its target',
      );
    } else if (state === 'closed' && previous !== 'closed') {
      this.log?.info({ plugin }, 'plugin circuit closed: the plugin answers again');
    }
  }

  #strayAnswer(plugin: string, id: number): void {
    this.metrics.strayAnswers.inc({ plugin });
    const now = Date.now();
    if (now - (this.#strayLogged.get(plugin) ?? 0) < STRAY_LOG_INTERVAL_MS) return;
    this.#strayLogged.set(plugin, now);
    this.log?.warn(
      { plugin, id },
      'plugin answered a message that is not in flight (unknown or repeated id, or after its timeout); if hookgate_plugin_stray_answers_total keeps rising, check how the plugin echoes AdmitRequest.id',
    );
  }

  #retire(name: string, client: PluginClient, replaced: boolean): void {
    if (!replaced) forgetPlugin(this.metrics, name);
    this.#retired.add(client);
    const timer = setTimeout(() => {
      this.#retiring.delete(timer);
      this.#retired.delete(client);
      client.close();
    }, this.options.retireAfterMs ?? RETIRE_AFTER_MS);
    timer.unref();
    this.#retiring.add(timer);
  }
}

/** Files read (configured TLS, the client identity), plus a registration's CA and server name. */
function tlsOf(plugin: PluginSpec): PluginTls | undefined {
  const files = loadPluginTls(plugin.tls);
  const registered = plugin.registeredTls;
  if (registered === undefined) return files;
  return {
    ...files,
    ca: registered.ca,
    ...(registered.serverName === undefined ? {} : { serverName: registered.serverName }),
  };
}
