/**
 * The primary's view of the break-glass file: read at start, then polled (stat every second: a
 * directory watch misses nothing either, but polling also works on every filesystem a state
 * directory may live on, and a second is nothing next to a human flipping a switch).
 */
import { unwatchFile, watchFile } from 'node:fs';
import { breakGlassPath, readBreakGlass, type BreakGlassState } from './break-glass-file.js';

export interface BreakGlassWatch {
  current(): BreakGlassState | undefined;
  close(): void;
}

export const BREAK_GLASS_POLL_MS = 1000;

export async function watchBreakGlass(
  stateDir: string,
  onChange: (state: BreakGlassState | undefined) => void,
  pollMs = BREAK_GLASS_POLL_MS,
): Promise<BreakGlassWatch> {
  let state = await readBreakGlass(stateDir);
  const path = breakGlassPath(stateDir);
  let reading = Promise.resolve();
  const listener = () => {
    reading = reading.then(async () => {
      const next = await readBreakGlass(stateDir);
      if ((next === undefined) === (state === undefined) && next?.since === state?.since) return;
      state = next;
      onChange(state);
    });
  };
  watchFile(path, { interval: pollMs, persistent: false }, listener);
  return {
    current: () => state,
    close: () => unwatchFile(path, listener),
  };
}
