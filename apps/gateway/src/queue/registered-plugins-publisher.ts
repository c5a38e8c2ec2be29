/**
 * Tells controllers where the plugins registered at run time listen: the primary publishes its
 * Registry's plugins (name, target, TLS CA and server name, registration start, lease end) to
 * Redis whenever the snapshot changes, and again every REFRESH_MS so the key's TTL never lapses
 * while this gateway runs (`@hookgate/queue` registered-plugins.ts has the keys). A Redis that does not answer only delays
 * the publication: the next change, refresh or reconnect publishes the current set.
 *
 * The gateway id is the host name and the registry socket: unique per gateway on a node, the same
 * across restarts (a restarted gateway replaces its own set).
 */
import { hostname } from 'node:os';
import type { Logger } from '@hookgate/observability';
import {
  REGISTERED_PLUGINS_SCHEMA,
  createRedisClient,
  publishRegisteredPlugins,
  redactRedisUrl,
  withdrawRegisteredPlugins,
  type PublishedPluginSet,
} from '@hookgate/queue';
import type { RegistrySnapshot } from '../registry/index.js';

/** A published set lapses this long after the last publication (a gateway that died stops counting). */
export const PUBLISHED_TTL_MS = 30_000;
/** Publication without a change, well inside the TTL. */
export const REFRESH_MS = 10_000;
/** A shutdown waits this long at most to withdraw the set (it lapses by itself otherwise). */
const WITHDRAW_TIMEOUT_MS = 1_000;

export interface PublisherOptions {
  readonly redis: { readonly url: string; readonly prefix: string; readonly connectTimeoutMs: number };
  /** Registry socket path: with the host name, this gateway's id. */
  readonly registrySocket: string;
  readonly snapshot: () => RegistrySnapshot;
  readonly log: Logger;
  /** Tests shorten these. */
  readonly ttlMs?: number;
  readonly refreshMs?: number;
}

export interface RegisteredPluginsPublisher {
  readonly gateway: string;
  /** Publishes the current snapshot soon (after any publication in flight). */
  changed(): void;
  /** Stops publishing and withdraws the set. */
  close(): Promise<void>;
}

export function gatewayIdOf(registrySocket: string): string {
  return `${hostname()}:${registrySocket}`;
}

/** The set one gateway publishes from its Registry snapshot. */
export function publishedSetOf(gateway: string, snapshot: RegistrySnapshot, now: number): PublishedPluginSet {
  return {
    schema: REGISTERED_PLUGINS_SCHEMA,
    gateway,
    generation: snapshot.generation,
    publishedAt: now,
    plugins: snapshot.registrations.map((r) => ({
      name: r.plugin,
      target: r.target,
      ...(r.tls === undefined ? {} : { tls: r.tls }),
      registeredAt: r.registeredAt,
      expiresAt: r.expiresAt,
    })),
  };
}

export function startRegisteredPluginsPublisher(options: PublisherOptions): RegisteredPluginsPublisher {
  const { log } = options;
  const ttlMs = options.ttlMs ?? PUBLISHED_TTL_MS;
  const gateway = gatewayIdOf(options.registrySocket);
  const redisLabel = redactRedisUrl(options.redis.url);
  const redis = createRedisClient(options.redis.url, {
    // A publication that cannot go now is not kept: the next one carries the whole current set.
    offlineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeoutMs: options.redis.connectTimeoutMs,
    // A Redis that takes a command and never answers must not hold a publication (or the shutdown).
    commandTimeoutMs: options.redis.connectTimeoutMs,
    retryDelayMs: (times) => Math.min(times * 200, 2_000),
  });
  let failing = false;
  const failed = (error: Error) => {
    if (failing) return;
    failing = true;
    log.warn(
      { redis: redisLabel, err: error.message },
      'cannot publish the registered plugins to Redis: controllers keep the last published set until it lapses; retrying',
    );
  };
  redis.on('error', failed);

  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const publish = (): void => {
    if (closed) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    const set = publishedSetOf(gateway, options.snapshot(), Date.now());
    running = publishRegisteredPlugins(redis, options.redis.prefix, set, ttlMs)
      .then(() => {
        if (failing) log.info({ redis: redisLabel }, 'registered plugins published to Redis again');
        failing = false;
        log.debug({ generation: set.generation, plugins: set.plugins.length }, 'registered plugins published');
      })
      .catch(failed)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          publish();
        }
      });
  };
  redis.on('ready', publish);
  const timer = setInterval(publish, options.refreshMs ?? REFRESH_MS);
  timer.unref();

  return {
    gateway,
    changed: publish,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
      if (redis.status === 'ready') {
        await Promise.race([
          withdrawRegisteredPlugins(redis, options.redis.prefix, gateway).catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, WITHDRAW_TIMEOUT_MS).unref()),
        ]);
      }
      redis.disconnect();
    },
  };
}
