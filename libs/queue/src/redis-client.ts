/**
 * The one factory of ioredis clients: from a connection string (redis-url.ts) to a standalone
 * `Redis`, a `Redis` that finds its master through Sentinels, or a `Cluster`. Each use says how
 * it behaves while Redis is away (the producer fails fast, BullMQ's workers wait, the CLI gives up
 * at once); the factory maps that onto the topology's own options.
 *
 *   const redis = createRedisClient(url, REDIS_CLIENT_BEHAVIOUR.worker());
 */
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { requireRedisUrl, type RedisConnectionSpec } from './redis-url.js';

export type RedisClient = Redis | Cluster;

/** How a client behaves while Redis is away. */
export interface RedisClientBehaviour {
  /** null: a command waits for Redis however long it takes (BullMQ's workers); n: fails after n reconnects. */
  readonly maxRetriesPerRequest: number | null;
  /** false: a command while disconnected rejects at once instead of waiting in memory. */
  readonly offlineQueue: boolean;
  /** Delay before reconnect attempt `times`, or null to give up after the first failure (fail fast). */
  readonly retryDelayMs: ((times: number) => number) | null;
  readonly connectTimeoutMs?: number;
  /** A command unanswered this long rejects (a Redis that took it and went silent). */
  readonly commandTimeoutMs?: number;
  /** Connect on `connect()`, not at once. */
  readonly lazyConnect?: boolean;
}

/** The behaviours of each use, in one place. */
export const REDIS_CLIENT_BEHAVIOUR = {
  /** BullMQ workers, queue events, queues of the controller: commands wait out an outage. */
  worker: (): RedisClientBehaviour => ({
    maxRetriesPerRequest: null,
    offlineQueue: true,
    retryDelayMs: (times) => Math.min(times * 50, 2_000),
  }),
  /** The CLI: one try, a clear message, exit. */
  cli: (): RedisClientBehaviour => ({
    maxRetriesPerRequest: 1,
    offlineQueue: true,
    retryDelayMs: null,
    connectTimeoutMs: 5_000,
    lazyConnect: true,
  }),
} as const;

/** Parses (HG_ERR_QUEUE_OPTION_INVALID naming `field`, password hidden) and creates the client. */
export function createRedisClient(
  url: string | RedisConnectionSpec,
  behaviour: RedisClientBehaviour,
  field = 'redisUrl',
): RedisClient {
  return typeof url === 'string' ? clientOf(requireRedisUrl(url, field), behaviour) : clientOf(url, behaviour);
}

function clientOf(spec: RedisConnectionSpec, behaviour: RedisClientBehaviour): RedisClient {
  const tls = spec.tls ? {} : undefined;
  const auth = {
    ...(spec.username !== undefined ? { username: spec.username } : {}),
    ...(spec.password !== undefined ? { password: spec.password } : {}),
  };
  const timeouts = {
    ...(behaviour.connectTimeoutMs !== undefined ? { connectTimeout: behaviour.connectTimeoutMs } : {}),
    ...(behaviour.commandTimeoutMs !== undefined ? { commandTimeout: behaviour.commandTimeoutMs } : {}),
  };
  const retry = behaviour.retryDelayMs;
  if (spec.topology === 'cluster') {
    const options: ClusterOptions = {
      enableOfflineQueue: behaviour.offlineQueue,
      lazyConnect: behaviour.lazyConnect ?? false,
      clusterRetryStrategy: retry === null ? () => null : (times) => retry(times),
      // A node's address comes from CLUSTER SLOTS; with TLS keep the name as given (certificates name it).
      ...(spec.tls ? { dnsLookup: (address: string, done: (e: null, a: string) => void) => done(null, address) } : {}),
      redisOptions: {
        ...auth,
        ...timeouts,
        ...(tls ? { tls } : {}),
        maxRetriesPerRequest: behaviour.maxRetriesPerRequest,
      },
    };
    return new Cluster(
      spec.nodes.map(({ host, port }) => ({ host, port })),
      options,
    );
  }
  const common: RedisOptions = {
    ...auth,
    ...timeouts,
    db: spec.db,
    enableOfflineQueue: behaviour.offlineQueue,
    maxRetriesPerRequest: behaviour.maxRetriesPerRequest,
    lazyConnect: behaviour.lazyConnect ?? false,
    retryStrategy: retry === null ? () => null : (times) => retry(times),
    ...(tls ? { tls } : {}),
  };
  if (spec.topology === 'standalone') {
    const [node] = spec.nodes;
    return new Redis({ ...common, host: node!.host, port: node!.port });
  }
  return new Redis({
    ...common,
    sentinels: spec.nodes.map(({ host, port }) => ({ host, port })),
    name: spec.masterName!,
    role: 'master',
    ...(spec.sentinelUsername !== undefined ? { sentinelUsername: spec.sentinelUsername } : {}),
    ...(spec.sentinelPassword !== undefined ? { sentinelPassword: spec.sentinelPassword } : {}),
    ...(spec.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    // Asking the Sentinels for the master: as persistent as the client itself, or one round.
    sentinelRetryStrategy: retry === null ? () => null : (times) => retry(times),
    // Subscribes to the Sentinels' +switch-master: reconnects to a new master at once after a failover.
    failoverDetector: true,
    // A master demoted by a failover answers writes with READONLY: reconnect, the Sentinels name the
    // new one. With an offline queue the command is sent again there (2); without one (fail-fast
    // clients) a resend would only fail as "stream isn't writeable", so the caller gets READONLY (1).
    reconnectOnError: (error) => (error.message.startsWith('READONLY') ? (behaviour.offlineQueue ? 2 : 1) : false),
  });
}

/** Whether a client is a Redis Cluster client. */
export function isCluster(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/**
 * A connection error's text as an operator needs it: a Cluster client's "Failed to refresh slots
 * cache." keeps the node's own error (a refused connection, an untrusted certificate) in
 * `lastNodeError`, which is appended.
 */
export function describeRedisError(error: Error): string {
  const cause = nodeCauseOf(error);
  return cause === undefined || error.message.includes(cause.message)
    ? error.message
    : `${error.message} (last node error: ${cause.message})`;
}

/** The error's code, or its Cluster node error's (e.g. SELF_SIGNED_CERT_IN_CHAIN). */
export function redisErrorCode(error: Error): string | undefined {
  return (error as NodeJS.ErrnoException).code ?? (nodeCauseOf(error) as NodeJS.ErrnoException | undefined)?.code;
}

function nodeCauseOf(error: Error): Error | undefined {
  const cause = (error as { lastNodeError?: unknown }).lastNodeError;
  return cause instanceof Error ? cause : undefined;
}
