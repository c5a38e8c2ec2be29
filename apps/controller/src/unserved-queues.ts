/**
 * The plugin queues in Redis that this controller does not serve, for the unserved-queue gauges
 * (metrics.ts): a plugin deregistered, or dropped from every controller's configuration, while
 * jobs wait in its queue leaves a queue nobody works and nothing else measures.
 *
 * The queues are found by a SCAN of the prefix (discoverPluginQueues), at most every
 * `discoveryIntervalMs` (a SCAN per scrape is too much on a big Redis): a scrape waits at most
 * `probeTimeoutMs` for a due discovery, then uses the last one found; a discovery that fails or
 * does not end in `discoveryTimeoutMs` keeps the last list and is tried again at the next interval.
 */
import { Queue } from 'bullmq';
import { JOB_NAMES, discoverPluginQueues, reconcileQueueName, type RedisClient } from '@hookgate/queue';
import type { Logger } from '@hookgate/observability';
import type { UnservedQueueProbe } from './metrics.js';
import { bounded, sleep } from './timing.js';

export interface UnservedQueuesOptions {
  /** The connection the controller's queues share (commands only, no blocking ones). */
  readonly connection: RedisClient;
  readonly prefix: string;
  /** Whether this controller serves the plugin's queue now. */
  readonly isServed: (plugin: string) => boolean;
  readonly logger: Logger;
  readonly discoveryIntervalMs?: number;
  readonly discoveryTimeoutMs?: number;
  readonly probeTimeoutMs: number;
  readonly now?: () => number;
}

export interface UnservedQueues {
  /** A probe per unserved queue, as of the last discovery. */
  probes(): Promise<readonly UnservedQueueProbe[]>;
  close(): Promise<void>;
}

export const UNSERVED_DISCOVERY_INTERVAL_MS = 30_000;
const UNSERVED_DISCOVERY_TIMEOUT_MS = 10_000;
/** Jobs read from the head of each state to find the oldest one that is not the periodic resync's. */
const OLDEST_SAMPLE = 10;

export function watchUnservedQueues(options: UnservedQueuesOptions): UnservedQueues {
  const now = options.now ?? Date.now;
  const intervalMs = options.discoveryIntervalMs ?? UNSERVED_DISCOVERY_INTERVAL_MS;
  const timeoutMs = options.discoveryTimeoutMs ?? UNSERVED_DISCOVERY_TIMEOUT_MS;
  let discovered: readonly string[] = [];
  let discoveredAt = -Infinity;
  let discovering: Promise<void> | undefined;
  let failing = false;
  let closed = false;
  const queues = new Map<string, { readonly queue: Queue; readonly probe: UnservedQueueProbe }>();

  const discover = (): Promise<void> =>
    (discovering ??= bounded(discoverPluginQueues(options.connection, options.prefix), timeoutMs)
      .then(
        (found) => {
          discovered = found;
          if (failing) options.logger.info({}, 'plugin queues in Redis found again (unserved-queue gauges)');
          failing = false;
        },
        (error: unknown) => {
          // Once per outage (not at a stop, which drops the connection); the gauges keep the last list.
          if (!failing && !closed) {
            options.logger.warn(
              { err: error instanceof Error ? error.message : String(error) },
              'cannot list the plugin queues in Redis (SCAN): the unserved-queue gauges use the last list',
            );
          }
          failing = true;
        },
      )
      .finally(() => {
        discoveredAt = now();
        discovering = undefined;
      }));

  const close = async (entry: { readonly queue: Queue }): Promise<void> => {
    try {
      await entry.queue.close();
    } catch {
      // A shared connection: nothing of it to release.
    }
  };

  return {
    async probes() {
      if (closed) return [];
      if (now() - discoveredAt >= intervalMs) await Promise.race([discover(), sleep(options.probeTimeoutMs)]);
      const unserved = discovered.filter((plugin) => !options.isServed(plugin));
      const wanted = new Set(unserved);
      for (const [plugin, entry] of queues) {
        if (wanted.has(plugin)) continue;
        queues.delete(plugin);
        void close(entry);
      }
      return unserved.map((plugin) => {
        let entry = queues.get(plugin);
        if (entry === undefined) {
          const queue = new Queue(reconcileQueueName(plugin), {
            connection: options.connection,
            prefix: options.prefix,
          });
          entry = { queue, probe: unservedProbeOf(plugin, queue, options.probeTimeoutMs) };
          queues.set(plugin, entry);
        }
        return entry.probe;
      });
    },
    async close() {
      closed = true;
      const entries = [...queues.values()];
      queues.clear();
      await Promise.all(entries.map(close));
    },
  };
}

function unservedProbeOf(plugin: string, queue: Queue, timeoutMs: number): UnservedQueueProbe {
  return {
    plugin,
    jobCounts: async () => {
      const counts = await bounded(queue.getJobCounts('wait', 'prioritized', 'delayed', 'failed'), timeoutMs);
      return {
        waiting: counts['wait'] ?? 0,
        prioritized: counts['prioritized'] ?? 0,
        delayed: counts['delayed'] ?? 0,
        failed: counts['failed'] ?? 0,
      };
    },
    oldestPendingTimestamp: async () => {
      // The head of each state (oldest first); the resync scheduler's next run is always there, delayed.
      const jobs = await bounded(
        queue.getJobs(['wait', 'prioritized', 'delayed'], 0, OLDEST_SAMPLE - 1, true),
        timeoutMs,
      );
      const times = jobs
        .filter((job) => job !== undefined && job.name !== JOB_NAMES.resync)
        .map((job) => job.timestamp);
      return times.length === 0 ? undefined : Math.min(...times);
    },
  };
}
