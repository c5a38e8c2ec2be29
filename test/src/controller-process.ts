/**
 * The controller (apps/controller) as its own process, from the sources the way tools/dev runs it
 * (`node --conditions=development --import tsx apps/controller/src/main.ts --config <file>`): its
 * configuration written to a temp file, its JSON log lines collected, its health listener on an
 * ephemeral port read from the start line, stopped by pid (SIGTERM, then SIGKILL).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { REPO_ROOT, type LogLine } from '@hookgate/devtools';

export interface ControllerProcess {
  readonly pid: number;
  /** `http://127.0.0.1:<port>` of /metrics, /livez and /readyz. */
  readonly healthUrl: string;
  /** The read-only queue dashboard, when the configuration turns it on. */
  readonly dashboardUrl: string | undefined;
  readonly logs: LogLine[];
  /** Resolves with the exit code (null after a signal) once the process has ended. */
  readonly exited: Promise<number | null>;
  exitCode(): number | null;
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  signal(name: NodeJS.Signals): void;
  stop(): Promise<void>;
}

const CONTROLLER_MAIN = join(REPO_ROOT, 'apps/controller/src/main.ts');

/** `config` is the controller's YAML configuration as an object (health and dashboard default to ephemeral ports). */
export async function startController(
  config: Record<string, unknown>,
  startTimeoutMs = 30_000,
): Promise<ControllerProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-controller-e2e-'));
  const file = join(dir, 'controller.yaml');
  await writeFile(
    file,
    stringify({
      health: { host: '127.0.0.1', port: 0 },
      dashboard: { host: '127.0.0.1', port: 0 },
      logLevel: 'debug',
      ...config,
    }),
  );
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', CONTROLLER_MAIN, '--config', file],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, REDIS_URL: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logs: LogLine[] = [];
  let stderr = '';
  const waiters = new Set<{ predicate: (l: LogLine) => boolean; resolve: (l: LogLine) => void }>();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const line = parseLine(text);
      logs.push(line);
      for (const w of [...waiters]) {
        if (w.predicate(line)) {
          waiters.delete(w);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;

  const waitForLog = (predicate: (l: LogLine) => boolean, timeoutMs = 15_000): Promise<LogLine> => {
    const seen = logs.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(
          new Error(
            `controller log line not seen within ${timeoutMs} ms; stderr:\n${stderr}\nlast logs:\n${tail(logs)}`,
          ),
        );
      }, timeoutMs);
      const waiter = {
        predicate,
        resolve: (l: LogLine) => {
          clearTimeout(timer);
          resolve(l);
        },
      };
      waiters.add(waiter);
    });
  };
  const stop = async () => {
    if (alive() && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      const ended = await Promise.race([exited.then(() => true), sleep(8_000).then(() => false)]);
      if (!ended && alive()) process.kill(child.pid, 'SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const started = await Promise.race([
      waitForLog((l) => (l.msg ?? '').startsWith('controller started: reconciling side effects'), startTimeoutMs),
      exited.then((code) => {
        throw new Error(`controller exited with ${code} before it started; stderr:\n${stderr}`);
      }),
    ]);
    return {
      pid: child.pid!,
      healthUrl: String(started['health']),
      dashboardUrl: typeof started['dashboard'] === 'string' ? started['dashboard'] : undefined,
      logs,
      exited,
      exitCode: () => child.exitCode,
      waitForLog,
      signal: (name) => alive() && child.pid !== undefined && void process.kill(child.pid, name),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function parseLine(text: string): LogLine {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as LogLine) : { msg: text };
  } catch {
    return { msg: text };
  }
}

function tail(logs: LogLine[]): string {
  return logs
    .slice(-15)
    .map((l) => JSON.stringify(l))
    .join('\n');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
