/** `hookgate queue ...` on the command line: the command group and the flags its commands share. */
import type { DefineCommand } from '../cli-command.js';
import { defineQueueRetry } from './queue-retry-flags.js';
import { defineQueueStatus } from './queue-status-flags.js';

export const defineQueue: DefineCommand = (program, context) => {
  const queue = program
    .command('queue')
    .description('the reconciliation queues in Redis: jobs per plugin and state, retry of failed jobs');
  defineQueueStatus(queue, context);
  defineQueueRetry(queue, context);
};
