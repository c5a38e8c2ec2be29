/**
 * The controller (apps/controller) as its own process, from the sources the way tools/dev runs it
 * (`node --conditions=development --import tsx apps/controller/src/main.ts --config <file>`): its
 * configuration written to a temp file, its JSON log lines collected (collectProcessLog), its health listener on an
 * ephemeral port read from the start line, stopped by pid (SIGTERM, then SIGKILL).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { REPO_ROOT, collectProcessLog, type LogLine } from '@hookgate/devtools';

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
  const output = collectProcessLog(child, 'controller');
  const { lines: logs, waitForLog } = output;
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;

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
        throw new Error(`controller exited with ${code} before it started; ${output.describe()}`);
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
