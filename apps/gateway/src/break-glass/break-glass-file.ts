/**
 * The break-glass switch: a file in the state directory. While `<stateDir>/break-glass` exists,
 * every hook the gateway serves fails open (failurePolicy Ignore) — nothing in the configuration
 * or the registrations changes, and removing the file restores them exactly. A file on the node,
 * because break glass is for when the cluster itself is unusable: `hookgate break-glass on`
 * (or `touch`) works without the apiserver.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const BREAK_GLASS_FILE = 'break-glass';

export interface BreakGlassState {
  /** When it was switched on (the file's own record, or its modification time for a bare `touch`). */
  readonly since: string;
  /** Why, as the operator said it (empty when not given). */
  readonly reason: string;
}

export const breakGlassPath = (stateDir: string): string => join(stateDir, BREAK_GLASS_FILE);

/** The switch as it is now; undefined when off. Any content counts as on: the file's presence is the switch. */
export async function readBreakGlass(stateDir: string): Promise<BreakGlassState | undefined> {
  const path = breakGlassPath(stateDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // Unreadable but present: still on (failing open is the safe reading of a switch we cannot read).
    return { since: '', reason: `the file cannot be read: ${(error as Error).message}` };
  }
  try {
    const parsed = JSON.parse(text) as Partial<BreakGlassState>;
    return {
      since: typeof parsed.since === 'string' ? parsed.since : '',
      reason: typeof parsed.reason === 'string' ? parsed.reason : '',
    };
  } catch {
    return { since: '', reason: text.trim().slice(0, 200) };
  }
}

export async function switchBreakGlassOn(stateDir: string, reason: string, now = new Date()): Promise<BreakGlassState> {
  const state = { since: now.toISOString(), reason };
  await writeFile(breakGlassPath(stateDir), `${JSON.stringify(state)}\n`, { mode: 0o644 });
  return state;
}

/** True when it was on. */
export async function switchBreakGlassOff(stateDir: string): Promise<boolean> {
  const on = (await readBreakGlass(stateDir)) !== undefined;
  await rm(breakGlassPath(stateDir), { force: true });
  return on;
}
