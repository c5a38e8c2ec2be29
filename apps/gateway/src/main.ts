/**
 * `hookgate serve`: the primary validates the configuration and supervises; workers serve admission.
 * Workers are forked from the same command line, so this one entry point runs in both roles; each
 * role loads only its own modules (startup time counts: workers restart after a crash).
 */
import cluster from 'node:cluster';
import type { ServeOptions } from './runtime/serve-options.js';

export type { ServeOptions } from './runtime/serve-options.js';

/** Resolves with the exit code in the primary; never resolves in a worker (it exits on shutdown). */
export async function serve(options: ServeOptions): Promise<number> {
  if (cluster.isPrimary) {
    const { runPrimary } = await import('./runtime/primary.js');
    return runPrimary(options);
  }
  const { runWorker } = await import('./runtime/worker.js');
  await runWorker(options);
  return new Promise<number>(() => undefined);
}
