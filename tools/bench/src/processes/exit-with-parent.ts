/**
 * Our child processes exit when the harness goes away: its end of their stdin closes when it
 * exits, even when it is killed, so no plugin, webhook or load generator is left behind.
 */
export function exitWithParent(shutdown: () => Promise<void> | void): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void Promise.resolve()
      .then(shutdown)
      .finally(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, stop);
}

/** The one line a child prints on stdout when it serves: `{"ready":true,...}`. */
export function announceReady(details: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ ready: true, ...details })}\n`);
}

export interface ReadyLine {
  readonly ready: true;
  readonly port?: number;
  readonly pid?: number;
}

export function isReadyLine(line: unknown): line is ReadyLine {
  return typeof line === 'object' && line !== null && (line as { ready?: unknown }).ready === true;
}
