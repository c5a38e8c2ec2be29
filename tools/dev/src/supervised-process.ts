/**
 * A child process of the local stack that is started again when it exits: a plugin that crashes
 * is logged and restarted after a growing delay (so a plugin that cannot start does not spin), and
 * the rest of the stack keeps running. Stopping is by pid: SIGTERM, then SIGKILL after a grace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '@hookgate/observability';

/** First restart delay; doubled on each exit that follows a short run. */
export const RESTART_INITIAL_DELAY_MS = 500;
/** The longest wait between two starts: a plugin fixed on disk is back within this. */
export const RESTART_MAX_DELAY_MS = 30_000;
/** A run this long counts as healthy: the next exit restarts after the initial delay again. */
export const RESTART_RESET_AFTER_MS = 60_000;
const STOP_GRACE_MS = 10_000;

/** The delay before restart number `attempt` (0-based): 0.5 s, 1 s, 2 s, … capped at 30 s. */
export function restartDelayMs(attempt: number): number {
  return Math.min(RESTART_MAX_DELAY_MS, RESTART_INITIAL_DELAY_MS * 2 ** Math.min(attempt, 16));
}

export interface SupervisedProcessOptions {
  /** In the log lines: `plugin pod-defaults`, `gateway`. */
  readonly name: string;
  /** Arguments of `node` (the entry file first). */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: Logger;
  /** Start it again when it exits (plugins); otherwise `onExit` decides (the gateway). */
  readonly restart: boolean;
  /** Called when a process that is not restarted exits while the stack runs. */
  readonly onExit?: (exit: number | string | null) => void;
}

export interface SupervisedProcess {
  readonly name: string;
  /** The running process's pid; undefined between a crash and its restart. */
  pid(): number | undefined;
  /** Stops it for good (no restart): SIGTERM, SIGKILL after 10 s. */
  stop(): Promise<void>;
}

export function superviseProcess(options: SupervisedProcessOptions): SupervisedProcess {
  const { name, log } = options;
  let child: ChildProcess | undefined;
  let stopped = false;
  let attempt = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  const launch = (): void => {
    const started = Date.now();
    const current = spawn(process.execPath, [...options.args], {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child = current;
    log.info({ process: name, pid: current.pid, restarts: attempt }, 'stack process started');
    current.once('error', (error) => log.error({ process: name, error: error.message }, 'could not start'));
    current.once('exit', (code, signal) => {
      if (child === current) child = undefined;
      if (stopped) return;
      const exit = signal ?? code;
      if (!options.restart) {
        options.onExit?.(exit);
        return;
      }
      if (Date.now() - started >= RESTART_RESET_AFTER_MS) attempt = 0;
      const delayMs = restartDelayMs(attempt);
      attempt += 1;
      log.warn(
        { process: name, pid: current.pid, exit, restartInMs: delayMs, restarts: attempt },
        'stack process exited; restarting it (the rest of the stack keeps running)',
      );
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (!stopped) launch();
      }, delayMs);
    });
  };
  launch();

  return {
    name,
    pid: () => child?.pid,
    async stop() {
      stopped = true;
      if (restartTimer) clearTimeout(restartTimer);
      const current = child;
      if (!current?.pid || current.exitCode !== null || current.signalCode !== null) return;
      await new Promise<void>((done) => {
        const force = setTimeout(() => current.kill('SIGKILL'), STOP_GRACE_MS);
        current.once('exit', () => {
          clearTimeout(force);
          done();
        });
        current.kill('SIGTERM');
      });
    },
  };
}
