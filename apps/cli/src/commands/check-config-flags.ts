/** `hookgate check-config` on the command line: description, flags and help text; runs ./check-config.js. */
import type { DefineCommand } from '../cli-command.js';

export const defineCheckConfig: DefineCommand = (program, context) => {
  program
    .command('check-config')
    .description('validate a configuration and print every problem (exit 1 when there is any)')
    .requiredOption('--config <path>', 'a YAML file or a directory')
    .action(async (opts: { config: string }) => {
      const { checkConfigCommand } = await import('./check-config.js');
      context.exit(await checkConfigCommand(opts.config, context.out, context.err));
    });
};
