/**
 * Options of the SideEffectProducer, their defaults, and where each number comes from.
 */
import { HG_ERR_QUEUE_OPTION_INVALID } from '@hookgate/errors';
import { DEFAULT_QUEUE_PREFIX, validateQueuePrefix } from './queue-names.js';
import { clusterPrefixProblem, redactRedisUrl, requireRedisUrl } from './redis-url.js';

export interface SideEffectProducerOptions {
  /** Any form of redis-url.ts: redis://, redis+sentinel://, redis+cluster:// (rediss... for TLS). */
  readonly redisUrl: string;
  /** Key prefix of every queue; a Redis Cluster hash tag by default. */
  readonly prefix?: string;
  /**
   * How long an add may take before the caller is told to spool (HG_ERR_QUEUE_UNAVAILABLE).
   * Default 1000 ms: a healthy Redis acknowledges in well under a millisecond on a LAN, and an
   * admission request has seconds of budget, not minutes.
   */
  readonly addTimeoutMs?: number;
  /** ioredis `connectTimeout`: how long one connection attempt may take. Default 2000 ms. */
  readonly connectTimeoutMs?: number;
  /**
   * How long completed jobs stay in Redis. Their ids deduplicate later adds only while they stay:
   * keep them longer than any replay can come (the spool's replay window, a gateway restart).
   * Default 24 h and at most 100 000 per queue (about 100 MB at 1 KB a job), whichever is first.
   */
  readonly keepCompleted?: { readonly ageSeconds: number; readonly count: number };
  /**
   * Attempts before a job stays in the failed set (the dead-letter set; failed jobs are never
   * removed by this producer). Default 12: with the default backoff (1 s doubling to 5 min) about
   * 20 minutes of failures. A plugin that is down delays jobs without using attempts.
   */
  readonly attempts?: number;
  /** Told about connection errors (for logs); the producer keeps reconnecting on its own. */
  readonly onConnectionError?: (error: Error) => void;
}

export interface ResolvedProducerOptions {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly addTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly keepCompleted: { readonly ageSeconds: number; readonly count: number };
  readonly attempts: number;
}

export const PRODUCER_DEFAULTS = {
  prefix: DEFAULT_QUEUE_PREFIX,
  addTimeoutMs: 1_000,
  connectTimeoutMs: 2_000,
  keepCompleted: { ageSeconds: 24 * 60 * 60, count: 100_000 },
  attempts: 12,
} as const;

export function resolveProducerOptions(options: SideEffectProducerOptions): ResolvedProducerOptions {
  const resolved = {
    redisUrl: options.redisUrl,
    prefix: validateQueuePrefix(options.prefix ?? PRODUCER_DEFAULTS.prefix),
    addTimeoutMs: options.addTimeoutMs ?? PRODUCER_DEFAULTS.addTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? PRODUCER_DEFAULTS.connectTimeoutMs,
    keepCompleted: options.keepCompleted ?? PRODUCER_DEFAULTS.keepCompleted,
    attempts: options.attempts ?? PRODUCER_DEFAULTS.attempts,
  };
  requireUrl(resolved.redisUrl, resolved.prefix);
  requireInteger('addTimeoutMs', resolved.addTimeoutMs, 1);
  requireInteger('connectTimeoutMs', resolved.connectTimeoutMs, 1);
  requireInteger('keepCompleted.ageSeconds', resolved.keepCompleted.ageSeconds, 1);
  requireInteger('keepCompleted.count', resolved.keepCompleted.count, 1);
  requireInteger('attempts', resolved.attempts, 1);
  return resolved;
}

/** Parses the URL (any topology) and, on Cluster, requires a hash-tagged prefix. */
function requireUrl(url: string, prefix: string): void {
  const spec = requireRedisUrl(url);
  const problem = clusterPrefixProblem(spec, prefix);
  if (problem !== undefined) throw new HG_ERR_QUEUE_OPTION_INVALID('queue prefix', JSON.stringify(prefix), problem);
}

function requireInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new HG_ERR_QUEUE_OPTION_INVALID(name, String(value), `must be an integer of at least ${min}`);
  }
}

export { redactRedisUrl };
