/**
 * The plugin queues under a prefix, found in Redis rather than in a configuration: what
 * `hookgate queue` lists and what a controller measures besides the queues it serves (a plugin
 * removed while its jobs wait has a queue nobody serves).
 *
 *   const plugins = await discoverPluginQueues(redis, '{hookgate}');   // ['ledger', 'quota'], sorted
 *
 * A SCAN of the keys `<prefix>:hookgate-reconcile-*` (any key of a queue counts: jobs, meta,
 * schedulers), on every master of a Cluster. It walks the whole keyspace in pages: on a big Redis,
 * call it now and then, not per request.
 */
import type { Redis } from 'ioredis';
import { QUEUE_NAME_PREFIX, pluginOfQueueName } from './queue-names.js';
import { isCluster, type RedisClient } from './redis-client.js';

/** Keys per SCAN page (a hint to Redis, not a limit). */
const SCAN_COUNT = 1000;

/** Every plugin with a reconcile queue under the prefix, sorted; a SCAN refused or a node down rejects. */
export async function discoverPluginQueues(redis: RedisClient, prefix: string): Promise<string[]> {
  const found = new Set<string>();
  const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}:${QUEUE_NAME_PREFIX}*`;
  // SCAN walks one node's keys: on Cluster, every master's (a prefix's tag may sit on any of them).
  for (const node of isCluster(redis) ? redis.nodes('master') : [redis]) await scanInto(node, pattern, prefix, found);
  return [...found].sort();
}

async function scanInto(redis: Redis, pattern: string, prefix: string, found: Set<string>): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
    cursor = next;
    for (const key of keys) {
      const queueName = key.slice(prefix.length + 1).split(':')[0] ?? '';
      const plugin = pluginOfQueueName(queueName);
      if (plugin !== undefined) found.add(plugin);
    }
  } while (cursor !== '0');
}
