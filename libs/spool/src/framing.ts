/**
 * One record on disk: a fixed 28-byte header, then the payload. The header starts with a magic so
 * recovery can find the next frame after a damaged one, and its CRC32 covers everything after the
 * magic (length, sequence, time, payload), so a torn or flipped byte anywhere is detected.
 *
 *   offset  size  field
 *        0     4  FRAME_MAGIC
 *        4     4  payload length, u32 LE
 *        8     8  sequence number, u64 LE (monotonic across the whole spool)
 *       16     8  append time, ms since the epoch, u64 LE
 *       24     4  CRC32 (node:zlib) of bytes 4..24 and the payload
 *       28     n  payload
 */
import { crc32 } from 'node:zlib';

/** Not ASCII and not valid UTF-8, so JSON payloads never contain it by chance. */
export const FRAME_MAGIC = Buffer.from([0xf7, 0x48, 0x47, 0xa5]);
export const FRAME_HEADER_BYTES = 28;

export interface FrameFields {
  readonly seq: number;
  readonly appendedAt: number;
  readonly payload: Buffer;
}

export type DecodedFrame =
  | { readonly kind: 'record'; readonly frame: FrameFields; readonly bytes: number }
  /** The buffer ends before the frame does: a torn write, or a damaged length. */
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'corrupt'; readonly reason: string };

export function frameBytes(payloadLength: number): number {
  return FRAME_HEADER_BYTES + payloadLength;
}

export function encodeFrame({ seq, appendedAt, payload }: FrameFields): Buffer {
  const frame = Buffer.allocUnsafe(frameBytes(payload.length));
  FRAME_MAGIC.copy(frame, 0);
  frame.writeUInt32LE(payload.length, 4);
  frame.writeBigUInt64LE(BigInt(seq), 8);
  frame.writeBigUInt64LE(BigInt(appendedAt), 16);
  payload.copy(frame, FRAME_HEADER_BYTES);
  frame.writeUInt32LE(checksum(frame.subarray(4, 24), payload), 24);
  return frame;
}

/**
 * The frame at `offset`. `maxPayloadBytes` keeps a damaged length from being read as a frame that
 * runs to the end of the file (which would look like a torn tail and hide the frames after it).
 */
export function decodeFrame(buffer: Buffer, offset: number, maxPayloadBytes: number): DecodedFrame {
  if (buffer.length - offset < FRAME_HEADER_BYTES) {
    return isMagicPrefix(buffer.subarray(offset))
      ? { kind: 'incomplete' }
      : { kind: 'corrupt', reason: 'no frame magic' };
  }
  if (!buffer.subarray(offset, offset + 4).equals(FRAME_MAGIC)) return { kind: 'corrupt', reason: 'no frame magic' };
  const length = buffer.readUInt32LE(offset + 4);
  if (length > maxPayloadBytes) {
    return { kind: 'corrupt', reason: `length ${length} exceeds maxRecordBytes ${maxPayloadBytes}` };
  }
  const end = offset + FRAME_HEADER_BYTES + length;
  if (end > buffer.length) return { kind: 'incomplete' };
  const payload = buffer.subarray(offset + FRAME_HEADER_BYTES, end);
  if (checksum(buffer.subarray(offset + 4, offset + 24), payload) !== buffer.readUInt32LE(offset + 24)) {
    return { kind: 'corrupt', reason: 'checksum mismatch' };
  }
  const seq = buffer.readBigUInt64LE(offset + 8);
  const appendedAt = buffer.readBigUInt64LE(offset + 16);
  if (seq > BigInt(Number.MAX_SAFE_INTEGER) || appendedAt > BigInt(Number.MAX_SAFE_INTEGER)) {
    return { kind: 'corrupt', reason: 'sequence or time out of range' };
  }
  return {
    kind: 'record',
    frame: { seq: Number(seq), appendedAt: Number(appendedAt), payload },
    bytes: end - offset,
  };
}

function checksum(header: Buffer, payload: Buffer): number {
  return crc32(payload, crc32(header));
}

/** A buffer that ends inside the magic (or is empty) may be the start of a torn frame. */
function isMagicPrefix(rest: Buffer): boolean {
  return rest.length <= 4 ? rest.equals(FRAME_MAGIC.subarray(0, rest.length)) : rest.subarray(0, 4).equals(FRAME_MAGIC);
}
