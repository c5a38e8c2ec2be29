/** The time budget of a review's Redis hand-over, shared by the primary's and the workers' recorders. */

/** Time kept back from a review's wait for the spool, when Redis does not answer. */
export const SPOOL_RESERVE_MS = 100;

/** How long Redis may take for a review's jobs: the add timeout, within the review's time left less the spool's reserve. */
export function redisWaitMs(addTimeoutMs: number, waitMs: number): number {
  return Math.max(1, Math.min(addTimeoutMs, waitMs - SPOOL_RESERVE_MS));
}

/**
 * A hand-over that timed out says Redis is down or stuck only when Redis had its whole
 * addTimeoutMs; with less, the review's own time ran out first.
 */
export function redisHadItsTime(budgetMs: number, addTimeoutMs: number): boolean {
  return budgetMs >= addTimeoutMs;
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The promise, or a rejection after `ms`; a late rejection of the promise is then ignored (the job is spooled). */
export async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  promise.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not acknowledge within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
