/**
 * Periodic resync, the controller's side: one BullMQ job scheduler per plugin queue makes a
 * `resync` job every `resync.intervalMs`; the worker that takes it waits a random jitter, then
 * runs resyncPlugin (@hookgate/queue) and reports the run (log line, metrics, return value).
 *
 * - Idempotent start: every controller upserts the same scheduler id with the same options, so
 *   two controllers starting make one scheduler and one next job (BullMQ's upsertJobScheduler).
 * - Spread: the scheduler's offset is derived from the plugin name (plugins do not fire in step),
 *   and each run starts up to `jitterMs` late, at random.
 * - Low priority: resync jobs are prioritized (BullMQ runs every job without a priority first),
 *   so a resync never delays side-effect jobs.
 * - A run always completes (its counts are its return value): a failed resync is not a dead
 *   letter, the next run tries again. Completed runs are kept 20 deep for the dashboard.
 */
import { createHash } from 'node:crypto';
import { DelayedError, type Job, type Queue } from 'bullmq';
import type { Logger } from '@hookgate/observability';
import { JOB_NAMES, RESYNC_SCHEDULER_ID, resyncPlugin, type ResyncDeps, type ResyncResult } from '@hookgate/queue';
import type { ControllerConfig } from './config.js';
import type { ControllerMetrics } from './metrics.js';

/** Below every side-effect job (BullMQ: 0 is first, larger is later; 2^21 is the largest). */
export const RESYNC_PRIORITY = 2_000_000;
const KEEP_RUNS = 20;

/** The data of a resync job: only the plugin (nothing else is needed, nothing to redact). */
export interface ResyncJobData {
  readonly plugin: string;
}

/** Creates or updates the plugin queue's resync scheduler; removes it when resync is off. */
export async function upsertResyncScheduler(
  queue: Queue,
  plugin: string,
  resync: ControllerConfig['resync'],
): Promise<void> {
  if (resync.intervalMs === 0) {
    await queue.removeJobScheduler(RESYNC_SCHEDULER_ID);
    return;
  }
  const data: ResyncJobData = { plugin };
  await queue.upsertJobScheduler(
    RESYNC_SCHEDULER_ID,
    { every: resync.intervalMs, offset: offsetOf(plugin, resync.intervalMs) },
    {
      name: JOB_NAMES.resync,
      data,
      opts: {
        priority: RESYNC_PRIORITY,
        attempts: 1,
        removeOnComplete: { count: KEEP_RUNS },
        removeOnFail: { count: KEEP_RUNS },
      },
    },
  );
}

/** The same for every controller (so upserts agree), different across plugins; never 0 (BullMQ ignores 0). */
export function offsetOf(plugin: string, intervalMs: number): number {
  const hash = createHash('sha256').update(plugin).digest().readUInt32BE(0);
  return 1 + (hash % Math.max(1, intervalMs - 1));
}

export interface ResyncRunContext {
  readonly plugin: string;
  readonly config: ControllerConfig['resync'];
  readonly deps: Omit<ResyncDeps, 'minAgeMs' | 'pageSize'>;
  readonly logger: Logger;
  readonly metrics: ControllerMetrics;
  readonly random?: () => number;
}

/** The worker's processor for a `resync` job. */
export async function runResyncJob(
  job: Job,
  token: string | undefined,
  context: ResyncRunContext,
): Promise<ResyncResult> {
  const { plugin, config, logger, metrics } = context;
  const jittered = (job.progress as { jittered?: unknown } | undefined)?.jittered === true;
  if (!jittered && config.jitterMs > 0) {
    const until = Date.now() + Math.floor((context.random ?? Math.random)() * config.jitterMs);
    await job.updateProgress({ jittered: true });
    await job.moveToDelayed(until, token);
    throw new DelayedError('resync jitter');
  }
  const started = performance.now();
  const result = await resyncPlugin(plugin, { ...context.deps, minAgeMs: config.minAgeMs, pageSize: config.pageSize });
  metrics.resyncDuration.observe({ plugin }, (performance.now() - started) / 1000);
  metrics.resyncRuns.inc({ plugin, result: result.result });
  if (result.result === 'unimplemented') {
    logger.debug({ plugin }, 'resync skipped: the plugin serves no ListHeldEffects (it has no resync handlers)');
    return result;
  }
  for (const verdict of ['young', 'kept', 'reconciled', 'pending', 'failed'] as const) {
    if (result[verdict] > 0) metrics.resyncEffects.inc({ plugin, verdict }, result[verdict]);
  }
  const fields = {
    plugin,
    listed: result.listed,
    young: result.young,
    kept: result.kept,
    reconciled: result.reconciled,
    pending: result.pending,
    failed: result.failed,
  };
  if (result.result === 'ok') {
    logger.info(fields, `resync of ${plugin}: ${result.reconciled} orphaned effect(s) reconciled`);
  } else {
    const why = result.result === 'unavailable' ? result.reason : result.failures.join('; ');
    logger.warn(
      { ...fields, result: result.result },
      `resync of ${plugin} incomplete (${why || 'stopped'}): the next run (in ${config.intervalMs} ms) tries again; check the plugin and the controller's RBAC`,
    );
  }
  return result;
}

/** True for jobs the resync scheduler made (the processor branches on it before decoding). */
export function isResyncJob(job: Job): boolean {
  return job.name === JOB_NAMES.resync;
}
