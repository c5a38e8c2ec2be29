/**
 * Segment files: their names, their 16-byte header, and the few file operations the spool does on
 * them. A segment is named after the first sequence number it may hold, zero-padded so names sort
 * in sequence order. The header makes a foreign file or a file from another format version an
 * error that names the file, instead of a stream of "corrupt records".
 *
 *   offset  size  field
 *        0     8  SEGMENT_MAGIC ("HGSPOOL" and a NUL)
 *        8     4  format version, u32 LE
 *       12     4  reserved, zero
 */
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

export const SEGMENT_MAGIC = Buffer.from('HGSPOOL\0', 'latin1');
export const SEGMENT_FORMAT_VERSION = 1;
export const SEGMENT_HEADER_BYTES = 16;

const SEGMENT_NAME = /^segment-(\d{20})\.seg$/;

export function segmentFileName(firstSeq: number): string {
  return `segment-${String(firstSeq).padStart(20, '0')}.seg`;
}

/** The first sequence number of a segment file name, or undefined for any other name. */
export function parseSegmentFileName(name: string): number | undefined {
  const match = SEGMENT_NAME.exec(name);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

export function encodeSegmentHeader(): Buffer {
  const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
  SEGMENT_MAGIC.copy(header, 0);
  header.writeUInt32LE(SEGMENT_FORMAT_VERSION, 8);
  return header;
}

export type HeaderCheck =
  | { readonly kind: 'ok' }
  /** Shorter than a header but a prefix of one: a crash while the segment was being created. */
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'invalid'; readonly reason: string };

export function checkSegmentHeader(content: Buffer): HeaderCheck {
  const expected = encodeSegmentHeader();
  if (content.length < SEGMENT_HEADER_BYTES) {
    return expected.subarray(0, content.length).equals(content)
      ? { kind: 'incomplete' }
      : { kind: 'invalid', reason: 'it is not a spool segment (no HGSPOOL header)' };
  }
  if (!content.subarray(0, SEGMENT_MAGIC.length).equals(SEGMENT_MAGIC)) {
    return { kind: 'invalid', reason: 'it is not a spool segment (no HGSPOOL header)' };
  }
  const version = content.readUInt32LE(8);
  if (version !== SEGMENT_FORMAT_VERSION) {
    return {
      kind: 'invalid',
      reason: `it has segment format version ${version}; this build reads version ${SEGMENT_FORMAT_VERSION}`,
    };
  }
  return { kind: 'ok' };
}

/** Creates a segment with its header, durable (file and directory entry) before it is used. */
export async function createSegment(dir: string, firstSeq: number): Promise<FileHandle> {
  const file = await open(path.join(dir, segmentFileName(firstSeq)), 'wx+');
  try {
    await file.write(encodeSegmentHeader(), 0, SEGMENT_HEADER_BYTES, 0);
    await file.datasync();
    await syncDirectory(dir);
    return file;
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** fsync of a directory: makes a created, renamed or deleted entry survive a power loss. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
