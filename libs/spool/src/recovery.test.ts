import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame } from './framing.js';
import { scanSegment } from './recovery.js';

const MAX = 1024;
const options = { start: 0, maxPayloadBytes: MAX, afterSeq: 0 };

function frames(count: number, firstSeq = 1): Buffer[] {
  return Array.from({ length: count }, (_, i) =>
    encodeFrame({ seq: firstSeq + i, appendedAt: 1000 + i, payload: Buffer.from(`record ${firstSeq + i}`) }),
  );
}

describe('scanSegment', () => {
  it('reads every frame of an intact segment, with offsets', () => {
    const all = frames(3);
    const scan = scanSegment(Buffer.concat(all), options);
    expect(scan.records.map((r) => [r.seq, r.offset])).toEqual([
      [1, 0],
      [2, all[0]!.length],
      [3, all[0]!.length + all[1]!.length],
    ]);
    expect(scan.corruptions).toEqual([]);
    expect(scan.tail).toBeUndefined();
  });

  it('reports a partial last frame as the tail, keeping the frames before it', () => {
    const all = frames(3);
    const torn = Buffer.concat([all[0]!, all[1]!, all[2]!.subarray(0, 10)]);
    const scan = scanSegment(torn, options);
    expect(scan.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(scan.tail).toEqual({
      offset: all[0]!.length + all[1]!.length,
      bytes: 10,
      reason: 'frame ends after the segment does',
    });
  });

  it('skips a damaged frame in the middle and keeps its neighbours', () => {
    const all = frames(3);
    all[1]![30]! ^= 0xff; // a payload byte
    const scan = scanSegment(Buffer.concat(all), options);
    expect(scan.records.map((r) => r.seq)).toEqual([1, 3]);
    expect(scan.corruptions).toEqual([{ offset: all[0]!.length, bytes: all[1]!.length, reason: 'checksum mismatch' }]);
    expect(scan.tail).toBeUndefined();
  });

  it('resynchronises after a damaged length that points past the end of the segment', () => {
    const all = frames(3);
    all[1]!.writeUInt32LE(1000, 4); // within maxRecordBytes, beyond the buffer
    const scan = scanSegment(Buffer.concat(all), options);
    expect(scan.records.map((r) => r.seq)).toEqual([1, 3]);
    expect(scan.corruptions).toHaveLength(1);
    expect(scan.corruptions[0]!.reason).toBe('frame ends after the segment does');
  });

  it('skips garbage between frames', () => {
    const all = frames(2);
    const scan = scanSegment(Buffer.concat([all[0]!, Buffer.from('garbage'), all[1]!]), options);
    expect(scan.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(scan.corruptions).toEqual([{ offset: all[0]!.length, bytes: 7, reason: 'no frame magic' }]);
  });

  it('refuses a valid frame whose sequence number does not increase', () => {
    const [one, two] = frames(2);
    const scan = scanSegment(Buffer.concat([one!, two!, one!]), options);
    expect(scan.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(scan.tail?.reason).toBe('sequence 1 is not after 2');
  });

  it('never loses an intact frame, whatever one frame suffers (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 }),
        (count, victimPick, flips) => {
          const all = frames(count);
          const victim = victimPick % count;
          for (const [at, xor] of flips) all[victim]![at % all[victim]!.length]! ^= xor;
          const scan = scanSegment(Buffer.concat(all), options);
          const kept = scan.records.map((r) => r.seq);
          for (let seq = 1; seq <= count; seq++) if (seq !== victim + 1) expect(kept).toContain(seq);
        },
      ),
    );
  });
});
