/** The spool's options, their defaults and where each number comes from. */

export interface SpoolOptions {
  /** The spool's own directory (created if missing); nothing else may live in it. */
  readonly dir: string;
  /** Cap on the segment files' total size. Full means `append` refuses; nothing is evicted. */
  readonly maxBytes?: number;
  /** A segment is closed and a new one started past this size; the unit of deletion. */
  readonly segmentBytes?: number;
  /** Largest payload accepted; also how far recovery trusts a frame's length field. */
  readonly maxRecordBytes?: number;
  /** How long the first append of a group waits for others to share its fsync. */
  readonly groupCommitMs?: number;
  /** A group this large is written at once. */
  readonly groupCommitRecords?: number;
  /** How long acknowledged records stay readable by `replaySince` before their segment may go. */
  readonly retainAcknowledgedMs?: number;
  /** How long `acknowledgeSoon` may leave an acknowledgement unpersisted (a crash meanwhile redelivers the record). */
  readonly ackPersistDelayMs?: number;
  /** How often segments that are acknowledged and past retention are deleted; 0 for never (call `collect`). */
  readonly sweepIntervalMs?: number;
  /** The clock for append times, ages and retention (tests pass their own). */
  readonly now?: () => number;
}

export type ResolvedSpoolOptions = Required<SpoolOptions>;

const MiB = 1024 * 1024;

export const SPOOL_DEFAULTS = {
  // About 256,000 side-effect jobs of 1 KiB: a 30-minute Redis outage at 140 jobs/s.
  maxBytes: 256 * MiB,
  // Recovery holds one segment in memory at a time; 32 segments at the default maxBytes.
  segmentBytes: 8 * MiB,
  // Jobs carry no object bodies; etcd's own request limit is 1.5 MiB.
  maxRecordBytes: 1 * MiB,
  // No extra wait: appends that arrive while an fsync runs already share the next one, so the
  // batch grows with the fsync time. A window added 2 ms to every append and, measured here,
  // no batching under load that the running fsync did not give already (README, "Numbers").
  groupCommitMs: 0,
  groupCommitRecords: 256,
  // Redis restarted empty: jobs acknowledged in the last ten minutes are replayed.
  retainAcknowledgedMs: 10 * 60_000,
  sweepIntervalMs: 30_000,
  // Records appended only to be kept (already handed on): one cursor write per second for all of
  // them instead of one per append, at the price of redelivering the last second's after a crash.
  ackPersistDelayMs: 1_000,
} as const;

export function resolveSpoolOptions(options: SpoolOptions): ResolvedSpoolOptions {
  const resolved: ResolvedSpoolOptions = { ...SPOOL_DEFAULTS, now: Date.now, ...withoutUndefined(options) };
  for (const key of ['maxBytes', 'segmentBytes', 'maxRecordBytes', 'groupCommitRecords'] as const) {
    if (!Number.isSafeInteger(resolved[key]) || resolved[key] < 1) {
      throw new RangeError(`spool ${options.dir}: ${key} must be a positive integer, got ${resolved[key]}`);
    }
  }
  for (const key of ['groupCommitMs', 'retainAcknowledgedMs', 'sweepIntervalMs', 'ackPersistDelayMs'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] < 0) {
      throw new RangeError(`spool ${options.dir}: ${key} must be a number >= 0, got ${resolved[key]}`);
    }
  }
  return resolved;
}

function withoutUndefined(options: SpoolOptions): SpoolOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as unknown as SpoolOptions;
}
