/** `hookgate break-glass on|off|status` on the command line; runs ./break-glass.js. */
import { Argument } from 'commander';
import type { DefineCommand } from '../cli-command.js';
import type { BreakGlassFlags } from './break-glass.js';

export const defineBreakGlass: DefineCommand = (program, context) => {
  program
    .command('break-glass')
    .description(
      'turn every hook to failurePolicy Ignore on this node (on), back to its configured policy (off), or show the switch (status); the running gateway follows within a second',
    )
    .addArgument(new Argument('<action>', 'on, off or status').choices(['on', 'off', 'status']))
    .option('--config <path>', 'the gateway configuration (its stateDir holds the switch)')
    .option('--state-dir <dir>', 'the state directory (instead of --config)')
    .option('--reason <text>', 'why (shown in the logs and on /readyz)', '')
    .action(async (action: 'on' | 'off' | 'status', opts: BreakGlassFlags) => {
      const { breakGlassCommand } = await import('./break-glass.js');
      context.exit(await breakGlassCommand(action, opts, context.out, context.err));
    });
};
