/**
 * Reading a segment's frames after a restart, without trusting any of them: a pure function of the
 * segment's bytes. A damaged frame is skipped up to the next frame that decodes (found by its magic),
 * so one bad record never costs its neighbours; damage with no valid frame after it is the tail.
 * Only the caller knows whether the tail is torn (the newest segment, where a crash interrupts a
 * write) or damage in an old segment, and what to do about it.
 */
import { decodeFrame, FRAME_MAGIC, type FrameFields } from './framing.js';

export interface ScannedRecord extends Omit<FrameFields, 'payload'> {
  /** Where the frame starts in the segment. */
  readonly offset: number;
  readonly bytes: number;
  readonly payloadLength: number;
}

export interface DamagedRange {
  readonly offset: number;
  readonly bytes: number;
  readonly reason: string;
}

export interface SegmentScan {
  readonly records: ScannedRecord[];
  /** Damage followed by valid frames: skipped, the frames after it kept. */
  readonly corruptions: DamagedRange[];
  /** Damage (or a partial frame) that runs to the end of the segment. */
  readonly tail: DamagedRange | undefined;
}

export interface ScanOptions {
  /** Where the first frame starts (after the segment header). */
  readonly start: number;
  readonly maxPayloadBytes: number;
  /** Frames must carry a larger sequence number than this (and than each other). */
  readonly afterSeq: number;
}

export function scanSegment(buffer: Buffer, { start, maxPayloadBytes, afterSeq }: ScanOptions): SegmentScan {
  const records: ScannedRecord[] = [];
  const corruptions: DamagedRange[] = [];
  let lastSeq = afterSeq;
  let offset = start;
  while (offset < buffer.length) {
    const decoded = decodeFrame(buffer, offset, maxPayloadBytes);
    if (decoded.kind === 'record' && decoded.frame.seq > lastSeq) {
      const { seq, appendedAt, payload } = decoded.frame;
      records.push({ seq, appendedAt, offset, bytes: decoded.bytes, payloadLength: payload.length });
      lastSeq = seq;
      offset += decoded.bytes;
      continue;
    }
    const reason =
      decoded.kind === 'record'
        ? `sequence ${decoded.frame.seq} is not after ${lastSeq}`
        : decoded.kind === 'corrupt'
          ? decoded.reason
          : 'frame ends after the segment does';
    const next = nextValidFrame(buffer, offset + 1, maxPayloadBytes, lastSeq);
    if (next === undefined) {
      return { records, corruptions, tail: { offset, bytes: buffer.length - offset, reason } };
    }
    corruptions.push({ offset, bytes: next - offset, reason });
    offset = next;
  }
  return { records, corruptions, tail: undefined };
}

/** The offset of the first frame at or after `from` that decodes, or undefined. */
function nextValidFrame(buffer: Buffer, from: number, maxPayloadBytes: number, afterSeq: number): number | undefined {
  for (let at = buffer.indexOf(FRAME_MAGIC, from); at !== -1; at = buffer.indexOf(FRAME_MAGIC, at + 1)) {
    const decoded = decodeFrame(buffer, at, maxPayloadBytes);
    if (decoded.kind === 'record' && decoded.frame.seq > afterSeq) return at;
  }
  return undefined;
}
