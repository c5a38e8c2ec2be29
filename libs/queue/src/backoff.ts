/**
 * Retry delays for reconcile jobs: exponential from `baseMs`, capped at `capMs`, with "equal
 * jitter" (half fixed, half random) so retries of many jobs failing together spread out without
 * ever retrying sooner than half the step. BullMQ's built-in exponential backoff has no cap;
 * this one is given to the Worker as `settings.backoffStrategy`, and jobs name it in
 * `backoff: { type: BACKOFF_TYPE }`.
 *
 *   step(n)  = min(capMs, baseMs * 2^(n-1))      n = attempts made so far (1 after the first failure)
 *   delay(n) = step(n)/2 + random() * step(n)/2   in [step/2, step], whole milliseconds
 *
 * Defaults (1 s to 5 min) sit inside client-go's per-item limiter range (5 ms to 1000 s): a plugin
 * or apiserver that is down for minutes is retried every few minutes, not hammered.
 */
import { HG_ERR_QUEUE_OPTION_INVALID } from '@hookgate/errors';

export const BACKOFF_TYPE = 'hookgate-capped-exponential';
export const DEFAULT_BACKOFF = { baseMs: 1_000, capMs: 300_000 } as const;

export interface BackoffOptions {
  readonly baseMs: number;
  readonly capMs: number;
  /** A number in [0, 1); Math.random when absent (injected by tests). */
  readonly random?: () => number;
}

/** BullMQ's BackoffStrategy shape: (attemptsMade, type?, err?, job?) => ms. */
export type ReconcileBackoffStrategy = (attemptsMade: number) => number;

export function computeBackoffStep(attemptsMade: number, options: Pick<BackoffOptions, 'baseMs' | 'capMs'>): number {
  const exponent = Math.max(0, Math.floor(attemptsMade) - 1);
  // 2^exponent overflows to Infinity long after the cap is reached; min() keeps it finite.
  return Math.min(options.capMs, options.baseMs * 2 ** Math.min(exponent, 1023));
}

export function computeBackoffDelay(attemptsMade: number, options: BackoffOptions): number {
  const step = computeBackoffStep(attemptsMade, options);
  const random = Math.min(Math.max((options.random ?? Math.random)(), 0), 1);
  return Math.min(step, Math.floor(step / 2 + random * (step / 2)));
}

/** The strategy to pass as the Worker's `settings.backoffStrategy`; validates its bounds once. */
export function buildBackoffStrategy(options: BackoffOptions = DEFAULT_BACKOFF): ReconcileBackoffStrategy {
  if (!Number.isFinite(options.baseMs) || options.baseMs < 1) {
    throw new HG_ERR_QUEUE_OPTION_INVALID('backoff.baseMs', String(options.baseMs), 'must be a number of at least 1');
  }
  if (!Number.isFinite(options.capMs) || options.capMs < options.baseMs) {
    throw new HG_ERR_QUEUE_OPTION_INVALID(
      'backoff.capMs',
      String(options.capMs),
      'must be a number of at least backoff.baseMs',
    );
  }
  return (attemptsMade) => computeBackoffDelay(attemptsMade, options);
}
