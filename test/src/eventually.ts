/**
 * Polls until a check passes, for what another process does in its own time (a registration
 * reaching the workers, a lease running out). Bounded; on timeout the last failure is reported.
 */
export async function eventually<T>(
  check: () => Promise<T>,
  what: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let lastError: unknown;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}; last attempt: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}
