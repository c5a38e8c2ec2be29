/**
 * A process SIGKILLed in the middle of appending and acknowledging: after reopening, every record
 * whose append had resolved is there (pending, or acknowledged and retained), with its payload, and
 * no record whose acknowledgement had resolved is handed out again. SIGKILL keeps the page cache,
 * so this proves the process-crash path (torn tail, ack file replaced atomically), not power loss.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Spool } from './spool.js';

const fixture = fileURLToPath(new URL('../test/fixtures/append-until-killed.ts', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a spool whose process is SIGKILLed mid-append', () => {
  it('keeps every appended record and every acknowledgement that had resolved', { timeout: 30_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-spool-crash-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
    });
    const appended = new Set<number>();
    const acked = new Set<number>();
    const lines = createInterface({ input: child.stdout });
    const exited = once(child, 'exit');
    for await (const line of lines) {
      const [event, seq] = line.split(' ');
      if (event === 'appended') appended.add(Number(seq));
      if (event === 'acked') acked.add(Number(seq));
      if (appended.size === 400 && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
    }
    expect((await exited)[1]).toBe('SIGKILL');
    expect(appended.size).toBeGreaterThanOrEqual(400);
    expect(acked.size).toBeGreaterThan(0);

    const spool = await Spool.open({ dir, sweepIntervalMs: 0 });
    cleanups.push(() => spool.close());
    const pending = new Map<number, string>();
    for await (const record of spool.pending()) pending.set(record.seq, record.payload.toString());
    const retained = new Map<number, string>();
    for await (const record of spool.replaySince(0)) retained.set(record.seq, record.payload.toString());

    for (const seq of appended) {
      expect(pending.get(seq) ?? retained.get(seq), `record ${seq}`).toBe(`record-${seq - 1}`);
    }
    for (const seq of acked) expect(pending.has(seq), `acknowledged record ${seq} handed out again`).toBe(false);
    expect(spool.recovery.corruptions).toEqual([]);
  });
});
