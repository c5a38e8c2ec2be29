/**
 * processJob's `reconcile` from the controller's PluginClients: one Reconcile call with a deadline.
 * A plugin this controller does not know (not registered here yet, or removed) is unreachable, not
 * wrong: the job waits without using an attempt.
 */
import type { PluginClient } from '@hookgate/plugin-client';
import type { ReconcileRequest } from '@hookgate/proto';
import type { ReconcileAnswer } from './process-job.js';

export interface PluginReconcilerOptions {
  /** Deadline of one Reconcile call; keep it well inside the worker's lock duration. */
  readonly timeoutMs: number;
  /** Aborts calls in flight (the controller is stopping). */
  readonly signal?: AbortSignal;
}

/** grpc.status.UNAVAILABLE, without loading grpc-js for one number. */
const GRPC_UNAVAILABLE = 14;

/** The answer for a plugin this controller has no client for: unreachable (no attempt used), not wrong. */
export function unknownPluginOutcome(plugin: string) {
  return {
    ok: false,
    kind: 'rpc',
    code: GRPC_UNAVAILABLE,
    detail: `no plugin named ${plugin} is known to this controller`,
    transport: true,
  } as const;
}

export function pluginClientReconciler(
  clientOf: (plugin: string) => Pick<PluginClient, 'reconcile'> | undefined,
  options: PluginReconcilerOptions,
): (plugin: string, message: ReconcileRequest) => Promise<ReconcileAnswer> {
  return async (plugin, message) => {
    const client = clientOf(plugin);
    if (client === undefined) return unknownPluginOutcome(plugin);
    return client.reconcile(message, {
      deadline: Date.now() + options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };
}
