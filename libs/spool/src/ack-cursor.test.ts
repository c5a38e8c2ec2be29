import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACK_FILE, ACK_TEMP_FILE, coalescedWriter, readAckCursor, writeAckCursor } from './ack-cursor.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function ackDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-spool-ack-'));
  dirs.push(dir);
  return dir;
}

describe('the acknowledgement cursor file', () => {
  it('reads back what was written, and nothing acknowledged when there is no file', async () => {
    const dir = await ackDir();
    expect(await readAckCursor(dir)).toEqual({ kind: 'ok', cursor: { through: 0, above: [] } });
    await writeAckCursor(dir, { through: 7, above: [9, 12] });
    expect(await readAckCursor(dir)).toEqual({ kind: 'ok', cursor: { through: 7, above: [9, 12] } });
    expect(await readdir(dir)).toEqual([ACK_FILE]);
  });

  it('ignores and removes a temporary file a crash left behind', async () => {
    const dir = await ackDir();
    await writeAckCursor(dir, { through: 3, above: [] });
    await writeFile(path.join(dir, ACK_TEMP_FILE), '{"format":1,"through":99');
    expect(await readAckCursor(dir)).toEqual({ kind: 'ok', cursor: { through: 3, above: [] } });
    expect(await readdir(dir)).toEqual([ACK_FILE]);
  });

  it.each([
    { name: 'cut-short JSON', content: '{"format":1,"thr', reason: /JSON/ },
    { name: 'another format', content: '{"format":2,"through":1,"above":[]}', reason: /unknown format 2/ },
    { name: 'a negative sequence', content: '{"format":1,"through":-1,"above":[]}', reason: /"through"/ },
    { name: 'a bad list', content: '{"format":1,"through":1,"above":["x"]}', reason: /"above"/ },
  ])('calls $name damaged, with the reason', async ({ content, reason }) => {
    const dir = await ackDir();
    await writeFile(path.join(dir, ACK_FILE), content);
    const read = await readAckCursor(dir);
    expect(read.kind).toBe('damaged');
    expect(read.kind === 'damaged' && read.reason).toMatch(reason);
  });
});

describe('coalescedWriter', () => {
  it('runs one write for the calls made during a write, and each call waits for a write begun after it', async () => {
    const dir = await ackDir();
    let state = 0;
    let writes = 0;
    const writer = coalescedWriter(async () => {
      writes++;
      await writeAckCursor(dir, { through: state, above: [] });
    });
    state = 1;
    const first = writer.persist();
    state = 2;
    const during = [writer.persist(), writer.persist(), writer.persist()];
    await first;
    await Promise.all(during);
    expect(writes).toBe(2);
    expect(JSON.parse(await readFile(path.join(dir, ACK_FILE), 'utf8')).through).toBe(2);
  });
});
