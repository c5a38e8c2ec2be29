/** `hookgate check-config` on the command line: description, flags and help text; runs ./check-config.js. */
import { Option } from 'commander';
import type { DefineCommand } from '../cli-command.js';
import { configOption } from '../config-option.js';
import type { CheckConfigFlags } from './check-config.js';

export const defineCheckConfig: DefineCommand = (program, context) => {
  program
    .command('check-config')
    .description('validate a configuration and print every problem, in file and line order (exit 1 when there is any)')
    .addOption(
      configOption(
        context,
        'a YAML file or a directory; webhook configurations without a GatewayConfiguration are checked on their own',
      ),
    )
    .addOption(new Option('-o, --output <format>', 'text or json').choices(['text', 'json']).default('text'))
    .addHelpText(
      'after',
      `
Webhook configuration files on their own (no GatewayConfiguration) are checked as the apiserver
would check them; clientConfig.plugin names are then not checked, since no plugin is declared.

Examples:
  hookgate check-config --config /etc/hookgate
  hookgate check-config --config my-webhooks.yaml -o json`,
    )
    .action(async (opts: CheckConfigFlags) => {
      const { checkConfigCommand } = await import('./check-config.js');
      context.exit(await checkConfigCommand(opts, context));
    });
};
