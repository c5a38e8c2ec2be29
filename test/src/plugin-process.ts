/**
 * Plugins as separate processes, started with tsx and stopped by pid: the test fixtures
 * (test/fixtures/plugins, ready once they print `listening <target>`) and the built-in plugins
 * (apps/plugins/<name>/src/main.ts, ready at their `plugin serving` log line).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './gateway-process.js';

export interface PluginProcess {
  readonly target: string;
  readonly pid: number;
  /** Resolves with the exit code (null after a signal) once the process ended. */
  readonly exited: Promise<number | null>;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Resolves with the first match of `pattern` in stdout (seen or future). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends a signal by pid (SIGKILL: a crash the plugin cannot clean up after). */
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

export interface SpawnPluginOptions {
  readonly script: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Ready once stdout matches; group 1, when present, is the target the gateway calls. */
  readonly ready: RegExp;
  /** The target, when `ready` does not capture one (known up front for a unix socket). */
  readonly target?: string;
  readonly startTimeoutMs?: number;
}

/** A test fixture plugin: `test/fixtures/plugins/<fixture>` with `args`. */
export function startPlugin(
  fixture: string,
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
): Promise<PluginProcess> {
  return spawnPlugin({
    script: join(REPO_ROOT, 'test/fixtures/plugins', fixture),
    args,
    ready: /listening (\S+)/,
    ...(env ? { env } : {}),
  });
}

/** A built-in plugin as an operator runs it: `apps/plugins/<name>/src/main.ts --config <config> --listen <listen>`. */
export function startBuiltinPlugin(
  name: string,
  options: { config: string; listen: string; env?: Readonly<Record<string, string>> },
): Promise<PluginProcess> {
  return spawnPlugin({
    script: join(REPO_ROOT, 'apps/plugins', name, 'src/main.ts'),
    args: ['--config', options.config, '--listen', options.listen],
    ready: /"msg":"plugin serving"/,
    target: options.listen,
    ...(options.env ? { env: options.env } : {}),
  });
}

export async function spawnPlugin(options: SpawnPluginOptions): Promise<PluginProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', options.script, ...options.args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const name = options.script.slice(REPO_ROOT.length + 1);
  let out = '';
  const stderr: string[] = [];
  const waiters = new Set<() => void>();
  child.stderr?.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const wake of [...waiters]) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const waitForOutput = (pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const match = pattern.exec(out);
        if (match === null) return false;
        done();
        resolve(match);
        return true;
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `${name} did not print ${pattern} within ${timeoutMs} ms; stdout:\n${out.slice(-2000)}\nstderr:\n${stderr.join('')}`,
          ),
        );
      }, timeoutMs);
      const onExit = (code: number | null) => {
        done();
        reject(
          new Error(
            `${name} exited with ${code} before printing ${pattern}; stdout:\n${out.slice(-2000)}\nstderr:\n${stderr.join('')}`,
          ),
        );
      };
      const done = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        child.off('exit', onExit);
      };
      const wake = () => void check();
      if (check()) return;
      waiters.add(wake);
      if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode);
      else child.once('exit', onExit);
    });

  const ready = await waitForOutput(options.ready, options.startTimeoutMs ?? 30_000).catch((error: unknown) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw error;
  });
  const target = options.target ?? ready[1];
  if (target === undefined) throw new Error(`${name}: no target (give one, or capture it in the ready pattern)`);
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    target,
    pid: child.pid!,
    exited,
    stdout: () => out,
    waitForOutput,
    kill(signal) {
      if (alive()) process.kill(child.pid!, signal);
    },
    async stop() {
      if (!alive()) return;
      process.kill(child.pid!, 'SIGTERM');
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
      if (!done && alive()) {
        process.kill(child.pid!, 'SIGKILL');
        await exited;
      }
    },
  };
}
