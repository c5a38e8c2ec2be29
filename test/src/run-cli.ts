/** Runs the `hookgate` command as a user would and collects its output. */
import { execFile } from 'node:child_process';
import { CLI_BIN, REPO_ROOT } from '@hookgate/devtools';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node apps/cli/bin/hookgate.mjs ...args` (or `npx hookgate ...args` with viaNpx) from the repo root. */
export function runCli(
  args: readonly string[],
  options: { viaNpx?: boolean; cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<CliResult> {
  const [file, argv] = options.viaNpx
    ? ['npx', ['--no-install', 'hookgate', ...args]]
    : [process.execPath, [CLI_BIN, ...args]];
  // Plain output whatever the runner asks for (nx sets FORCE_COLOR), and no configuration from the environment.
  // `env` is added on top; an `undefined` value removes a variable.
  const { NO_COLOR: _n, FORCE_COLOR: _f, HOOKGATE_CONFIG: _c, ...inherited } = process.env;
  const env = Object.fromEntries(
    Object.entries({ ...inherited, ...options.env }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  return new Promise((resolve) => {
    execFile(
      file,
      argv,
      { cwd: options.cwd ?? REPO_ROOT, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
