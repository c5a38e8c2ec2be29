/**
 * Plugins as separate processes, through the SDK's startPluginProcess (tsx, stopped by pid): the
 * test fixtures (test/fixtures/plugins, ready once they print `listening <target>`) and the
 * built-in plugins (apps/plugins/<name>/src/main.ts, ready at their `plugin serving` log line).
 */
import { join } from 'node:path';
import { startPluginProcess, type PluginProcess as SdkPluginProcess } from '@hookgate/plugin-sdk/testing';
import { REPO_ROOT } from '@hookgate/devtools';

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
  const plugin: SdkPluginProcess = startPluginProcess({
    cwd: REPO_ROOT,
    entry: options.script,
    args: [...options.args],
    ...(options.env ? { env: { ...options.env } } : {}),
  });
  const ready = await plugin.waitForOutput(options.ready, options.startTimeoutMs ?? 30_000).catch((error: unknown) => {
    plugin.kill();
    throw error;
  });
  const target = options.target ?? ready[1];
  if (target === undefined) {
    await plugin.stop();
    throw new Error(`${options.script}: no target (give one, or capture it in the ready pattern)`);
  }
  return {
    target,
    pid: plugin.child.pid!,
    exited: plugin.exited(),
    stdout: plugin.stdout,
    waitForOutput: plugin.waitForOutput,
    kill: (signal) => plugin.kill(signal),
    stop: plugin.stop,
  };
}
