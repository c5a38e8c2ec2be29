/**
 * The segments of one spool, on disk and as an in-memory index of their records (sequence number,
 * time, where the frame is; never the payload). Appends go to the newest (active) segment and are
 * fsynced before they count; a segment that would grow past `segmentBytes` is closed and a new one
 * started. A failed write is cut back off the file, so the segment stays a clean run of frames.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { HG_ERR_SPOOL_WRITE_FAILED } from '@hookgate/errors';
import { decodeFrame, FRAME_HEADER_BYTES } from './framing.js';
import { createSegment, SEGMENT_HEADER_BYTES, segmentFileName, syncDirectory } from './segment-file.js';

export interface SegmentState {
  readonly firstSeq: number;
  readonly name: string;
  /** Bytes of the file: header and every frame written and fsynced. */
  bytes: number;
  readonly records: IndexedRecord[];
}

export interface IndexedRecord {
  readonly seq: number;
  readonly appendedAt: number;
  readonly segment: SegmentState;
  /** Where the frame starts in the segment file. */
  readonly offset: number;
  readonly payloadLength: number;
}

/** A record ready to be written: its number, time and encoded frame. */
export interface EncodedRecord {
  readonly seq: number;
  readonly appendedAt: number;
  readonly frame: Buffer;
}

export interface FsyncTiming {
  readonly fsyncs: number;
  readonly lastFsyncMs: number;
}

export class SegmentStore {
  readonly #dir: string;
  readonly #segmentBytes: number;
  readonly #segments: SegmentState[];
  #active: SegmentState;
  #activeHandle: FileHandle;
  readonly #readHandles = new Map<SegmentState, Promise<FileHandle>>();
  #fsyncs = 0;
  #lastFsyncMs = 0;
  /** Set when a failed write could not be cut back off: nothing more may be appended. */
  #broken: Error | undefined;

  private constructor(dir: string, segmentBytes: number, segments: SegmentState[], activeHandle: FileHandle) {
    this.#dir = dir;
    this.#segmentBytes = segmentBytes;
    this.#segments = segments;
    this.#active = segments[segments.length - 1]!;
    this.#activeHandle = activeHandle;
  }

  /** Continues the newest recovered segment if it has room, or starts one at `nextSeq`. */
  static async open(
    dir: string,
    segmentBytes: number,
    recovered: SegmentState[],
    nextSeq: number,
  ): Promise<SegmentStore> {
    const segments = [...recovered];
    const newest = segments[segments.length - 1];
    if (newest !== undefined && newest.bytes < segmentBytes) {
      return new SegmentStore(dir, segmentBytes, segments, await open(path.join(dir, newest.name), 'r+'));
    }
    // A full newest segment may hold no valid record at all: never reuse its name.
    const firstSeq = Math.max(nextSeq, (newest?.firstSeq ?? 0) + 1);
    const handle = await createSegment(dir, firstSeq);
    segments.push(emptySegment(firstSeq));
    return new SegmentStore(dir, segmentBytes, segments, handle);
  }

  get segments(): readonly SegmentState[] {
    return this.#segments;
  }

  get active(): SegmentState {
    return this.#active;
  }

  get diskBytes(): number {
    return this.#segments.reduce((sum, s) => sum + s.bytes, 0);
  }

  get timing(): FsyncTiming {
    return { fsyncs: this.#fsyncs, lastFsyncMs: this.#lastFsyncMs };
  }

  /**
   * Writes the records in order and fsyncs them, one write and one fsync per segment touched.
   * `onDurable` gets each fsynced run of index entries (already added to their segment) as soon as
   * it is durable: if a later segment fails, the earlier runs stay (and will be delivered) although
   * this rejects.
   */
  async write(
    records: readonly EncodedRecord[],
    onDurable: (records: readonly IndexedRecord[]) => void,
  ): Promise<IndexedRecord[]> {
    if (this.#broken !== undefined) {
      throw new HG_ERR_SPOOL_WRITE_FAILED(
        this.#dir,
        this.#active.name,
        `an earlier write failed and could not be undone (${this.#broken.message}); reopen the spool`,
      );
    }
    const written: IndexedRecord[] = [];
    let chunk: EncodedRecord[] = [];
    let chunkBytes = 0;
    for (const record of records) {
      const full = this.#active.bytes + chunkBytes + record.frame.length > this.#segmentBytes;
      if (full && (chunk.length > 0 || this.#active.records.length > 0)) {
        written.push(...(await this.#writeChunk(chunk, chunkBytes, onDurable)));
        await this.rotate(record.seq);
        chunk = [];
        chunkBytes = 0;
      }
      chunk.push(record);
      chunkBytes += record.frame.length;
    }
    written.push(...(await this.#writeChunk(chunk, chunkBytes, onDurable)));
    return written;
  }

  async #writeChunk(
    chunk: readonly EncodedRecord[],
    bytes: number,
    onDurable: (records: readonly IndexedRecord[]) => void,
  ): Promise<IndexedRecord[]> {
    if (chunk.length === 0) return [];
    const segment = this.#active;
    const start = segment.bytes;
    const buffer =
      chunk.length === 1
        ? chunk[0]!.frame
        : Buffer.concat(
            chunk.map((r) => r.frame),
            bytes,
          );
    try {
      for (let done = 0; done < buffer.length;) {
        const { bytesWritten } = await this.#activeHandle.write(buffer, done, buffer.length - done, start + done);
        done += bytesWritten;
      }
      const began = performance.now();
      await this.#activeHandle.datasync();
      this.#lastFsyncMs = performance.now() - began;
      this.#fsyncs++;
    } catch (error) {
      await this.#activeHandle.truncate(start).catch((undo: Error) => {
        this.#broken = undo;
      });
      throw new HG_ERR_SPOOL_WRITE_FAILED(this.#dir, segment.name, (error as Error).message, { cause: error });
    }
    let offset = start;
    const indexed = chunk.map((r) => {
      const entry: IndexedRecord = {
        seq: r.seq,
        appendedAt: r.appendedAt,
        segment,
        offset,
        payloadLength: r.frame.length - FRAME_HEADER_BYTES,
      };
      offset += r.frame.length;
      return entry;
    });
    segment.records.push(...indexed);
    segment.bytes = start + bytes;
    onDurable(indexed);
    return indexed;
  }

  /** Closes the active segment and starts a new one whose first record will be `firstSeq`. */
  async rotate(firstSeq: number): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await createSegment(this.#dir, firstSeq);
    } catch (error) {
      throw new HG_ERR_SPOOL_WRITE_FAILED(this.#dir, segmentFileName(firstSeq), (error as Error).message, {
        cause: error,
      });
    }
    await this.#activeHandle.close();
    this.#activeHandle = handle;
    this.#active = emptySegment(firstSeq);
    this.#segments.push(this.#active);
  }

  /** The payload of a record, or undefined if its frame no longer decodes (the disk changed it). */
  async readPayload(record: IndexedRecord): Promise<Buffer | undefined> {
    const handle = await this.#readHandle(record.segment);
    const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + record.payloadLength);
    const { bytesRead } = await handle.read(frame, 0, frame.length, record.offset);
    const decoded = decodeFrame(frame.subarray(0, bytesRead), 0, record.payloadLength);
    return decoded.kind === 'record' && decoded.frame.seq === record.seq ? decoded.frame.payload : undefined;
  }

  #readHandle(segment: SegmentState): Promise<FileHandle> {
    let handle = this.#readHandles.get(segment);
    if (handle === undefined) {
      handle = open(path.join(this.#dir, segment.name), 'r');
      handle.catch(() => this.#readHandles.delete(segment));
      this.#readHandles.set(segment, handle);
    }
    return handle;
  }

  /** Deletes a segment that is not the active one (the caller decides that its records may go). */
  async delete(segment: SegmentState): Promise<void> {
    if (segment === this.#active) throw new Error(`spool ${this.#dir}: the active segment cannot be deleted`);
    const index = this.#segments.indexOf(segment);
    if (index === -1) return;
    this.#segments.splice(index, 1);
    await this.#closeReadHandle(segment);
    await rm(path.join(this.#dir, segment.name), { force: true });
    await syncDirectory(this.#dir);
  }

  async #closeReadHandle(segment: SegmentState): Promise<void> {
    const handle = this.#readHandles.get(segment);
    this.#readHandles.delete(segment);
    await handle?.then((h) => h.close()).catch(() => undefined);
  }

  async close(): Promise<void> {
    for (const segment of [...this.#readHandles.keys()]) await this.#closeReadHandle(segment);
    await this.#activeHandle.close();
  }
}

export function emptySegment(firstSeq: number): SegmentState {
  return { firstSeq, name: segmentFileName(firstSeq), bytes: SEGMENT_HEADER_BYTES, records: [] };
}
