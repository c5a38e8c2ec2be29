/**
 * The spool: a durable, bounded, single-writer buffer of opaque records on local disk. `append`
 * resolves once the record is fsynced (group commit); records are handed out oldest first until
 * acknowledged; acknowledgements survive restarts; acknowledged records stay readable for replay
 * for a while; when full it refuses, never evicts. Delivery is at-least-once: a record appended
 * and not yet acknowledged when the process stops is handed out again after the restart.
 */
import { mkdir } from 'node:fs/promises';
import {
  HG_ERR_SPOOL_FULL,
  HG_ERR_SPOOL_RECORD_TOO_LARGE,
  HG_ERR_SPOOL_UNREADABLE,
  HG_ERR_SPOOL_WRITE_FAILED,
  isHookgateError,
} from '@hookgate/errors';
import { ACK_FILE, coalescedWriter, writeAckCursor, type AckCursor } from './ack-cursor.js';
import { lockDirectory, type DirectoryLock } from './directory-lock.js';
import { encodeFrame, frameBytes } from './framing.js';
import { GroupCommit } from './group-commit.js';
import { recoverDirectory, type RecoveryReport, type SpoolDamage } from './recover-directory.js';
import { SEGMENT_HEADER_BYTES } from './segment-file.js';
import { SegmentStore, type IndexedRecord, type SegmentState } from './segment-store.js';
import { resolveSpoolOptions, type ResolvedSpoolOptions, type SpoolOptions } from './spool-options.js';

export interface SpoolRecord {
  readonly seq: number;
  /** When `append` was called, in ms since the epoch (the spool's clock). */
  readonly appendedAt: number;
  readonly payload: Buffer;
}

export interface AppendedRecord {
  readonly seq: number;
  readonly appendedAt: number;
}

/** Plain numbers for metrics (no metrics library here). */
export interface SpoolStats {
  /** Records appended and not yet acknowledged, and their payload bytes. */
  readonly pendingRecords: number;
  readonly pendingBytes: number;
  /** 0 when nothing is pending. */
  readonly oldestPendingAgeMs: number;
  /** Size of all segment files, against `maxBytes`. */
  readonly diskBytes: number;
  readonly maxBytes: number;
  readonly segments: number;
  /** Acknowledged records still kept for `replaySince`. */
  readonly retainedAcknowledgedRecords: number;
  /** Since open: records appended, fsyncs that made them durable, and the last fsync's duration. */
  readonly appendedRecords: number;
  readonly fsyncs: number;
  readonly lastFsyncMs: number;
  /** Damaged records skipped (at open, or found on read) and torn tails cut off at open. */
  readonly corruptRecords: number;
  readonly tornTails: number;
  /** Acknowledged segments deleted before their retention ended, to make room for new records. */
  readonly retentionCutShort: number;
}

interface Submitted {
  readonly payload: Buffer;
  readonly appendedAt: number;
  readonly bytes: number;
}

export class Spool {
  readonly #options: ResolvedSpoolOptions;
  readonly #lock: DirectoryLock;
  readonly #store: SegmentStore;
  /** Appended and not acknowledged, in sequence order (a Map keeps insertion order). */
  readonly #unacked = new Map<number, IndexedRecord>();
  readonly #unackedPerSegment = new Map<SegmentState, number>();
  readonly #commit: GroupCommit<Submitted, AppendedRecord>;
  readonly #ackWriter: { persist(): Promise<void> };
  readonly #corruptions: SpoolDamage[];
  readonly #sweepTimer: NodeJS.Timeout | undefined;
  /** Recovery's findings when the spool was opened. */
  readonly recovery: RecoveryReport;
  #lastAssignedSeq: number;
  #lastDurableSeq: number;
  #pendingBytes = 0;
  #queuedBytes = 0;
  #appendedRecords = 0;
  #retentionCutShort = 0;
  #collecting: Promise<number> | undefined;
  #lazyAckTimer: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(
    options: ResolvedSpoolOptions,
    lock: DirectoryLock,
    store: SegmentStore,
    recovered: { acknowledged: AckCursor; lastSeq: number; report: RecoveryReport },
  ) {
    this.#options = options;
    this.#lock = lock;
    this.#store = store;
    this.recovery = recovered.report;
    this.#corruptions = [...recovered.report.corruptions];
    this.#lastAssignedSeq = this.#lastDurableSeq = recovered.lastSeq;
    const above = new Set(recovered.acknowledged.above);
    for (const segment of store.segments) {
      for (const record of segment.records) {
        if (record.seq > recovered.acknowledged.through && !above.has(record.seq)) this.#track(record);
      }
    }
    this.#commit = new GroupCommit({
      windowMs: options.groupCommitMs,
      maxItems: options.groupCommitRecords,
      flush: (items) => this.#flush(items),
    });
    this.#ackWriter = coalescedWriter(() => writeAckCursor(options.dir, this.#ackCursor()));
    if (options.sweepIntervalMs > 0) {
      this.#sweepTimer = setInterval(() => void this.collect().catch(() => undefined), options.sweepIntervalMs);
      this.#sweepTimer.unref();
    }
  }

  /** Locks the directory, recovers what is in it (see `recovery`), and opens it for appends. */
  static async open(options: SpoolOptions): Promise<Spool> {
    const resolved = resolveSpoolOptions(options);
    try {
      await mkdir(resolved.dir, { recursive: true });
    } catch (error) {
      throw new HG_ERR_SPOOL_UNREADABLE(resolved.dir, resolved.dir, (error as Error).message, { cause: error });
    }
    const lock = await lockDirectory(resolved.dir);
    try {
      const recovered = await recoverDirectory(resolved.dir, resolved.maxRecordBytes);
      const store = await SegmentStore.open(
        resolved.dir,
        resolved.segmentBytes,
        recovered.segments,
        recovered.lastSeq + 1,
      );
      const spool = new Spool(resolved, lock, store, recovered);
      await spool.collect();
      return spool;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  get dir(): string {
    return this.#options.dir;
  }

  /**
   * Resolves once the record is fsynced, with its sequence number. Rejects with HG_ERR_SPOOL_FULL
   * when it does not fit under `maxBytes`, HG_ERR_SPOOL_RECORD_TOO_LARGE, or HG_ERR_SPOOL_WRITE_FAILED.
   */
  append(payload: Buffer): Promise<AppendedRecord> {
    if (this.#closed) return Promise.reject(new Error(`spool ${this.dir} is closed`));
    const { maxRecordBytes, maxBytes } = this.#options;
    if (payload.length > maxRecordBytes) {
      return Promise.reject(
        new HG_ERR_SPOOL_RECORD_TOO_LARGE(this.dir, String(payload.length), String(maxRecordBytes)),
      );
    }
    const bytes = frameBytes(payload.length);
    const used = this.#store.diskBytes + this.#queuedBytes;
    // A rotation may add a segment header; acknowledged segments may be given up to make room.
    if (used + bytes + SEGMENT_HEADER_BYTES - this.#reclaimableBytes() > maxBytes) {
      const ageSeconds = (this.#oldestPendingAgeMs() / 1000).toFixed(1);
      return Promise.reject(
        new HG_ERR_SPOOL_FULL(
          this.dir,
          String(used),
          String(maxBytes),
          String(this.#unacked.size),
          ageSeconds,
          String(bytes),
        ),
      );
    }
    this.#queuedBytes += bytes;
    return this.#commit.submit({ payload, appendedAt: this.#options.now(), bytes });
  }

  async #flush(items: readonly Submitted[]): Promise<AppendedRecord[]> {
    const bytes = items.reduce((sum, item) => sum + item.bytes, 0);
    this.#queuedBytes -= bytes;
    await this.#makeRoom(bytes + SEGMENT_HEADER_BYTES);
    const encoded = items.map(({ payload, appendedAt }) => {
      const seq = ++this.#lastAssignedSeq;
      return { seq, appendedAt, frame: encodeFrame({ seq, appendedAt, payload }) };
    });
    const written = await this.#store.write(encoded, (durable) => {
      for (const record of durable) this.#track(record);
      this.#appendedRecords += durable.length;
      this.#lastDurableSeq = durable[durable.length - 1]?.seq ?? this.#lastDurableSeq;
    });
    return written.map(({ seq, appendedAt }) => ({ seq, appendedAt }));
  }

  /**
   * Deletes acknowledged segments, oldest first, retention or not, until `bytes` more fit. The
   * active segment too, once all of it is acknowledged: a new one takes its place.
   */
  async #makeRoom(bytes: number): Promise<void> {
    const fits = () => this.#store.diskBytes + bytes <= this.#options.maxBytes;
    const active = this.#store.active;
    if (!fits() && active.records.length > 0 && this.#isAcknowledged(active, { activeToo: true })) {
      await this.#store.rotate(this.#lastAssignedSeq + 1);
    }
    for (const segment of [...this.#store.segments]) {
      if (fits()) return;
      if (this.#isAcknowledged(segment)) {
        await this.#deleteSegment(segment);
        this.#retentionCutShort++;
      }
    }
  }

  /** Up to `limit` unacknowledged records after `afterSeq`, oldest first. */
  async readPending(limit = 100, afterSeq = 0): Promise<SpoolRecord[]> {
    const records: SpoolRecord[] = [];
    for (const record of this.#unacked.values()) {
      if (records.length >= limit) break;
      if (record.seq <= afterSeq) continue;
      const payload = await this.#readPayload(record);
      if (payload !== undefined) records.push({ seq: record.seq, appendedAt: record.appendedAt, payload });
    }
    return records;
  }

  /** Every unacknowledged record, oldest first, including ones appended while iterating. */
  async *pending(batchSize = 100): AsyncGenerator<SpoolRecord> {
    for (let after = 0; ;) {
      const batch = await this.readPending(batchSize, after);
      if (batch.length === 0) return;
      for (const record of batch) {
        yield record;
        after = record.seq;
      }
    }
  }

  /**
   * Marks a record as handed on; resolves once that is persisted (concurrent calls share one write).
   * Acknowledging a record twice is harmless; a sequence number never appended is a RangeError.
   */
  async acknowledge(seq: number): Promise<void> {
    this.#checkAcknowledgeable(seq);
    const record = this.#unacked.get(seq);
    if (record !== undefined) this.#untrack(record);
    try {
      await this.#ackWriter.persist();
    } catch (error) {
      throw isHookgateError(error)
        ? error
        : new HG_ERR_SPOOL_WRITE_FAILED(this.dir, ACK_FILE, (error as Error).message, { cause: error });
    }
  }

  /**
   * Marks a record as handed on at once, and persists that within `ackPersistDelayMs` (sooner with
   * the next `acknowledge`, at the latest on `close`): for records appended only to be kept for a
   * replay. A crash before then hands the record out again (redelivery, never loss).
   */
  acknowledgeSoon(seq: number): void {
    this.#checkAcknowledgeable(seq);
    const record = this.#unacked.get(seq);
    if (record !== undefined) this.#untrack(record);
    if (this.#lazyAckTimer !== undefined || this.#closed) return;
    this.#lazyAckTimer = setTimeout(() => {
      this.#lazyAckTimer = undefined;
      // A failed write is retried by the next acknowledgement or close, which write the whole cursor.
      this.#ackWriter.persist().catch(() => undefined);
    }, this.#options.ackPersistDelayMs);
    this.#lazyAckTimer.unref();
  }

  #checkAcknowledgeable(seq: number): void {
    if (!Number.isSafeInteger(seq) || seq < 1 || seq > this.#lastDurableSeq) {
      throw new RangeError(
        `spool ${this.dir}: no record ${seq} to acknowledge (the newest is ${this.#lastDurableSeq})`,
      );
    }
  }

  /**
   * Acknowledged records still retained whose append time is >= `since`, oldest first: for handing
   * them on again after the consumer lost them (Redis restarted empty).
   */
  async *replaySince(since: number): AsyncGenerator<SpoolRecord> {
    for (const segment of [...this.#store.segments]) {
      for (const record of [...segment.records]) {
        if (record.appendedAt < since || this.#unacked.has(record.seq)) continue;
        if (!this.#store.segments.includes(segment)) break; // deleted meanwhile
        const payload = await this.#readPayload(record);
        if (payload !== undefined) yield { seq: record.seq, appendedAt: record.appendedAt, payload };
      }
    }
  }

  /** Deletes the segments whose records are all acknowledged and past retention; returns how many. */
  collect(): Promise<number> {
    this.#collecting ??= this.#collectOnce().finally(() => {
      this.#collecting = undefined;
    });
    return this.#collecting;
  }

  async #collectOnce(): Promise<number> {
    const expiredBefore = this.#options.now() - this.#options.retainAcknowledgedMs;
    let deleted = 0;
    for (const segment of [...this.#store.segments]) {
      const newest = segment.records[segment.records.length - 1];
      if (this.#isAcknowledged(segment) && (newest === undefined || newest.appendedAt <= expiredBefore)) {
        await this.#deleteSegment(segment);
        deleted++;
      }
    }
    return deleted;
  }

  stats(): SpoolStats {
    const recordsOnDisk = this.#store.segments.reduce((n, s) => n + s.records.length, 0);
    const { fsyncs, lastFsyncMs } = this.#store.timing;
    return {
      pendingRecords: this.#unacked.size,
      pendingBytes: this.#pendingBytes,
      oldestPendingAgeMs: this.#oldestPendingAgeMs(),
      diskBytes: this.#store.diskBytes,
      maxBytes: this.#options.maxBytes,
      segments: this.#store.segments.length,
      retainedAcknowledgedRecords: recordsOnDisk - this.#unacked.size,
      appendedRecords: this.#appendedRecords,
      fsyncs,
      lastFsyncMs,
      corruptRecords: this.#corruptions.length,
      tornTails: this.recovery.tornTails.length,
      retentionCutShort: this.#retentionCutShort,
    };
  }

  /** Damaged records skipped so far (at open and on read), with segment and offset. */
  get corruptions(): readonly SpoolDamage[] {
    return this.#corruptions;
  }

  /** Finishes the appends already made, persists acknowledgements, and releases the directory. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#sweepTimer !== undefined) clearInterval(this.#sweepTimer);
    if (this.#lazyAckTimer !== undefined) clearTimeout(this.#lazyAckTimer);
    try {
      await this.#commit.drain();
      await this.#ackWriter.persist();
      await this.#collecting;
    } finally {
      await this.#store.close();
      await this.#lock.release();
    }
  }

  #ackCursor(): AckCursor {
    const firstPending = this.#unacked.keys().next();
    const through = firstPending.done ? this.#lastDurableSeq : firstPending.value - 1;
    const above: number[] = [];
    for (const segment of this.#store.segments) {
      if ((segment.records[segment.records.length - 1]?.seq ?? 0) <= through) continue;
      for (const { seq } of segment.records) {
        if (seq > through && seq <= this.#lastDurableSeq && !this.#unacked.has(seq)) above.push(seq);
      }
    }
    return { through, above };
  }

  #track(record: IndexedRecord): void {
    this.#unacked.set(record.seq, record);
    this.#pendingBytes += record.payloadLength;
    this.#unackedPerSegment.set(record.segment, (this.#unackedPerSegment.get(record.segment) ?? 0) + 1);
  }

  #untrack(record: IndexedRecord): void {
    this.#unacked.delete(record.seq);
    this.#pendingBytes -= record.payloadLength;
    this.#unackedPerSegment.set(record.segment, (this.#unackedPerSegment.get(record.segment) ?? 1) - 1);
  }

  /** Every record acknowledged, and (unless `activeToo`) not the segment being appended to. */
  #isAcknowledged(segment: SegmentState, { activeToo = false } = {}): boolean {
    return (activeToo || segment !== this.#store.active) && (this.#unackedPerSegment.get(segment) ?? 0) === 0;
  }

  /** What `#makeRoom` could free: acknowledged segments, the active one included if it has records. */
  #reclaimableBytes(): number {
    return this.#store.segments.reduce((sum, s) => {
      const reclaimable = this.#isAcknowledged(s, { activeToo: s.records.length > 0 });
      return sum + (reclaimable ? s.bytes : 0);
    }, 0);
  }

  async #deleteSegment(segment: SegmentState): Promise<void> {
    await this.#store.delete(segment);
    this.#unackedPerSegment.delete(segment);
  }

  #oldestPendingAgeMs(): number {
    const oldest = this.#unacked.values().next();
    return oldest.done ? 0 : Math.max(0, this.#options.now() - oldest.value.appendedAt);
  }

  /** A frame that no longer decodes is skipped like one found damaged at open, never a crash. */
  async #readPayload(record: IndexedRecord): Promise<Buffer | undefined> {
    const payload = await this.#store.readPayload(record);
    if (payload === undefined && this.#unacked.has(record.seq)) {
      this.#untrack(record);
      this.#corruptions.push({
        segment: record.segment.name,
        offset: record.offset,
        bytes: record.payloadLength,
        reason: 'damaged on disk after it was written (checksum mismatch on read)',
      });
    }
    return payload;
  }
}
