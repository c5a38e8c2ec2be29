/**
 * The ledger's Redis connection: REDIS_URL, else redis://127.0.0.1:6379, in any form of
 * @hookgate/queue/redis-url (one Redis, Sentinel, Cluster). Startup fails with a clear message when
 * the URL is wrong or Redis cannot be reached; afterwards commands fail fast (no offline queue), so
 * a Redis outage becomes a hook error decided by the hook's failurePolicy rather than a hung admission.
 */
import { HG_ERR_LEDGER_REDIS_UNREACHABLE } from '@hookgate/errors';
import { createRedisClient, type RedisClient } from '@hookgate/queue/redis-client';
import { clusterPrefixProblem, parseRedisUrl, redactRedisUrl } from '@hookgate/queue/redis-url';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export class RedisUnreachableError extends HG_ERR_LEDGER_REDIS_UNREACHABLE {
  override readonly name = 'RedisUnreachableError';
}

export interface ConnectOptions {
  connectTimeoutMs?: number;
  /** The ledger's key prefix: on Cluster it needs a {hash tag} (a claim's script touches several keys). */
  keyPrefix?: string;
}

export async function connectRedis(
  env: Record<string, string | undefined>,
  options: ConnectOptions = {},
): Promise<RedisClient> {
  const fromEnv = env['REDIS_URL'];
  const url = fromEnv === undefined || fromEnv === '' ? DEFAULT_REDIS_URL : fromEnv;
  const parsed = parseRedisUrl(url);
  if (!parsed.ok) throw new Error(`ledger: REDIS_URL ${JSON.stringify(redactRedisUrl(url))}: ${parsed.problem}`);
  const prefixProblem =
    options.keyPrefix === undefined ? undefined : clusterPrefixProblem(parsed.spec, options.keyPrefix);
  if (prefixProblem !== undefined) {
    throw new Error(
      `ledger: keyPrefix ${JSON.stringify(options.keyPrefix)} ${prefixProblem.replace('use a prefix such as {hookgate}', 'set keyPrefix: "{hookgate-ledger}:" in the ledger configuration')}`,
    );
  }
  const redis = createRedisClient(parsed.spec, {
    lazyConnect: true,
    offlineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeoutMs: 2_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    // Keep reconnecting after startup (Redis restarts); each admission fails fast meanwhile.
    retryDelayMs: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // The socket error (ECONNREFUSED...) says more than the "Connection is closed" connect() rejects with.
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const cause = lastError ?? (error as Error);
    const source = fromEnv ? 'REDIS_URL' : 'the default, REDIS_URL is not set';
    throw new RedisUnreachableError(redactUrl(url), source, cause.message.replace(/\.$/, ''), { cause });
  }
  // Until the caller attaches its own (watchRedis), later errors must not be "unhandled error events".
  redis.removeAllListeners('error');
  redis.on('error', () => {});
  return redis;
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  return redactRedisUrl(url);
}

/** Logs a lost connection once, and its return once, rather than every reconnect attempt. */
export function watchRedis(
  redis: RedisClient,
  logger: { warn(fields: object, message: string): void; info(fields: object, message: string): void },
): void {
  let healthy = true;
  redis.removeAllListeners('error');
  redis.on('error', (error: Error) => {
    if (!healthy) return;
    healthy = false;
    logger.warn(
      { error: error.message },
      'ledger: Redis connection lost; admissions fail (the hook failurePolicy applies) until it returns',
    );
  });
  redis.on('ready', () => {
    if (healthy) return;
    healthy = true;
    logger.info({}, 'ledger: Redis connection restored');
  });
}
