import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  HG_ERR_SPOOL_FULL,
  HG_ERR_SPOOL_LOCKED,
  HG_ERR_SPOOL_RECORD_TOO_LARGE,
  HG_ERR_SPOOL_UNREADABLE,
} from '@hookgate/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { ACK_FILE } from './ack-cursor.js';
import { FRAME_HEADER_BYTES, frameBytes } from './framing.js';
import { SEGMENT_HEADER_BYTES, segmentFileName } from './segment-file.js';
import { Spool, type SpoolRecord } from './spool.js';
import type { SpoolOptions } from './spool-options.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function spoolDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-spool-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function openSpool(options: SpoolOptions): Promise<Spool> {
  const spool = await Spool.open({ sweepIntervalMs: 0, ...options });
  cleanups.push(() => spool.close());
  return spool;
}

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

async function collect(records: AsyncIterable<SpoolRecord>): Promise<string[]> {
  const texts: string[] = [];
  for await (const record of records) texts.push(`${record.seq}:${record.payload.toString()}`);
  return texts;
}

async function appendTexts(spool: Spool, ...texts: string[]): Promise<number[]> {
  const appended = await Promise.all(texts.map((text) => spool.append(Buffer.from(text))));
  return appended.map((a) => a.seq);
}

describe('Spool', () => {
  it('hands appended records back oldest first, with sequence numbers and times', async () => {
    const clock = manualClock();
    const spool = await openSpool({ dir: await spoolDir(), now: clock.now });
    expect(await appendTexts(spool, 'a', 'b', 'c')).toEqual([1, 2, 3]);
    const [first] = await spool.readPending(1);
    expect(first).toEqual({ seq: 1, appendedAt: clock.now(), payload: Buffer.from('a') });
    expect(await collect(spool.pending())).toEqual(['1:a', '2:b', '3:c']);
    clock.advance(250);
    expect(spool.stats()).toMatchObject({ pendingRecords: 3, pendingBytes: 3, oldestPendingAgeMs: 250 });
  });

  it('hands out records appended while the caller iterates', async () => {
    const spool = await openSpool({ dir: await spoolDir() });
    await appendTexts(spool, 'first');
    const seen: string[] = [];
    for await (const record of spool.pending(1)) {
      seen.push(record.payload.toString());
      if (seen.length === 1) await appendTexts(spool, 'second');
    }
    expect(seen).toEqual(['first', 'second']);
  });

  it('shares one fsync among concurrent appends (group commit)', async () => {
    const spool = await openSpool({ dir: await spoolDir(), groupCommitMs: 5, groupCommitRecords: 1000 });
    await appendTexts(spool, ...Array.from({ length: 200 }, (_, i) => `job ${i}`));
    const { fsyncs, appendedRecords, lastFsyncMs } = spool.stats();
    expect(appendedRecords).toBe(200);
    expect(fsyncs).toBeGreaterThanOrEqual(1);
    expect(fsyncs).toBeLessThanOrEqual(5);
    expect(lastFsyncMs).toBeGreaterThan(0);
  });

  it('fsyncs a lone append on its own', async () => {
    const spool = await openSpool({ dir: await spoolDir(), groupCommitMs: 0 });
    for (const text of ['a', 'b', 'c']) await appendTexts(spool, text);
    expect(spool.stats().fsyncs).toBe(3);
  });

  it('remembers acknowledgements across a restart, and continues the sequence', async () => {
    const dir = await spoolDir();
    const before = await Spool.open({ dir, sweepIntervalMs: 0 });
    await appendTexts(before, 'a', 'b', 'c', 'd', 'e');
    await Promise.all([before.acknowledge(1), before.acknowledge(2), before.acknowledge(4)]);
    await before.acknowledge(4); // twice is harmless
    await before.close();
    expect(JSON.parse(await readFile(path.join(dir, ACK_FILE), 'utf8'))).toEqual({ format: 1, through: 2, above: [4] });

    const after = await openSpool({ dir });
    expect(await collect(after.pending())).toEqual(['3:c', '5:e']);
    expect(await appendTexts(after, 'f')).toEqual([6]);
    expect(after.stats()).toMatchObject({ pendingRecords: 3, retainedAcknowledgedRecords: 3 });
  });

  it('acknowledges at once with acknowledgeSoon and persists it after ackPersistDelayMs, or on close', async () => {
    const dir = await spoolDir();
    const ackFile = () => readFile(path.join(dir, ACK_FILE), 'utf8').then((text) => JSON.parse(text) as unknown);
    const spool = await Spool.open({ dir, sweepIntervalMs: 0, ackPersistDelayMs: 200 });
    await appendTexts(spool, 'a', 'b', 'c');
    spool.acknowledgeSoon(1);
    expect(await collect(spool.pending())).toEqual(['2:b', '3:c']);
    // Not persisted yet: a crash now would hand record 1 out again (redelivery, never loss).
    await expect(ackFile()).rejects.toMatchObject({ code: 'ENOENT' });
    await expect
      .poll(() => ackFile().catch(() => null), { timeout: 5_000 })
      .toEqual({ format: 1, through: 1, above: [] });
    expect(() => spool.acknowledgeSoon(4)).toThrow(/no record 4 to acknowledge \(the newest is 3\)/);

    spool.acknowledgeSoon(3);
    await spool.close();
    expect(await ackFile()).toEqual({ format: 1, through: 1, above: [3] });
    const after = await openSpool({ dir });
    expect(await collect(after.pending())).toEqual(['2:b']);
  });

  it('finishes appends still in flight when closed', async () => {
    const dir = await spoolDir();
    const before = await Spool.open({ dir, sweepIntervalMs: 0, groupCommitMs: 60_000 });
    const appended = before.append(Buffer.from('late'));
    await before.close();
    await expect(appended).resolves.toMatchObject({ seq: 1 });
    await expect(before.append(Buffer.from('after'))).rejects.toThrow(/is closed/);
    const after = await openSpool({ dir });
    expect(await collect(after.pending())).toEqual(['1:late']);
  });

  it('refuses a second open of a directory that is already open', async () => {
    const dir = await spoolDir();
    await openSpool({ dir });
    await expect(Spool.open({ dir })).rejects.toMatchObject({ code: HG_ERR_SPOOL_LOCKED.code });
  });

  it('refuses to acknowledge a record that was never appended', async () => {
    const spool = await openSpool({ dir: await spoolDir() });
    await appendTexts(spool, 'a');
    await expect(spool.acknowledge(2)).rejects.toThrow(/no record 2 to acknowledge \(the newest is 1\)/);
    await expect(spool.acknowledge(0)).rejects.toBeInstanceOf(RangeError);
  });

  it('cuts a torn last record off on open, and counts it', async () => {
    const dir = await spoolDir();
    const before = await Spool.open({ dir, sweepIntervalMs: 0 });
    await appendTexts(before, 'one', 'two', 'three');
    await before.close();
    const segment = path.join(dir, segmentFileName(1));
    const intact = SEGMENT_HEADER_BYTES + frameBytes(3) + frameBytes(3);
    await truncate(segment, intact + 12); // a crash in the middle of writing the third frame

    const after = await openSpool({ dir });
    expect(after.recovery.tornTails).toEqual([
      { segment: segmentFileName(1), offset: intact, bytes: 12, reason: 'frame ends after the segment does' },
    ]);
    expect((await stat(segment)).size).toBe(intact);
    expect(await collect(after.pending())).toEqual(['1:one', '2:two']);
    expect(after.stats().tornTails).toBe(1);
    expect(await appendTexts(after, 'four')).toEqual([3]);
    expect(await collect(after.pending())).toEqual(['1:one', '2:two', '3:four']);
  });

  it('skips a corrupt record in the middle, reports where it is, and keeps its neighbours', async () => {
    const dir = await spoolDir();
    const before = await Spool.open({ dir, sweepIntervalMs: 0 });
    await appendTexts(before, 'one', 'two', 'six');
    await before.close();
    const segment = path.join(dir, segmentFileName(1));
    const content = await readFile(segment);
    const second = SEGMENT_HEADER_BYTES + frameBytes(3);
    content[second + FRAME_HEADER_BYTES + 1]! ^= 0x20; // 'two' becomes 'tWo'
    await writeFile(segment, content);

    const after = await openSpool({ dir });
    expect(after.recovery.corruptions).toEqual([
      { segment: segmentFileName(1), offset: second, bytes: frameBytes(3), reason: 'checksum mismatch' },
    ]);
    expect(after.stats().corruptRecords).toBe(1);
    expect(await collect(after.pending())).toEqual(['1:one', '3:six']);
  });

  it('skips a record damaged on disk after open when it is read, never throwing', async () => {
    const dir = await spoolDir();
    const spool = await openSpool({ dir });
    await appendTexts(spool, 'one', 'two');
    const segment = path.join(dir, segmentFileName(1));
    const content = await readFile(segment);
    content[SEGMENT_HEADER_BYTES + FRAME_HEADER_BYTES]! ^= 0x20;
    await writeFile(segment, content);
    expect(await collect(spool.pending())).toEqual(['2:two']);
    expect(spool.corruptions).toMatchObject([{ segment: segmentFileName(1), offset: SEGMENT_HEADER_BYTES }]);
  });

  it('refuses appends when full, never evicting, and takes them again once acknowledged', async () => {
    const record = frameBytes(10);
    // Room for three records; the margin is the header of a segment a rotation may start.
    const maxBytes = SEGMENT_HEADER_BYTES + 3 * record + SEGMENT_HEADER_BYTES;
    const dir = await spoolDir();
    const spool = await openSpool({ dir, maxBytes });
    await appendTexts(spool, '0123456789', '1123456789', '2123456789');
    const refused = await spool.append(Buffer.from('3123456789')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: HG_ERR_SPOOL_FULL.code });
    expect((refused as Error).message).toContain(
      `spool ${dir} is full: ${SEGMENT_HEADER_BYTES + 3 * record} of its ${maxBytes} bytes are used (3 records not yet acknowledged`,
    );
    expect(spool.stats().pendingRecords).toBe(3);

    await Promise.all([1, 2, 3].map((seq) => spool.acknowledge(seq)));
    expect(await appendTexts(spool, '3123456789')).toEqual([4]);
    expect(spool.stats()).toMatchObject({ pendingRecords: 1, retentionCutShort: 1 });
    expect(await collect(spool.pending())).toEqual(['4:3123456789']);
  });

  it('refuses a record larger than maxRecordBytes', async () => {
    const spool = await openSpool({ dir: await spoolDir(), maxRecordBytes: 4 });
    await expect(spool.append(Buffer.from('12345'))).rejects.toMatchObject({
      code: HG_ERR_SPOOL_RECORD_TOO_LARGE.code,
    });
  });

  it('rotates segments, and deletes one only once all of it is acknowledged and past retention', async () => {
    const clock = manualClock();
    const dir = await spoolDir();
    const segmentBytes = SEGMENT_HEADER_BYTES + 2 * frameBytes(1); // two records per segment
    const spool = await openSpool({ dir, segmentBytes, retainAcknowledgedMs: 1000, now: clock.now });
    await appendTexts(spool, 'a', 'b', 'c', 'd', 'e');
    const segmentFiles = async () => (await readdir(dir)).filter((name) => name.startsWith('segment-')).sort();
    expect(await segmentFiles()).toEqual([segmentFileName(1), segmentFileName(3), segmentFileName(5)]);

    await Promise.all([spool.acknowledge(1), spool.acknowledge(2), spool.acknowledge(3)]);
    expect(await spool.collect()).toBe(0); // acknowledged, but inside retention
    clock.advance(1001);
    expect(await spool.collect()).toBe(1); // segment 3-4 still holds an unacknowledged record
    expect(await segmentFiles()).toEqual([segmentFileName(3), segmentFileName(5)]);
    expect(await collect(spool.pending())).toEqual(['4:d', '5:e']);
    expect(spool.stats()).toMatchObject({ segments: 2, retainedAcknowledgedRecords: 1 });
  });

  it('splits one group commit over several segments, and reads them all back in order after a restart', async () => {
    const dir = await spoolDir();
    const segmentBytes = SEGMENT_HEADER_BYTES + 3 * frameBytes(6);
    const texts = Array.from({ length: 40 }, (_, i) => `job-${String(i).padStart(2, '0')}`);
    const before = await Spool.open({ dir, segmentBytes, sweepIntervalMs: 0, groupCommitRecords: 1000 });
    await appendTexts(before, ...texts);
    expect(before.stats()).toMatchObject({ segments: 14, fsyncs: 14 }); // one write + fsync per segment
    await before.close();
    const after = await openSpool({ dir, segmentBytes });
    expect(await collect(after.pending())).toEqual(texts.map((text, i) => `${i + 1}:${text}`));
  });

  it('replays acknowledged records still retained, by append time, across a restart', async () => {
    const clock = manualClock(10_000);
    const dir = await spoolDir();
    const before = await Spool.open({ dir, sweepIntervalMs: 0, now: clock.now });
    for (const text of ['a', 'b', 'c']) {
      await appendTexts(before, text);
      clock.advance(1000);
    }
    await Promise.all([before.acknowledge(1), before.acknowledge(2)]);
    expect(await collect(before.replaySince(10_500))).toEqual(['2:b']);
    await before.close();

    const after = await openSpool({ dir, now: clock.now });
    expect(await collect(after.replaySince(0))).toEqual(['1:a', '2:b']); // 3 is pending, not replayed
    expect(await collect(after.pending())).toEqual(['3:c']);
  });

  it('treats an unreadable acknowledgement file as nothing acknowledged (redelivery, not loss)', async () => {
    const dir = await spoolDir();
    const before = await Spool.open({ dir, sweepIntervalMs: 0 });
    await appendTexts(before, 'a', 'b');
    await before.acknowledge(1);
    await before.close();
    await writeFile(path.join(dir, ACK_FILE), '{"format":1,"thr');
    const after = await openSpool({ dir });
    expect(after.recovery.acknowledgementsReset).toMatch(/JSON/);
    expect(await collect(after.pending())).toEqual(['1:a', '2:b']);
  });

  it.each([
    { name: 'a foreign file', file: 'notes.txt', content: 'hello', problem: /it is not one of the spool's files/ },
    {
      name: 'a segment without the spool header',
      file: segmentFileName(1),
      content: 'not a segment at all',
      problem: /it is not a spool segment \(no HGSPOOL header\)/,
    },
    {
      name: 'a segment of another format version',
      file: segmentFileName(1),
      content: Buffer.concat([Buffer.from('HGSPOOL\0', 'latin1'), Buffer.from([9, 0, 0, 0, 0, 0, 0, 0])]),
      problem: /format version 9; this build reads version 1/,
    },
  ])('refuses a directory holding $name, naming the file', async ({ file, content, problem }) => {
    const dir = await spoolDir();
    await writeFile(path.join(dir, file), content);
    const error = await Spool.open({ dir }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: HG_ERR_SPOOL_UNREADABLE.code });
    expect((error as Error).message).toContain(`cannot use ${path.join(dir, file)}`);
    expect((error as Error).message).toMatch(problem);
    await expect(readdir(dir)).resolves.not.toContain('lock'); // the lock is released again
  });
});
