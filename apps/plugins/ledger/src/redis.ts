/**
 * The ledger's Redis connection: REDIS_URL, else redis://127.0.0.1:6379. Startup fails with a clear
 * message when Redis cannot be reached; afterwards commands fail fast (no offline queue), so a Redis
 * outage becomes a hook error decided by the hook's failurePolicy rather than a hung admission.
 */
import { HG_ERR_LEDGER_REDIS_UNREACHABLE } from '@hookgate/errors';
import { Redis } from 'ioredis';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export class RedisUnreachableError extends HG_ERR_LEDGER_REDIS_UNREACHABLE {
  override readonly name = 'RedisUnreachableError';
}

export interface ConnectOptions {
  connectTimeoutMs?: number;
}

export async function connectRedis(
  env: Record<string, string | undefined>,
  options: ConnectOptions = {},
): Promise<Redis> {
  const fromEnv = env['REDIS_URL'];
  const url = fromEnv === undefined || fromEnv === '' ? DEFAULT_REDIS_URL : fromEnv;
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    // Keep reconnecting after startup (Redis restarts); each admission fails fast meanwhile.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
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
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable REDIS_URL>';
  }
}

/** Logs a lost connection once, and its return once, rather than every reconnect attempt. */
export function watchRedis(
  redis: Redis,
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
