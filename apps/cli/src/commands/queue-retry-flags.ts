/** `hookgate queue retry` on the command line: description, flags and help text; runs ./queue-retry.js. */
import type { DefineCommand } from '../cli-command.js';
import { withQueueFlags } from './queue-shared-flags.js';
import type { QueueRetryFlags } from './queue-retry.js';

export const defineQueueRetry: DefineCommand = (queue, context) => {
  withQueueFlags(
    queue
      .command('retry')
      .description('move failed jobs (the dead-letter set) back to waiting, attempts reset: --plugin NAME or --all'),
  )
    .option('--all', 'every plugin queue under the prefix')
    .option('--job <id>', 'only this job (with one --plugin)')
    .option('--output <format>', 'text or json', 'text')
    .action(async (opts: QueueRetryFlags) => {
      const { queueRetryCommand } = await import('./queue-retry.js');
      context.exit(await queueRetryCommand(opts, context.env, context.out, context.err));
    });
};
