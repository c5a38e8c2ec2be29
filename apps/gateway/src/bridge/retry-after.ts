/**
 * client-go's retry rule for webhook calls (§10): a 429 or ≥500 answer that carries an integer
 * `Retry-After` (seconds) is retried after that delay, up to 10 attempts, within the deadline.
 */
export function retryDelayMs(
  status: number,
  retryAfter: string | string[] | undefined,
  attempt: number,
  maxAttempts: number,
): number | undefined {
  if (attempt >= maxAttempts) return undefined;
  if (status !== 429 && status < 500) return undefined;
  const value = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim()) * 1000;
}
