/**
 * The primary's side-effect queue from the configuration: a JobRecorder when `redis` is set, with
 * its metrics in the primary's registry; otherwise nothing, said once at start.
 */
import type { GatewayConfiguration } from '@hookgate/config';
import type { Logger } from '@hookgate/observability';
import { redactRedisUrl } from '@hookgate/queue';
import type { Registry } from 'prom-client';
import { JobRecorder } from './job-recorder.js';
import { createSideEffectQueueMetrics } from './queue-metrics.js';
import { redisIdentityFile } from './redis-identity-file.js';

export async function openJobRecorder(
  gateway: GatewayConfiguration,
  log: Logger,
  registry: Registry,
): Promise<JobRecorder | undefined> {
  const { redis, spool } = gateway;
  if (redis === undefined || spool === undefined) {
    log.info(
      {},
      'side effects are not queued: hooks that report side effects are counted and logged only (set redis in the GatewayConfiguration to queue them for reconciliation)',
    );
    return undefined;
  }
  const recorder = await JobRecorder.open({
    redis,
    spool,
    identityFile: redisIdentityFile(gateway.stateDir),
    log,
    metrics: (source) => createSideEffectQueueMetrics(registry, source),
  });
  log.info(
    {
      redis: redactRedisUrl(redis.url),
      prefix: redis.prefix,
      spoolDir: spool.dir,
      spoolMaxBytes: spool.maxBytes,
      replayWindowMinutes: spool.replayWindowMinutes,
    },
    'side effects are queued: one job per side effect in its plugin queue (hookgate-reconcile-<plugin>); the spool holds them while Redis does not acknowledge',
  );
  return recorder;
}
