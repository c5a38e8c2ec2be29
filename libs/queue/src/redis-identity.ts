/**
 * Which Redis process answers: `run_id` from `INFO server`, a random id Redis draws at every start.
 * A producer that sees it change knows Redis restarted; without persistence (`--save ''`,
 * `appendonly no`) the restart emptied it, so recently acknowledged jobs must be replayed from
 * the spool. Deterministic job ids make replaying jobs that did survive harmless.
 *
 * Which Redis answers depends on the topology:
 * - standalone: the one Redis.
 * - Sentinel: the current master. A failover promotes a replica, which has a run_id of its own: the
 *   gateway replays its recent jobs. Mostly duplicates (the replica had them), but replication is
 *   asynchronous, so the last writes before the failover may be missing: the replay restores them.
 * - Cluster: the master owning the slot of the queue prefix's hash tag (every queue key is there).
 *   INFO carries no key, so it is sent from a Lua script given a key under the prefix: ioredis
 *   routes it to that slot's owner and follows MOVED after a reshard or failover. A new owner
 *   (failover, slot migration) is a new identity: a replay, harmless as above.
 */
import type { Cluster } from 'ioredis';

/** The run_id in an `INFO server` answer, or undefined when the answer has none (not a Redis). */
export function parseRunId(info: string): string | undefined {
  const match = /^run_id:([0-9a-f]+)\r?$/m.exec(info);
  return match?.[1];
}

/** What the probe needs of a Redis client (ioredis' `info`). */
export interface InfoClient {
  info(section: 'server'): Promise<string>;
}

/** What the probe needs of a Cluster client: a script with a key, sent to that key's slot owner. */
export type SlotClient = Pick<Cluster, 'eval' | 'isCluster'>;

/** INFO from inside a script, so that its key routes it (INFO may be called from scripts). */
const INFO_SCRIPT = "return redis.call('INFO', 'server')";

/**
 * Reads run_id; rejects when Redis does not answer or answers without one. On Cluster, the run_id
 * of the master owning `prefix`'s slot.
 */
export async function readRedisRunId(client: InfoClient | SlotClient, prefix = '{hookgate}'): Promise<string> {
  const info =
    'isCluster' in client && client.isCluster
      ? String(await client.eval(INFO_SCRIPT, 1, `${prefix}:identity`))
      : await (client as InfoClient).info('server');
  const runId = parseRunId(info);
  if (runId === undefined) throw new Error('INFO server has no run_id: the server is not Redis, or hides INFO');
  return runId;
}
