/**
 * One life of a plugin process, as an operator sees it: write the configuration to a temp dir,
 * start `main --config <file> --listen unix://<sock>`, and if it serves, send SIGTERM. The result
 * is what was observed; the process (by pid) and the temp dir are always cleaned up.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startPluginProcess, type PluginProcess } from './plugin-process.js';

const EXIT_TIMEOUT_MS = 15_000;

export interface PluginMainOptions {
  /** The plugin's folder, holding `src/main.ts` (or `entry`). */
  pluginDir: string;
  /** The YAML configuration text. */
  config: string;
  env?: Record<string, string>;
  entry?: string;
}

export interface PluginMainRun {
  /** The health status it answered (`SERVING`), or undefined when it exited without serving. */
  health: string | undefined;
  /** After SIGTERM when it served; on its own otherwise. Null when a signal ended it. */
  exitCode: number | null;
  stderr: string;
}

export async function runPluginMain({ pluginDir, config, env, entry }: PluginMainOptions): Promise<PluginMainRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-plugin-main-'));
  let plugin: PluginProcess | undefined;
  try {
    const file = path.join(dir, 'config.yaml');
    await writeFile(file, config);
    const target = `unix://${path.join(dir, 'plugin.sock')}`;
    const started = startPluginProcess({
      cwd: pluginDir,
      args: ['--config', file, '--listen', target],
      ...(env ? { env } : {}),
      ...(entry ? { entry } : {}),
    });
    plugin = started;
    // Exiting before serving is an outcome to report (a startup error), not a failure of the run.
    const health = await started.serving(target).catch((error: unknown) => {
      if (started.child.exitCode !== null || started.child.signalCode !== null) return undefined;
      throw error;
    });
    if (health !== undefined && started.child.pid !== undefined) process.kill(started.child.pid, 'SIGTERM');
    const exitCode = await withTimeout(
      started.exited(),
      EXIT_TIMEOUT_MS,
      () => `plugin did not exit within ${EXIT_TIMEOUT_MS} ms: ${started.stderr()}`,
    );
    return { health, exitCode, stderr: started.stderr() };
  } finally {
    plugin?.kill();
    await rm(dir, { recursive: true, force: true });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
