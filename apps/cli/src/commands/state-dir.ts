/** The state directory a node command works on: `--state-dir`, or the `stateDir` of `--config`. */
import { formatConfigError, loadConfiguration } from '@hookgate/config';

export interface StateDirFlags {
  config?: string;
  stateDir?: string;
}

/** The directory, or the problems to print (exit 1). */
async function resolveStateDir(
  flags: StateDirFlags,
): Promise<{ ok: true; dir: string } | { ok: false; problems: string[] }> {
  if (flags.stateDir !== undefined) return { ok: true, dir: flags.stateDir };
  if (flags.config === undefined)
    return { ok: false, problems: ['give --state-dir DIR or --config PATH (whose stateDir is used)'] };
  const loaded = await loadConfiguration(flags.config);
  if (!loaded.ok) return { ok: false, problems: loaded.error.map(formatConfigError) };
  return { ok: true, dir: loaded.value.gateway.stateDir };
}

/** The directory, or undefined after writing the problems to `err` (the command exits 1). */
export async function stateDirOrReport(flags: StateDirFlags, err: NodeJS.WritableStream): Promise<string | undefined> {
  const resolved = await resolveStateDir(flags);
  if (resolved.ok) return resolved.dir;
  for (const p of resolved.problems) err.write(`${p}\n`);
  return undefined;
}
