/**
 * Opening a spool directory after any kind of stop: every segment is read oldest first and checked
 * frame by frame. A torn tail of the newest segment (a write a crash interrupted, never fsynced, so
 * never acknowledged to anyone) is cut off; damage elsewhere is skipped and reported with segment
 * and offset, its neighbours kept. What the spool cannot read as its own is an error naming the file.
 */
import { open, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { HG_ERR_SPOOL_UNREADABLE } from '@hookgate/errors';
import { ACK_FILE, ACK_TEMP_FILE, NOTHING_ACKNOWLEDGED, readAckCursor, type AckCursor } from './ack-cursor.js';
import { LOCK_FILE } from './directory-lock.js';
import { scanSegment } from './recovery.js';
import { checkSegmentHeader, parseSegmentFileName, SEGMENT_HEADER_BYTES } from './segment-file.js';
import type { IndexedRecord, SegmentState } from './segment-store.js';

/** A damaged range of a segment, as reported to operators. */
export interface SpoolDamage {
  readonly segment: string;
  readonly offset: number;
  readonly bytes: number;
  readonly reason: string;
}

export interface RecoveryReport {
  readonly segments: number;
  readonly records: number;
  /** Cut off the newest segment: partial writes of a crash. */
  readonly tornTails: readonly SpoolDamage[];
  /** Skipped: damaged frames with valid frames after them, or damage at the end of an older segment. */
  readonly corruptions: readonly SpoolDamage[];
  /** Set when the acknowledgement file was unreadable: everything retained is pending again. */
  readonly acknowledgementsReset: string | undefined;
}

export interface RecoveredDirectory {
  readonly segments: SegmentState[];
  readonly acknowledged: AckCursor;
  /** The largest sequence number ever used, as far as the directory still tells. */
  readonly lastSeq: number;
  readonly report: RecoveryReport;
}

/** Directory entries the spool tolerates besides its segments (`lost+found`: spoolDir as a mount point). */
const OWN_ENTRIES = new Set([LOCK_FILE, ACK_FILE, ACK_TEMP_FILE, 'lost+found']);

export async function recoverDirectory(dir: string, maxRecordBytes: number): Promise<RecoveredDirectory> {
  const unreadable = (file: string, error: unknown) =>
    new HG_ERR_SPOOL_UNREADABLE(dir, file, (error as Error).message, { cause: error });
  let ack: Awaited<ReturnType<typeof readAckCursor>>;
  try {
    ack = await readAckCursor(dir);
  } catch (error) {
    throw unreadable(path.join(dir, ACK_FILE), error);
  }
  const segmentNames = await listSegments(dir);
  const segments: SegmentState[] = [];
  const tornTails: SpoolDamage[] = [];
  const corruptions: SpoolDamage[] = [];
  let lastSeq = 0;
  for (const [i, { name, firstSeq }] of segmentNames.entries()) {
    const file = path.join(dir, name);
    const isNewest = i === segmentNames.length - 1;
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch (error) {
      throw unreadable(file, error);
    }
    const header = checkSegmentHeader(content);
    if (header.kind === 'incomplete' && isNewest) {
      // A crash while the segment was being created: it never held a record.
      tornTails.push({ segment: name, offset: 0, bytes: content.length, reason: 'segment header incomplete' });
      await rm(file);
      continue;
    }
    if (header.kind !== 'ok') {
      throw new HG_ERR_SPOOL_UNREADABLE(
        dir,
        file,
        header.kind === 'invalid' ? header.reason : 'its header is cut short',
      );
    }
    const scan = scanSegment(content, {
      start: SEGMENT_HEADER_BYTES,
      maxPayloadBytes: maxRecordBytes,
      afterSeq: Math.max(lastSeq, firstSeq - 1),
    });
    corruptions.push(...scan.corruptions.map((d) => ({ segment: name, ...d })));
    let bytes = content.length;
    if (scan.tail !== undefined && isNewest) {
      tornTails.push({ segment: name, ...scan.tail });
      await truncateFile(file, scan.tail.offset).catch((error: unknown) => {
        throw unreadable(file, error);
      });
      bytes = scan.tail.offset;
    } else if (scan.tail !== undefined) {
      corruptions.push({ segment: name, ...scan.tail });
    }
    const segment: SegmentState = { firstSeq, name, bytes, records: [] };
    segment.records.push(
      ...scan.records.map((r): IndexedRecord => ({
        seq: r.seq,
        appendedAt: r.appendedAt,
        segment,
        offset: r.offset,
        payloadLength: r.payloadLength,
      })),
    );
    segments.push(segment);
    lastSeq = Math.max(lastSeq, firstSeq - 1, segment.records[segment.records.length - 1]?.seq ?? 0);
  }
  const acknowledged = ack.kind === 'ok' ? ack.cursor : NOTHING_ACKNOWLEDGED;
  lastSeq = acknowledged.above.reduce((max, seq) => Math.max(max, seq), Math.max(lastSeq, acknowledged.through));
  return {
    segments,
    acknowledged,
    lastSeq,
    report: {
      segments: segments.length,
      records: segments.reduce((n, s) => n + s.records.length, 0),
      tornTails,
      corruptions,
      acknowledgementsReset: ack.kind === 'damaged' ? ack.reason : undefined,
    },
  };
}

/** The segment files, oldest first; anything the spool did not write is an error naming it. */
async function listSegments(dir: string): Promise<{ name: string; firstSeq: number }[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new HG_ERR_SPOOL_UNREADABLE(dir, dir, (error as Error).message, { cause: error });
  }
  const segments: { name: string; firstSeq: number }[] = [];
  for (const entry of entries) {
    if (OWN_ENTRIES.has(entry.name)) continue;
    const firstSeq = parseSegmentFileName(entry.name);
    if (firstSeq === undefined || !entry.isFile()) {
      throw new HG_ERR_SPOOL_UNREADABLE(
        dir,
        path.join(dir, entry.name),
        "it is not one of the spool's files (segment-<seq>.seg, acknowledged, lock): keep spoolDir for the spool alone",
      );
    }
    segments.push({ name: entry.name, firstSeq });
  }
  return segments.sort((a, b) => a.firstSeq - b.firstSeq);
}

async function truncateFile(file: string, length: number): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(length);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
