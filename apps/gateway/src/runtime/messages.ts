/**
 * IPC between the cluster primary and its workers. The primary is the one place that reads and
 * validates the configuration and runs the Registry; workers receive both whole and only compile
 * them, so every worker serves the same configuration and registry generations. (prom-client's
 * metrics aggregation uses the same channel with its own types.)
 */
import type { LoadedConfiguration } from '@hookgate/config';
import type { PreparedJob } from '@hookgate/queue/jobs';
import type { AddOutcome } from '@hookgate/queue';
import type { GatewayRedisSettings } from '../queue/gateway-producer.js';
import type { RecordOutcome, WorkerFallback } from '../queue/record-outcome.js';
import type { BreakGlassState } from '../break-glass/index.js';
import type { RegistrySnapshot } from '../registry/index.js';

export type PrimaryMessage =
  /** A configuration, with the registry snapshot it was checked against: a worker merges the two. */
  | {
      readonly type: 'hookgate:configuration';
      readonly generation: number;
      readonly configuration: LoadedConfiguration;
      readonly registry: RegistrySnapshot;
      /** Set while the break-glass switch is on: every hook fails open. */
      readonly breakGlass?: BreakGlassState;
      /**
       * The Redis the primary opened its side-effect queue on at start (absent: none). Workers add
       * their jobs there, not to a `redis` a later reload named (it applies at the next restart).
       */
      readonly sideEffectRedis?: GatewayRedisSettings;
    }
  /** The break-glass switch changed (state absent: off). */
  | { readonly type: 'hookgate:break-glass'; readonly breakGlass?: BreakGlassState }
  /** A registry change: a registration, renewal, expiry or deregistration (`registry.generation` moves unless it is a renewal). */
  | { readonly type: 'hookgate:registry'; readonly registry: RegistrySnapshot }
  | { readonly type: 'hookgate:shutdown' }
  /**
   * Answers to a worker's side-effect jobs (acknowledged by Redis, fsynced to the spool, or why
   * not): those settled in the same tick travel together, one message per worker.
   */
  | {
      readonly type: 'hookgate:side-effect-jobs-recorded';
      readonly answers: readonly { readonly id: number; readonly outcome: RecordOutcome }[];
    }
  /** Whether workers add their jobs to Redis themselves (false while the primary spools or drains). */
  | { readonly type: 'hookgate:side-effect-route'; readonly direct: boolean };

export type WorkerMessage =
  /** Sent once the worker listens for IPC: the primary answers with the current configuration. */
  | { readonly type: 'hookgate:hello' }
  | { readonly type: 'hookgate:listening'; readonly port: number }
  /** The admission listener could not bind: the primary reports it once and exits. */
  | { readonly type: 'hookgate:listen-failed'; readonly address: string; readonly code: string; readonly cause: string }
  | { readonly type: 'hookgate:applied'; readonly generation: number; readonly registryGeneration: number }
  | {
      readonly type: 'hookgate:apply-failed';
      readonly generation: number;
      readonly registryGeneration: number;
      readonly error: string;
    }
  /**
   * Side-effect jobs the worker did not hand to Redis itself, for the primary (Redis, else its
   * spool): one request per review (those of the same event-loop turn travel together); `waitMs`:
   * what the review can still wait; `fallback`: the worker tried Redis (spool them at once).
   */
  | {
      readonly type: 'hookgate:side-effect-jobs';
      readonly requests: readonly {
        readonly id: number;
        readonly jobs: readonly PreparedJob[];
        readonly waitMs: number;
        readonly fallback?: WorkerFallback;
      }[];
    }
  /** Jobs Redis acknowledged in the worker, in batches: for the primary's counters and replay copy. */
  | {
      readonly type: 'hookgate:side-effect-jobs-acknowledged';
      readonly jobs: readonly PreparedJob[];
      readonly outcomes: readonly AddOutcome[];
    };

function isHookgateMessage(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    (value as { type: string }).type.startsWith('hookgate:')
  );
}

export const isPrimaryMessage = (value: unknown): value is PrimaryMessage => isHookgateMessage(value);
export const isWorkerMessage = (value: unknown): value is WorkerMessage => isHookgateMessage(value);
