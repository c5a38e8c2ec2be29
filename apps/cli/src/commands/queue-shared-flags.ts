/** The flags every `hookgate queue ...` command shares: which Redis, which prefix, which plugins. */
import type { Command } from 'commander';
// The names entry alone: the library's index loads BullMQ, which every CLI start would pay for.
import { DEFAULT_QUEUE_PREFIX } from '@hookgate/queue/names';

/** --redis, --prefix, --plugin: which queues. */
export function withQueueFlags(command: Command): Command {
  return command
    .option(
      '--redis <url>',
      'redis://host:port[/db], redis+sentinel://host:26379[,...]/<master>[/db] or redis+cluster://host:port[,...] (rediss... for TLS; default: REDIS_URL, else redis://127.0.0.1:6379)',
    )
    .option('--prefix <prefix>', 'the queue prefix of the gateway and controllers', DEFAULT_QUEUE_PREFIX)
    .option('--plugin <name>', 'only this plugin (repeatable)', (value: string, previous: string[] = []) => [
      ...previous,
      value,
    ]);
}
