/**
 * Runs a plugin's entry file as a real process (node --import tsx, or built JavaScript), as an operator would: ready
 * when it answers grpc.health.v1 on its socket (serving) or prints a line (waitForOutput). Cleanup
 * is by pid, never by name. The one plugin-process helper: the repository's e2e tests build on it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import { newHealthClient } from '@hookgate/proto';

const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;

export interface PluginProcessOptions {
  /** The plugin's folder; the process runs there. */
  cwd: string;
  args: string[];
  /** Added to this process's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Relative to cwd (or absolute). */
  entry?: string;
  /** Node flags before the entry; default `--import tsx` (a TypeScript entry), `[]` for built JavaScript. */
  execArgv?: string[];
}

export interface PluginProcess {
  readonly child: ChildProcess;
  stderr(): string;
  /** Everything the process wrote to stdout so far (its log lines). */
  stdout(): string;
  /** Resolves with the exit code once the process has exited. */
  exited(): Promise<number | null>;
  /** Waits until the plugin answers a health check at `target`; throws if it exits first. */
  serving(target: string): Promise<string>;
  /** Resolves with the first match of `pattern` in stdout (seen or future); throws if it exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Kills the process by pid if it is still running (test cleanup); SIGKILL unless told otherwise. */
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

export function startPluginProcess({
  cwd,
  args,
  env = {},
  entry = 'src/main.ts',
  execArgv = ['--import', 'tsx'],
}: PluginProcessOptions): PluginProcess {
  const child = spawn(process.execPath, [...execArgv, entry, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const wakeOnOutput = new Set<() => void>();
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const wake of [...wakeOnOutput]) wake();
  });
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  // 'close' comes after the last output has been read, unlike 'exit'.
  const closed = once(child, 'close').then(
    ([code]) => code as number | null,
    () => null,
  );
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const describeOutput = (): string => `stdout:\n${stdout.slice(-2000)}\nstderr:\n${stderr}`;

  const waitForOutput = (pattern: RegExp, timeoutMs = START_TIMEOUT_MS): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        wakeOnOutput.delete(check);
        settle();
      };
      const check = (): void => {
        const match = pattern.exec(stdout);
        if (match !== null) finish(() => resolve(match));
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`${entry} did not print ${pattern} within ${timeoutMs} ms; ${describeOutput()}`)),
          ),
        timeoutMs,
      );
      wakeOnOutput.add(check);
      check();
      void closed.then((code) => {
        check(); // a last look at what the process printed just before it ended
        if (wakeOnOutput.has(check))
          finish(() =>
            reject(new Error(`${entry} exited with ${code} before printing ${pattern}; ${describeOutput()}`)),
          );
      });
    });

  return {
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    exited: () => exit,
    async serving(target) {
      // A fresh client per attempt: a channel that failed once backs off for a second or more.
      const end = Date.now() + START_TIMEOUT_MS;
      for (;;) {
        if (!running()) throw new Error(`plugin exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
        const status = await checkHealth(target).catch(() => undefined);
        if (status !== undefined) return status;
        if (Date.now() > end)
          throw new Error(`plugin did not serve on ${target} within ${START_TIMEOUT_MS} ms: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    waitForOutput,
    kill(signal = 'SIGKILL') {
      if (running() && child.pid !== undefined) process.kill(child.pid, signal);
    },
    async stop() {
      if (!running() || child.pid === undefined) return;
      process.kill(child.pid, 'SIGTERM');
      const ended = await Promise.race([
        exit.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref()),
      ]);
      if (!ended && running()) {
        process.kill(child.pid, 'SIGKILL');
        await exit;
      }
    },
  };
}

function checkHealth(target: string): Promise<string> {
  const health = newHealthClient(target, grpc.credentials.createInsecure());
  return new Promise<string>((resolve, reject) => {
    health.Check({ service: '' }, { deadline: Date.now() + 1_000 }, (error, response) => {
      health.close();
      if (error || !response) reject(error ?? new Error('no health answer'));
      else resolve(String(response.status));
    });
  });
}
