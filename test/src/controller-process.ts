/**
 * The reconciliation controller as its own process, as an operator runs it
 * (`apps/controller/src/main.ts --config FILE`), stopped or killed by pid. Ready at its
 * `controller started` log line, which carries the health and dashboard URLs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { REPO_ROOT } from '@hookgate/devtools';

export interface ControllerProcess {
  readonly pid: number;
  /** `http://127.0.0.1:<port>`: /metrics, /livez, /readyz. */
  readonly healthUrl: string;
  readonly dashboardUrl: string | undefined;
  /** Every JSON log line so far. */
  logs(): Record<string, unknown>[];
  /** Resolves with the first log line `match` accepts (seen or future). */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  readonly exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, SIGKILL after 10 s; resolves once gone. */
  stop(): Promise<void>;
}

/** Writes `config` (a controller configuration document) into `dir` and starts the controller on it. */
export async function startController(dir: string, name: string, config: object): Promise<ControllerProcess> {
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, stringify(config));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'apps/controller/src/main.ts'), '--config', file],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, REDIS_URL: '' } },
  );
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<{
    match: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }>();
  let buffered = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const text of complete) {
      if (text.trim() === '') continue;
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        line = { msg: text };
      }
      lines.push(line);
      for (const waiter of waiters) {
        if (waiter.match(line)) {
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForLog = (match: (line: Record<string, unknown>) => boolean, timeoutMs = 30_000) => {
    const seen = lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const waiter = { match, resolve: (l: Record<string, unknown>) => (clearTimeout(timer), resolve(l)) };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`controller ${name}: no matching log line in ${timeoutMs} ms; stderr: ${stderr}`));
      }, timeoutMs);
      waiters.add(waiter);
      void exited.then(() => {
        if (!waiters.delete(waiter)) return;
        clearTimeout(timer);
        reject(new Error(`controller ${name} exited; stderr: ${stderr}`));
      });
    });
  };
  const kill = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  let started: Record<string, unknown>;
  try {
    started = await waitForLog((l) => typeof l['msg'] === 'string' && l['msg'].startsWith('controller started'));
  } catch (error) {
    kill('SIGKILL');
    throw error;
  }
  return {
    pid: child.pid!,
    healthUrl: String(started['health']),
    dashboardUrl: typeof started['dashboard'] === 'string' ? started['dashboard'] : undefined,
    logs: () => [...lines],
    waitForLog,
    exited,
    kill,
    async stop() {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
