/**
 * Runs `hookgate` as its own process, as a user does (`node apps/cli/bin/hookgate.mjs ...`), with
 * stdin, environment and a time limit; the process is killed by pid if it overruns.
 */
import { spawn } from 'node:child_process';
import { CLI_BIN } from '@hookgate/devtools';

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly stdin?: string;
  /** Replaces the colour-related variables of this process's environment (NO_COLOR, FORCE_COLOR, ...). */
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  readonly timeoutMs?: number;
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const { NO_COLOR: _n, FORCE_COLOR: _f, HOOKGATE_CONFIG: _c, ...inherited } = process.env;
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...inherited, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(options.stdin ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
