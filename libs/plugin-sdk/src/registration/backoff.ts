/** Capped exponential backoff with jitter, so that plugins restarted together do not retry in step. */
export interface BackoffSettings {
  /** First retry delay. Default 250 ms. */
  readonly initialMs?: number;
  /** Largest delay; also the pace of retries after a refusal. Default 10 s. */
  readonly maxMs?: number;
}

export function backoffDelay(failures: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const initial = settings.initialMs ?? 250;
  const max = settings.maxMs ?? 10_000;
  const base = Math.min(max, initial * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
