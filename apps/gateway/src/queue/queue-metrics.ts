/**
 * Metrics of side-effect jobs, in their own module (the gateway's per-hook metrics live in
 * @hookgate/observability). The primary owns the producer and the spool, so their metrics are
 * the primary's; the failure-policy decisions are made in the workers, so that counter is theirs.
 * Names never overlap: the primary's /metrics concatenates both sides.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS } from '@hookgate/observability';

/** added / duplicate: Redis acknowledged; spooled: fsynced to the spool instead; error: neither. */
export type JobOutcome = 'added' | 'duplicate' | 'spooled' | 'error';

/** What the primary's /metrics reads from the spool at scrape time. */
export interface SpoolGaugeSource {
  stats(): {
    readonly pendingRecords: number;
    readonly pendingBytes: number;
    readonly oldestPendingAgeMs: number;
    readonly diskBytes: number;
    readonly maxBytes: number;
    readonly corruptRecords: number;
  };
  /** 1 while jobs go to Redis first, 0 while they go to the spool (Redis down or draining). */
  redisUp(): boolean;
}

export function createSideEffectQueueMetrics(registry: Registry, source: SpoolGaugeSource) {
  const registers = [registry];
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  return {
    jobs: new Counter<'plugin' | 'outcome'>({
      name: 'hookgate_side_effect_jobs_total',
      help: 'Side-effect jobs of admitted reviews, by plugin and outcome: added or duplicate (acknowledged by Redis), spooled (fsynced to the spool), error (neither: the hook failed by its failurePolicy).',
      labelNames: ['plugin', 'outcome'],
      registers,
    }),
    handedOn: new Counter<'plugin' | 'via' | 'outcome'>({
      name: 'hookgate_side_effect_jobs_handed_on_total',
      help: 'Jobs handed to Redis later: via drain (spooled while Redis was down) or replay (Redis came back with another run_id), by outcome added or duplicate.',
      labelNames: ['plugin', 'via', 'outcome'],
      registers,
    }),
    replays: new Counter<'result'>({
      name: 'hookgate_side_effect_replays_total',
      help: 'Replays of recently acknowledged jobs after Redis changed identity (run_id), by result: done, failed (retried later).',
      labelNames: ['result'],
      registers,
    }),
    undecodableRecords: new Counter({
      name: 'hookgate_side_effect_spool_undecodable_total',
      help: 'Spool records or jobs in them that did not decode (skipped and logged); damaged frames are counted by the spool itself in hookgate_side_effect_spool_corrupt_records.',
      registers,
    }),
    fsyncSeconds: new Histogram({
      name: 'hookgate_side_effect_spool_fsync_seconds',
      help: "Time for one review's jobs to be written and fsynced to the spool (group commit included).",
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    pendingRecords: gauge(
      'hookgate_side_effect_spool_pending_records',
      'Spool records (one per review) not yet handed to Redis.',
      () => source.stats().pendingRecords,
    ),
    pendingBytes: gauge(
      'hookgate_side_effect_spool_pending_bytes',
      'Bytes of spool records not yet handed to Redis.',
      () => source.stats().pendingBytes,
    ),
    diskBytes: gauge(
      'hookgate_side_effect_spool_bytes',
      "Size of the spool's segment files (pending records and acknowledged ones kept for replay).",
      () => source.stats().diskBytes,
    ),
    maxBytes: gauge(
      'hookgate_side_effect_spool_max_bytes',
      'The spool cap (spool.maxBytes): when full, side-effecting hooks fail by their failurePolicy.',
      () => source.stats().maxBytes,
    ),
    oldestAge: gauge(
      'hookgate_side_effect_spool_oldest_pending_age_seconds',
      'Age of the oldest spool record not yet handed to Redis; 0 when none.',
      () => source.stats().oldestPendingAgeMs / 1000,
    ),
    corruptRecords: gauge(
      'hookgate_side_effect_spool_corrupt_records',
      'Damaged spool records skipped since the gateway started (at open or on read); each is logged with segment and offset.',
      () => source.stats().corruptRecords,
    ),
    redisUp: gauge(
      'hookgate_side_effect_redis_up',
      '1 while side-effect jobs go to Redis first, 0 while they go to the spool (Redis unreachable, or the spool not drained yet after a failure).',
      () => (source.redisUp() ? 1 : 0),
    ),
  };
}

export type SideEffectQueueMetrics = ReturnType<typeof createSideEffectQueueMetrics>;

/** The workers' side: hooks whose side effects could not be recorded, by failurePolicy. */
export function createUnrecordedCounter(registry: Registry) {
  return new Counter<'name' | 'failure_policy'>({
    name: 'hookgate_side_effect_unrecorded_total',
    help: 'Hooks whose reported side effects could be recorded neither in Redis nor in the spool: failure_policy Fail denied the request, Ignore admitted it without the job.',
    labelNames: ['name', 'failure_policy'],
    registers: [registry],
  });
}

export type UnrecordedCounter = ReturnType<typeof createUnrecordedCounter>;
