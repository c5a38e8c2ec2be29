/**
 * Which Redis process answers: `run_id` from `INFO server`, a random id Redis draws at every start.
 * A producer that sees it change knows Redis restarted; without persistence (`--save ''`,
 * `appendonly no`) the restart emptied it, so recently acknowledged jobs must be replayed from
 * the spool. Deterministic job ids make replaying jobs that did survive harmless.
 */

/** The run_id in an `INFO server` answer, or undefined when the answer has none (not a Redis). */
export function parseRunId(info: string): string | undefined {
  const match = /^run_id:([0-9a-f]+)\r?$/m.exec(info);
  return match?.[1];
}

/** What the probe needs of a Redis client (ioredis' `info`). */
export interface InfoClient {
  info(section: 'server'): Promise<string>;
}

/** Reads run_id; rejects when Redis does not answer or answers without one. */
export async function readRedisRunId(client: InfoClient): Promise<string> {
  const info = await client.info('server');
  const runId = parseRunId(info);
  if (runId === undefined) throw new Error('INFO server has no run_id: the server is not Redis, or hides INFO');
  return runId;
}
