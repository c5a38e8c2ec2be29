/**
 * Runs a plugin's entry file as a real process (node --import tsx), as an operator would, and
 * waits for it to answer grpc.health.v1 on its socket. Cleanup is by pid, never by name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import { newHealthClient } from '@hookgate/proto';

const START_TIMEOUT_MS = 20_000;

export interface PluginProcessOptions {
  /** The plugin's folder; the process runs there. */
  cwd: string;
  args: string[];
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Relative to cwd. */
  entry?: string;
}

export interface PluginProcess {
  readonly child: ChildProcess;
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  exited(): Promise<number | null>;
  /** Waits until the plugin answers a health check at `target`; throws if it exits first. */
  serving(target: string): Promise<string>;
  /** Kills the process by pid if it is still running (test cleanup). */
  kill(): void;
}

export function startPluginProcess({
  cwd,
  args,
  env = {},
  entry = 'src/main.ts',
}: PluginProcessOptions): PluginProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    child,
    stderr: () => stderr,
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
    kill() {
      if (running() && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
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
