/**
 * The controller's Prometheus metrics. Counters and histograms are updated as jobs run; the queue
 * gauges (failed-set size, oldest waiting job) are read from Redis when /metrics is scraped, so
 * they are right whichever controller ran the jobs. The unserved-queue gauges do the same for the
 * plugin queues found in Redis that this controller does not serve (a plugin removed while its jobs
 * wait): another controller may serve them, which the alert rule checks.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What one run of a job came to: the processJob result, or `dead-lettered` when it reached the failed set. */
export type RunResult = 'done' | 'delay' | 'retry' | 'fail' | 'dead-lettered';

/** What the queue gauges read, per plugin (a BullMQ Queue in production). */
export interface QueueProbe {
  readonly plugin: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
  /** The oldest waiting job's timestamp (ms), or undefined when none waits. */
  oldestWaitingTimestamp(): Promise<number | undefined>;
}

/** The job states the unserved-queue gauges count: those of jobs that wait for a worker, and the failed set. */
export const UNSERVED_JOB_STATES = ['waiting', 'prioritized', 'delayed', 'failed'] as const;
export type UnservedJobState = (typeof UNSERVED_JOB_STATES)[number];

/** What the unserved-queue gauges read, per plugin queue found in Redis that this controller does not serve. */
export interface UnservedQueueProbe {
  readonly plugin: string;
  jobCounts(): Promise<Record<UnservedJobState, number>>;
  /** The oldest job waiting to run (waiting, prioritized or delayed)'s timestamp (ms), or undefined when none. */
  oldestPendingTimestamp(): Promise<number | undefined>;
}

export function createControllerMetrics(
  registry: Registry,
  probes: () => readonly QueueProbe[],
  unservedProbes: () => Promise<readonly UnservedQueueProbe[]> = async () => [],
) {
  const reconciles = new Counter({
    name: 'hookgate_reconcile_total',
    help: 'Runs of reconcile jobs, by plugin, persistence outcome (none before it is decided) and result.',
    labelNames: ['plugin', 'outcome', 'result'] as const,
    registers: [registry],
  });
  const attempts = new Histogram({
    name: 'hookgate_reconcile_attempts',
    help: 'Attempts a job had used when it settled (completed or reached the failed set).',
    labelNames: ['plugin', 'result'] as const,
    buckets: [1, 2, 3, 5, 8, 12, 20, 50],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'hookgate_reconcile_latency_seconds',
    help: 'From admission (the job time) to the job settling (completed or reached the failed set).',
    labelNames: ['plugin', 'result'] as const,
    buckets: [1, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600, 21600, 86400],
    registers: [registry],
  });
  const stalled = new Counter({
    name: 'hookgate_reconcile_stalled_total',
    help: 'Jobs whose lock lapsed (their controller died or stopped mid-job) and that were handed back to run again.',
    labelNames: ['plugin'] as const,
    registers: [registry],
  });
  const failedJobs = new Gauge({
    name: 'hookgate_reconcile_failed_jobs',
    help: "Jobs in a plugin queue's failed set (the dead-letter set): they need an operator.",
    labelNames: ['plugin'] as const,
    registers: [registry],
    async collect() {
      await collectPerQueue(this, probes(), async (probe) => (await probe.getJobCounts('failed'))['failed'] ?? 0);
    },
  });
  const oldestWaiting = new Gauge({
    name: 'hookgate_reconcile_oldest_waiting_seconds',
    help: 'Age of the oldest job waiting in a plugin queue (0 when none waits): high means the workers fall behind.',
    labelNames: ['plugin'] as const,
    registers: [registry],
    async collect() {
      await collectPerQueue(this, probes(), async (probe) => {
        const timestamp = await probe.oldestWaitingTimestamp();
        return timestamp === undefined ? 0 : Math.max(0, (Date.now() - timestamp) / 1000);
      });
    },
  });
  const unservedOldest = new Gauge({
    name: 'hookgate_reconcile_unserved_oldest_waiting_seconds',
    help: 'Age of the oldest job waiting to run (waiting, prioritized or delayed; 0 when none) in a plugin queue found in Redis that this controller does not serve: a plugin removed while its jobs wait, unless another controller serves it.',
    labelNames: ['plugin'] as const,
    registers: [registry],
    async collect() {
      await collectPerQueue(this, await unservedOrNone(unservedProbes), async (probe) => {
        const timestamp = await probe.oldestPendingTimestamp();
        return timestamp === undefined ? 0 : Math.max(0, (Date.now() - timestamp) / 1000);
      });
    },
  });
  const unservedJobs = new Gauge({
    name: 'hookgate_reconcile_unserved_jobs',
    help: "Jobs by state (waiting, prioritized, delayed, failed) in a plugin queue found in Redis that this controller does not serve (delayed includes the periodic resync's next run).",
    labelNames: ['plugin', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await Promise.all(
        (await unservedOrNone(unservedProbes)).map(async (probe) => {
          try {
            const counts = await probe.jobCounts();
            for (const state of UNSERVED_JOB_STATES) this.set({ plugin: probe.plugin, state }, counts[state]);
          } catch {
            // As collectPerQueue: no value for this plugin this time.
          }
        }),
      );
    },
  });
  const stalledFailed = new Counter({
    name: 'hookgate_reconcile_stalled_failed_total',
    help: 'Jobs BullMQ moved to the failed set for stalling more than maxStalledCount times (seen on the queue events; every controller counts each one: use max across controllers).',
    labelNames: ['plugin'] as const,
    registers: [registry],
  });
  const resyncRuns = new Counter({
    name: 'hookgate_resync_runs_total',
    help: 'Periodic resync runs by plugin and result (ok, partial, unavailable, unimplemented).',
    labelNames: ['plugin', 'result'] as const,
    registers: [registry],
  });
  const resyncEffects = new Counter({
    name: 'hookgate_resync_effects_total',
    help: 'Held effects a resync checked, by plugin and verdict (young, kept, reconciled, pending, failed).',
    labelNames: ['plugin', 'verdict'] as const,
    registers: [registry],
  });
  const resyncDuration = new Histogram({
    name: 'hookgate_resync_duration_seconds',
    help: 'Wall time of one resync run, listing and orphan reconciles included.',
    labelNames: ['plugin'] as const,
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers: [registry],
  });
  return {
    reconciles,
    attempts,
    latency,
    stalled,
    stalledFailed,
    failedJobs,
    oldestWaiting,
    unservedOldest,
    unservedJobs,
    resyncRuns,
    resyncEffects,
    resyncDuration,
  };
}

export type ControllerMetrics = ReturnType<typeof createControllerMetrics>;

/** The unserved queues, or none when they cannot be found now (the scrape goes on). */
async function unservedOrNone(
  unservedProbes: () => Promise<readonly UnservedQueueProbe[]>,
): Promise<readonly UnservedQueueProbe[]> {
  try {
    return await unservedProbes();
  } catch {
    return [];
  }
}

/** A queue Redis cannot answer for now is left out of this scrape rather than failing it. */
async function collectPerQueue<P extends { readonly plugin: string }>(
  gauge: Gauge<'plugin'>,
  probes: readonly P[],
  read: (probe: P) => Promise<number>,
): Promise<void> {
  gauge.reset();
  await Promise.all(
    probes.map(async (probe) => {
      try {
        gauge.set({ plugin: probe.plugin }, await read(probe));
      } catch {
        // Redis unreachable: /readyz says so; the gauge has no value for this plugin this time.
      }
    }),
  );
}
