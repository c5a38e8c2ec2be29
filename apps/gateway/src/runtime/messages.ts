/**
 * IPC between the cluster primary and its workers. The primary is the one place that reads and
 * validates the configuration; workers receive it whole and only compile it, so every worker runs
 * the same generation. (prom-client's metrics aggregation uses the same channel with its own types.)
 */
import type { LoadedConfiguration } from '@hookgate/config';

export type PrimaryMessage =
  | { readonly type: 'hookgate:configuration'; readonly generation: number; readonly configuration: LoadedConfiguration }
  | { readonly type: 'hookgate:shutdown' };

export type WorkerMessage =
  /** Sent once the worker listens for IPC: the primary answers with the current configuration. */
  | { readonly type: 'hookgate:hello' }
  | { readonly type: 'hookgate:listening'; readonly port: number }
  | { readonly type: 'hookgate:applied'; readonly generation: number }
  | { readonly type: 'hookgate:apply-failed'; readonly generation: number; readonly error: string };

function isHookgateMessage(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && (value as { type: string }).type.startsWith('hookgate:');
}

export const isPrimaryMessage = (value: unknown): value is PrimaryMessage => isHookgateMessage(value);
export const isWorkerMessage = (value: unknown): value is WorkerMessage => isHookgateMessage(value);
