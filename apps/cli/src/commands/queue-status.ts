/**
 * `hookgate queue status`: jobs per plugin queue and state, the resync schedule, and the gateway's
 * spool when its metrics are given (the spool is the gateway's own: not in Redis).
 */
import { RESYNC_SCHEDULER_ID } from '@hookgate/queue';
import { checkOutputFlag, openQueuesOrReport, type QueueConnectionFlags } from './queue-connection.js';

export interface QueueStatusFlags extends QueueConnectionFlags {
  readonly output: string;
  readonly gatewayMetrics?: string;
}

/** The states `queue status` counts, in the order it prints them. */
export const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'] as const;

export interface PluginQueueStatus {
  readonly plugin: string;
  readonly queue: string;
  readonly counts: Record<(typeof QUEUE_STATES)[number], number>;
  /** Paused queues keep their jobs waiting (a BullMQ queue flag, not a state). */
  readonly paused: boolean;
  /** The next periodic resync (ISO time), when one is scheduled. */
  readonly nextResync: string | undefined;
}

export interface SpoolStatus {
  readonly pendingRecords: number | undefined;
  readonly pendingBytes: number | undefined;
  readonly oldestPendingAgeSeconds: number | undefined;
}

export interface QueueStatus {
  readonly redis: string;
  readonly prefix: string;
  readonly queues: readonly PluginQueueStatus[];
  /** Null when not shown; `spoolNote` says why. */
  readonly spool: SpoolStatus | null;
  readonly spoolNote: string;
}

const SPOOL_METRICS = {
  pendingRecords: 'hookgate_side_effect_spool_pending_records',
  pendingBytes: 'hookgate_side_effect_spool_pending_bytes',
  oldestPendingAgeSeconds: 'hookgate_side_effect_spool_oldest_pending_age_seconds',
} as const;

export async function queueStatusCommand(
  flags: QueueStatusFlags,
  env: Readonly<Record<string, string | undefined>>,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  if (!checkOutputFlag('status', flags.output, err)) return 2;
  const connection = await openQueuesOrReport('status', flags, env, err);
  if (connection === undefined) return 1;
  try {
    const queues: PluginQueueStatus[] = [];
    for (const [plugin, queue] of connection.queues) {
      const counts = await queue.getJobCounts(...QUEUE_STATES);
      const scheduler = await queue.getJobScheduler(RESYNC_SCHEDULER_ID);
      queues.push({
        plugin,
        queue: queue.name,
        counts: Object.fromEntries(QUEUE_STATES.map((s) => [s, counts[s] ?? 0])) as PluginQueueStatus['counts'],
        paused: await queue.isPaused(),
        nextResync: scheduler?.next === undefined ? undefined : new Date(scheduler.next).toISOString(),
      });
    }
    const { spool, note } = await readSpool(flags.gatewayMetrics);
    const status: QueueStatus = {
      redis: connection.where,
      prefix: connection.prefix,
      queues,
      spool,
      spoolNote: note,
    };
    out.write(flags.output === 'json' ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status));
    return 0;
  } catch (error) {
    err.write(`hookgate queue status: reading the queues on ${connection.where} failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await connection.close();
  }
}

/** The spool's depth from the gateway's /metrics, or why it is not shown. */
async function readSpool(url: string | undefined): Promise<{ spool: SpoolStatus | null; note: string }> {
  if (url === undefined) {
    return {
      spool: null,
      note: "not shown: the spool is the gateway's; pass --gateway-metrics http://HOST:PORT/metrics",
    };
  }
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return { spool: null, note: `not shown: ${url} answered HTTP ${response.status}` };
    text = await response.text();
  } catch (error) {
    return { spool: null, note: `not shown: ${url}: ${(error as Error).message}` };
  }
  const spool: SpoolStatus = {
    pendingRecords: sumOf(text, SPOOL_METRICS.pendingRecords),
    pendingBytes: sumOf(text, SPOOL_METRICS.pendingBytes),
    oldestPendingAgeSeconds: sumOf(text, SPOOL_METRICS.oldestPendingAgeSeconds, Math.max),
  };
  if (spool.pendingRecords === undefined) {
    return {
      spool: null,
      note: `not shown: ${url} has no ${SPOOL_METRICS.pendingRecords} (a gateway without a spool?)`,
    };
  }
  return { spool, note: `from ${url}` };
}

/** The samples of one metric in Prometheus text, combined (summed by default); undefined when absent. */
export function sumOf(text: string, name: string, combine: (a: number, b: number) => number = (a, b) => a + b) {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{[^}]*\})? (\S+)/.exec(line);
    if (match?.[1] !== name) continue;
    const value = Number(match[2]);
    if (Number.isFinite(value)) total = total === undefined ? value : combine(total, value);
  }
  return total;
}

function formatStatus(status: QueueStatus): string {
  const header = ['PLUGIN', ...QUEUE_STATES.map((s) => s.toUpperCase()), 'NEXT RESYNC'];
  const rows = status.queues.map((q) => [
    q.paused ? `${q.plugin} (paused)` : q.plugin,
    ...QUEUE_STATES.map((s) => String(q.counts[s])),
    q.nextResync ?? '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()}\n`;
  let text = `Redis ${status.redis}, prefix ${status.prefix}\n`;
  if (rows.length === 0) text += 'no plugin queues found under this prefix\n';
  else text += line(header) + rows.map(line).join('');
  const failed = status.queues.reduce((n, q) => n + q.counts.failed, 0);
  if (failed > 0)
    text += `${failed} failed job(s): inspect them on the controller's dashboard, then \`hookgate queue retry\`\n`;
  const s = status.spool;
  text +=
    s === null
      ? `spool: ${status.spoolNote}\n`
      : `spool: ${s.pendingRecords} pending record(s), ${s.pendingBytes ?? '?'} bytes, oldest ${s.oldestPendingAgeSeconds ?? '?'} s (${status.spoolNote})\n`;
  return text;
}
