/** `hookgate queue status` on the command line: description, flags and help text; runs ./queue-status.js. */
import type { DefineCommand } from '../cli-command.js';
import { withQueueFlags } from './queue-shared-flags.js';
import type { QueueStatusFlags } from './queue-status.js';

export const defineQueueStatus: DefineCommand = (queue, context) => {
  withQueueFlags(
    queue.command('status').description('jobs per plugin queue and state, the next resync, and the gateway spool'),
  )
    .option('--output <format>', 'text or json', 'text')
    .option(
      '--gateway-metrics <url>',
      "the gateway's metrics URL, to show its spool depth (http://127.0.0.1:9443/metrics)",
    )
    .action(async (opts: QueueStatusFlags) => {
      const { queueStatusCommand } = await import('./queue-status.js');
      context.exit(await queueStatusCommand(opts, context.env, context.out, context.err));
    });
};
