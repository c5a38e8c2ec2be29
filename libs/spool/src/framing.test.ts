import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, FRAME_HEADER_BYTES } from './framing.js';

const MAX = 1024 * 1024;
const frameFields = fc.record({
  seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  appendedAt: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  payload: fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
});

describe('encodeFrame / decodeFrame', () => {
  it('round-trips any sequence number, time and payload', () => {
    fc.assert(
      fc.property(frameFields, (fields) => {
        const frame = encodeFrame(fields);
        expect(frame.length).toBe(FRAME_HEADER_BYTES + fields.payload.length);
        const decoded = decodeFrame(frame, 0, MAX);
        expect(decoded).toEqual({ kind: 'record', frame: fields, bytes: frame.length });
      }),
    );
  });

  it('decodes a frame at an offset inside a larger buffer', () => {
    const first = encodeFrame({ seq: 1, appendedAt: 10, payload: Buffer.from('one') });
    const second = encodeFrame({ seq: 2, appendedAt: 11, payload: Buffer.from('two') });
    const decoded = decodeFrame(Buffer.concat([first, second]), first.length, MAX);
    expect(decoded.kind === 'record' && decoded.frame.payload.toString()).toBe('two');
  });

  it('detects any single flipped byte after the magic as a checksum (or length) failure', () => {
    fc.assert(
      fc.property(frameFields, fc.nat(), fc.integer({ min: 1, max: 255 }), (fields, at, xor) => {
        const frame = encodeFrame(fields);
        const index = 4 + (at % (frame.length - 4));
        frame[index]! ^= xor;
        expect(decodeFrame(frame, 0, MAX).kind).not.toBe('record');
      }),
    );
  });

  it('calls every cut-short frame incomplete, never a record', () => {
    fc.assert(
      fc.property(frameFields, fc.nat(), (fields, cut) => {
        const frame = encodeFrame(fields);
        const torn = frame.subarray(0, cut % frame.length);
        expect(decodeFrame(torn, 0, MAX)).toEqual({ kind: 'incomplete' });
      }),
    );
  });

  it.each([
    { name: 'bytes without the frame magic', buffer: Buffer.alloc(40, 7), reason: 'no frame magic' },
    {
      name: 'a length beyond maxRecordBytes',
      buffer: encodeFrame({ seq: 1, appendedAt: 1, payload: Buffer.alloc(100) }),
      reason: 'length 100 exceeds maxRecordBytes 99',
    },
  ])('refuses $name', ({ buffer, reason }) => {
    expect(decodeFrame(buffer, 0, 99)).toEqual({ kind: 'corrupt', reason });
  });
});
