/**
 * `redis`, `spoolDir` and `spool` of the GatewayConfiguration: where side-effect jobs go (one
 * BullMQ queue per plugin on Redis) and the local spool that holds them while Redis does not
 * acknowledge. All three or none: without `redis` the gateway counts and logs side effects, and a
 * spool setting alone would be a setting that does nothing, so it is refused.
 */
import { resolve } from 'node:path';
import { forbidden, invalid, type FieldReader } from '@hookgate/admission';
import { validateQueuePrefix, DEFAULT_QUEUE_PREFIX } from '@hookgate/queue/names';
import { clusterPrefixProblem, parseRedisUrl, redactRedisUrl } from '@hookgate/queue/redis-url';
import { DEFAULTS, type RedisQueueSettings, type SpoolSettings } from './gateway-configuration.js';
import type { PathReader } from './plugin-list.js';

const NEEDS_REDIS = 'may only be set with redis: the spool holds side-effect jobs on their way to Redis';
/** The spool needs room for a segment header and a few jobs of about 1 KiB. */
const MIN_SPOOL_BYTES = 4096;

export interface QueueSettings {
  readonly redis?: RedisQueueSettings;
  readonly spool?: SpoolSettings;
}

export function readQueueSettings(top: FieldReader, stateDir: string, optionalPath: PathReader): QueueSettings {
  const redisGiven = top.has('redis');
  const redisReader = top.object('redis');
  const redis = redisGiven ? readRedis(redisReader) : undefined;
  redisReader.finish();
  const spoolDir = optionalPath(top, 'spoolDir');
  const spoolGiven = top.has('spool');
  const spoolReader = top.object('spool');
  const maxBytes = spoolReader.int('maxBytes', DEFAULTS.spoolMaxBytes, {
    min: MIN_SPOOL_BYTES,
    max: Number.MAX_SAFE_INTEGER,
  });
  const replayWindowMinutes = spoolReader.int('replayWindowMinutes', DEFAULTS.replayWindowMinutes, {
    min: 0,
    max: 7 * 24 * 60,
  });
  spoolReader.finish();
  if (!redisGiven) {
    if (spoolDir !== undefined) top.report(forbidden(top.path.child('spoolDir'), NEEDS_REDIS));
    if (spoolGiven) top.report(forbidden(top.path.child('spool'), NEEDS_REDIS));
    return {};
  }
  if (redis === undefined) return {};
  return {
    redis,
    spool: { dir: spoolDir ?? resolve(stateDir, DEFAULTS.spoolDirName), maxBytes, replayWindowMinutes },
  };
}

function readRedis(r: FieldReader): RedisQueueSettings | undefined {
  const url = r.requiredString('url');
  // One syntax for every topology (@hookgate/queue/redis-url); the URL may hold a password: never echo it.
  const parsed = url === undefined ? undefined : parseRedisUrl(url);
  if (url !== undefined && parsed !== undefined && !parsed.ok)
    r.report(invalid(r.path.child('url'), redactRedisUrl(url), parsed.problem));
  const prefix = r.string('prefix', DEFAULT_QUEUE_PREFIX);
  try {
    validateQueuePrefix(prefix);
    const clusterProblem = parsed?.ok ? clusterPrefixProblem(parsed.spec, prefix) : undefined;
    if (clusterProblem !== undefined) r.report(invalid(r.path.child('prefix'), prefix, clusterProblem));
  } catch (error) {
    r.report(invalid(r.path.child('prefix'), prefix, prefixProblem(prefix, error)));
  }
  const addTimeoutMs = r.int('addTimeoutMs', DEFAULTS.redisAddTimeoutMs, { min: 1, max: 30_000 });
  const connectTimeoutMs = r.int('connectTimeoutMs', DEFAULTS.redisConnectTimeoutMs, { min: 1, max: 60_000 });
  const identityCheckSeconds = r.int('identityCheckSeconds', DEFAULTS.redisIdentityCheckSeconds, {
    min: 1,
    max: 3600,
  });
  if (url === undefined) return undefined;
  return { url, prefix, addTimeoutMs, connectTimeoutMs, identityCheckSeconds };
}

/** The queue library's rule, without the value it quotes (the field error prints the value itself). */
function prefixProblem(prefix: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const quoted = `${JSON.stringify(prefix)}: `;
  const at = message.indexOf(quoted);
  return at >= 0 ? message.slice(at + quoted.length) : message;
}
