/**
 * Test plugins as separate processes (test/fixtures/plugins), started with tsx, ready once they
 * print `listening <target>`, and stopped by pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './gateway-process.js';

export interface PluginProcess {
  readonly target: string;
  readonly pid: number;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

export async function startPlugin(fixture: string, args: readonly string[]): Promise<PluginProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test/fixtures/plugins', fixture), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const target = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`plugin ${fixture} did not start within 20 s: ${stderr.join('')}`)), 20_000);
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const match = /listening (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`plugin ${fixture} exited with ${code} before listening: ${stderr.join('')}`));
    });
  });
  return {
    target,
    pid: child.pid!,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(child.pid!, 'SIGTERM');
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
      if (!done && child.exitCode === null) process.kill(child.pid!, 'SIGKILL');
    },
  };
}
