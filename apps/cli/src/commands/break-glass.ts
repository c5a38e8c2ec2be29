/** `hookgate break-glass`: writes or removes <stateDir>/break-glass, which the running gateway follows. */
import { readBreakGlass, switchBreakGlassOff, switchBreakGlassOn } from '@hookgate/gateway/break-glass';
import { stateDirOrReport, type StateDirFlags } from './state-dir.js';

export interface BreakGlassFlags extends StateDirFlags {
  reason: string;
}

export async function breakGlassCommand(
  action: 'on' | 'off' | 'status',
  flags: BreakGlassFlags,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const dir = await stateDirOrReport(flags, err);
  if (dir === undefined) return 1;
  try {
    if (action === 'on') {
      const state = await switchBreakGlassOn(dir, flags.reason);
      out.write(
        `break glass ON since ${state.since}: every hook on this node fails open (failurePolicy Ignore); denials still deny. Undo with \`hookgate break-glass off\`.\n`,
      );
    } else if (action === 'off') {
      const was = await switchBreakGlassOff(dir);
      out.write(was ? 'break glass off: the configured failure policies apply again.\n' : 'break glass was not on.\n');
    } else {
      const state = await readBreakGlass(dir);
      out.write(
        state === undefined
          ? 'break glass is off\n'
          : `break glass is ON${state.since ? ` since ${state.since}` : ''}${state.reason ? ` (${state.reason})` : ''}\n`,
      );
    }
    return 0;
  } catch (error) {
    err.write(`hookgate break-glass ${action}: ${(error as Error).message}\n`);
    return 1;
  }
}
