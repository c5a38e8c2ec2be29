/** `hookgate print-webhooks` on the command line: description, flags and help text; runs ./print-webhooks.js. */
import type { DefineCommand } from '../cli-command.js';
import { configOption } from '../config-option.js';
import type { PrintWebhooksFlags } from './print-webhooks.js';

export const definePrintWebhooks: DefineCommand = (program, context) => {
  program
    .command('print-webhooks')
    .description(
      'print the two apiserver-side webhook configurations that send this gateway the requests its hooks can match (Fail and Ignore hooks in separate webhooks)',
    )
    .addOption(configOption(context))
    .option('--url-host <host>', 'host in the webhook URLs (default: the admission listener address)')
    .action(async (opts: PrintWebhooksFlags) => {
      const { printWebhooksCommand } = await import('./print-webhooks.js');
      context.exit(await printWebhooksCommand(opts, context.out, context.err));
    });
};
