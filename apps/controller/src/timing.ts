/** Timers the controller shares: an unref'd sleep, and a bound on a Redis read. */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The promise, or a rejection after `ms` (the promise itself runs on). */
export function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error('Redis did not answer in time')))]);
}
