/** The gateway's SideEffectProducer, in the primary and in each worker alike. */
import { SideEffectProducer, describeRedisError, redactRedisUrl } from '@hookgate/queue';

export interface GatewayRedisSettings {
  readonly url: string;
  readonly prefix: string;
  readonly addTimeoutMs: number;
  readonly connectTimeoutMs: number;
}

/** ioredis reports every reconnect attempt: `logFailure` hears one of them per 30 s, enough to see it. */
export function openGatewayProducer(
  redis: GatewayRedisSettings,
  logFailure: (fields: { redis: string; error: string }) => void,
): SideEffectProducer {
  let lastLogged = 0;
  return new SideEffectProducer({
    redisUrl: redis.url,
    prefix: redis.prefix,
    addTimeoutMs: redis.addTimeoutMs,
    connectTimeoutMs: redis.connectTimeoutMs,
    onConnectionError: (error) => {
      if (Date.now() - lastLogged < 30_000) return;
      lastLogged = Date.now();
      logFailure({ redis: redactRedisUrl(redis.url), error: describeRedisError(error) });
    },
  });
}
