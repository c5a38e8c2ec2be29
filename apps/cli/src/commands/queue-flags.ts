/** `hookgate queue ...` on the command line: the command group and the flags its commands share. */
import type { Command } from 'commander';
import type { DefineCommand } from '../cli-command.js';
import { DEFAULT_QUEUE_PREFIX } from '@hookgate/queue';
import { defineQueueRetry } from './queue-retry-flags.js';
import { defineQueueStatus } from './queue-status-flags.js';

export const defineQueue: DefineCommand = (program, context) => {
  const queue = program
    .command('queue')
    .description('the reconciliation queues in Redis: jobs per plugin and state, retry of failed jobs');
  defineQueueStatus(queue, context);
  defineQueueRetry(queue, context);
};

/** --redis, --prefix, --plugin: which queues. */
export function withQueueFlags(command: Command): Command {
  return command
    .option('--redis <url>', 'redis:// or rediss:// URL (default: REDIS_URL, else redis://127.0.0.1:6379)')
    .option('--prefix <prefix>', 'the queue prefix of the gateway and controllers', DEFAULT_QUEUE_PREFIX)
    .option('--plugin <name>', 'only this plugin (repeatable)', (value: string, previous: string[] = []) => [
      ...previous,
      value,
    ]);
}
