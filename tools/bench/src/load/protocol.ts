/** Messages between the harness and the load generator process (node IPC). */

/** Where the emulated apiserver sends each review. URLs are absolute (http://127.0.0.1:port/path). */
export type TargetSpec =
  /** The gateway's two registrations: POST /mutate, apply the combined patch, POST /validate. */
  | { readonly kind: 'gateway'; readonly origin: string; readonly ca?: string }
  /** Plain webhooks: mutating ones in order (each patch applied before the next), validating ones concurrently. */
  | {
      readonly kind: 'webhooks';
      readonly mutating: readonly string[];
      readonly validating: readonly string[];
      readonly ca?: string;
    };
/** `ca`: the PEM CA that https origins are verified against (the bridge scenario). */

export type LoadSpec =
  /** Closed loop: `concurrency` reviews in flight, each started when the previous one finished. */
  | { readonly kind: 'closed'; readonly concurrency: number; readonly durationMs: number; readonly maxReviews: number }
  /** Open loop: reviews started at a fixed rate whatever the answers (latency is not hidden by waiting). */
  | { readonly kind: 'paced'; readonly rate: number; readonly durationMs: number; readonly maxReviews: number };

export interface RunCommand {
  readonly type: 'run';
  readonly id: number;
  readonly target: TargetSpec;
  readonly load: LoadSpec;
  /** CPU time of these processes is sampled around the measurement, by group. */
  readonly cpuPids: Readonly<Record<string, readonly number[]>>;
}

export interface DropCommand {
  readonly type: 'drop';
  readonly target: TargetSpec;
}

export type LoadgenCommand = RunCommand | DropCommand;

export interface LoadResult {
  readonly completed: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  readonly elapsedMs: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** CPU milliseconds spent during the measurement, per group of `cpuPids`, plus `driver` (the load generator). */
  readonly cpuMs: Readonly<Record<string, number>>;
}

export type LoadgenReply =
  | { readonly type: 'result'; readonly id: number; readonly result: LoadResult }
  | { readonly type: 'failed'; readonly id: number; readonly error: string };

export function targetKey(target: TargetSpec): string {
  return JSON.stringify(target);
}
