/**
 * Which records are acknowledged, persisted so a restart does not hand them out again: every
 * sequence number up to `through`, and the ones in `above` (acknowledged out of order). Written as
 * a whole to a temporary file, fsynced, renamed over the old one and the directory fsynced, so the
 * file on disk is always one complete version: the old or the new, never a mix.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { syncDirectory } from './segment-file.js';

export const ACK_FILE = 'acknowledged';
export const ACK_TEMP_FILE = 'acknowledged.tmp';
const FORMAT = 1;

export interface AckCursor {
  readonly through: number;
  readonly above: readonly number[];
}

export const NOTHING_ACKNOWLEDGED: AckCursor = { through: 0, above: [] };

export type ReadAckCursor =
  | { readonly kind: 'ok'; readonly cursor: AckCursor }
  /** Unreadable content: the caller starts from nothing acknowledged (redelivery, never loss). */
  | { readonly kind: 'damaged'; readonly reason: string };

export async function readAckCursor(dir: string): Promise<ReadAckCursor> {
  await rm(path.join(dir, ACK_TEMP_FILE), { force: true }); // a write a crash interrupted
  let text: string;
  try {
    text = await readFile(path.join(dir, ACK_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'ok', cursor: NOTHING_ACKNOWLEDGED };
    throw error;
  }
  try {
    return { kind: 'ok', cursor: parseAckCursor(JSON.parse(text)) };
  } catch (error) {
    return { kind: 'damaged', reason: (error as Error).message };
  }
}

function parseAckCursor(value: unknown): AckCursor {
  const { format, through, above } = (value ?? {}) as Record<string, unknown>;
  if (format !== FORMAT) throw new Error(`unknown format ${String(format)}`);
  if (!isSeq(through)) throw new Error('"through" is not a sequence number');
  if (!Array.isArray(above) || !above.every(isSeq)) throw new Error('"above" is not a list of sequence numbers');
  return { through, above };
}

function isSeq(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

export async function writeAckCursor(dir: string, cursor: AckCursor): Promise<void> {
  const temp = path.join(dir, ACK_TEMP_FILE);
  const file = await open(temp, 'w');
  try {
    await file.writeFile(`${JSON.stringify({ format: FORMAT, through: cursor.through, above: cursor.above })}\n`);
    await file.datasync();
  } finally {
    await file.close();
  }
  await rename(temp, path.join(dir, ACK_FILE));
  await syncDirectory(dir);
}

/**
 * Coalesces writes of a state that only moves forward: `persist()` resolves once a write that began
 * after the call has finished, and any number of calls during one write share the next write.
 */
export function coalescedWriter(write: () => Promise<void>): { persist(): Promise<void> } {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    running = write().finally(() => {
      running = undefined;
    });
    return running;
  };
  return {
    persist() {
      if (running === undefined) return start();
      next ??= running
        .catch(() => undefined)
        .then(() => {
          next = undefined;
          return start();
        });
      return next;
    },
  };
}
