/**
 * Every queue name, job name and Redis key this library uses, from one place (as BullMQ's
 * queue-keys.ts): one queue per plugin, so each plugin's jobs can be paused, counted and worked
 * with their own concurrency (BullMQ's per-key groups are Pro only).
 *
 *   queue      hookgate-reconcile-<plugin>
 *   keys       <prefix>:<queue>:<type>      e.g. {hookgate}:hookgate-reconcile-ledger:wait
 *   job hash   <prefix>:<queue>:<jobId>
 *
 * The default prefix `{hookgate}` is a Redis Cluster hash tag: every key of every queue hashes to
 * one slot, which BullMQ's multi-key scripts need. To spread plugins over slots, give each its own
 * tag (`{hookgate-ledger}`); a prefix without a tag works on a single Redis or Sentinel only.
 */
import { HG_ERR_QUEUE_OPTION_INVALID } from '@hookgate/errors';

export const DEFAULT_QUEUE_PREFIX = '{hookgate}';
export const QUEUE_NAME_PREFIX = 'hookgate-reconcile-';

/** BullMQ job names (shown by dashboards, chosen on by processors). */
export const JOB_NAMES = {
  /** One side effect a hook reported, to reconcile once. */
  sideEffect: 'side-effect',
  /** One periodic resync of the queue's plugin (made by the job scheduler RESYNC_SCHEDULER_ID). */
  resync: 'resync',
} as const;

/** The job scheduler of each plugin queue's periodic resync: one per queue, whichever controller upserts it. */
export const RESYNC_SCHEDULER_ID = 'hookgate-resync';

/** A lowercase RFC 1123 subdomain, as the gateway configuration requires of plugin names. */
const PLUGIN_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PLUGIN_NAME_MAX = 253;
/** Letters, digits, `-`, `_`, `.`, and at most one non-empty {hash tag}; never ':' (BullMQ's separator). */
const PREFIX = /^[A-Za-z0-9._-]*(\{[A-Za-z0-9._-]+\})?[A-Za-z0-9._-]*$/;
/** Keeps keys short enough to read in redis-cli; a Cluster tag needs only a few characters. */
const PREFIX_MAX = 64;

/** The queue of one plugin's side-effect jobs; throws HG_ERR_QUEUE_OPTION_INVALID for a bad name. */
export function reconcileQueueName(plugin: string): string {
  if (plugin.length === 0 || plugin.length > PLUGIN_NAME_MAX || !PLUGIN_NAME.test(plugin)) {
    throw new HG_ERR_QUEUE_OPTION_INVALID(
      'plugin name',
      JSON.stringify(plugin),
      `must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-', '.'; at most ${PLUGIN_NAME_MAX} characters)`,
    );
  }
  return QUEUE_NAME_PREFIX + plugin;
}

/** The plugin a reconcile queue belongs to, or undefined for another queue (for listings). */
export function pluginOfQueueName(queueName: string): string | undefined {
  if (!queueName.startsWith(QUEUE_NAME_PREFIX)) return undefined;
  const plugin = queueName.slice(QUEUE_NAME_PREFIX.length);
  return PLUGIN_NAME.test(plugin) && plugin.length <= PLUGIN_NAME_MAX ? plugin : undefined;
}

/** Returns the prefix when usable; throws HG_ERR_QUEUE_OPTION_INVALID otherwise. */
export function validateQueuePrefix(prefix: string): string {
  if (prefix.length === 0 || prefix.length > PREFIX_MAX || !PREFIX.test(prefix)) {
    throw new HG_ERR_QUEUE_OPTION_INVALID(
      'queue prefix',
      JSON.stringify(prefix),
      `use letters, digits, '-', '_', '.' and at most one {hash tag}, no ':', at most ${PREFIX_MAX} characters (default ${DEFAULT_QUEUE_PREFIX})`,
    );
  }
  return prefix;
}

/** The Redis hash holding one job (BullMQ's `QueueKeys.toKey(queue, jobId)`). */
export function jobKey(prefix: string, queueName: string, jobId: string): string {
  return `${prefix}:${queueName}:${jobId}`;
}
