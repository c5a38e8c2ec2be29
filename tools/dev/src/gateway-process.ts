/**
 * Runs `hookgate serve` as its own process, the way an operator does (`node apps/cli/bin/hookgate.mjs`),
 * for the e2e tests and the benchmark: on ephemeral ports the gateway prints the addresses it bound
 * in its "hookgate serving" log line (ports given up front are used as they are); the harness waits
 * for /readyz and stops the process by pid (SIGTERM, then SIGKILL). The one gateway launcher.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectProcessLog, type LogLine } from './process-log.js';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
export const CLI_BIN = join(REPO_ROOT, 'apps/cli/bin/hookgate.mjs');

export interface GatewayProcess {
  readonly pid: number;
  /** `http(s)://127.0.0.1:<port>` of the admission listener. */
  readonly admissionUrl: string;
  /** `http://127.0.0.1:<port>` of the metrics/health listener. */
  readonly metricsUrl: string;
  readonly configPath: string;
  /** The directory of the configuration file (where `files` were written). */
  readonly configDir: string;
  readonly stateDir: string;
  /** The Registry's unix socket (`<stateDir>/registry.sock`: `--state-dir` moves the default socket with it). */
  readonly registrySocket: string;
  /** Every JSON log line seen so far (stdout), in order. */
  readonly logs: LogLine[];
  readonly stderr: string[];
  /** Resolves with the exit code (128 after a signal) once the process has ended and its output is read. */
  readonly exited: Promise<number | null>;
  /** Resolves with the first log line (seen or future) that matches. */
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  signal(name: NodeJS.Signals): void;
  /** Exit code once the process has ended (null while it runs). */
  exitCode(): number | null;
  waitForExit(timeoutMs?: number): Promise<number | null>;
  stop(): Promise<void>;
}

export interface StartGatewayOptions {
  /** Multi-document YAML written to <tmp>/hookgate.yaml (or a directory's files with `files`). */
  readonly config?: string;
  /** An existing configuration file or directory, served as it is (instead of `config`). */
  readonly configPath?: string;
  /** Fixed ports (a benchmark that chose them up front); default 0, ephemeral. */
  readonly port?: number;
  readonly metricsPort?: number;
  /** Node flags for the gateway process (`--cpu-prof`, ...), before the CLI script. */
  readonly execArgv?: readonly string[];
  /** The `hookgate` script to run (default the repository's CLI_BIN; a production layout's own). */
  readonly cliBin?: string;
  /** Working directory of the process (default the repository root). */
  readonly cwd?: string;
  /** How long stop() waits after SIGTERM before SIGKILL (default 8 s). */
  readonly stopGraceMs?: number;
  readonly extraArgs?: readonly string[];
  /** Added to this process's environment; `undefined` removes a variable (e.g. NODE_OPTIONS). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Serve plain http (default true: most tests exercise semantics, not TLS). */
  readonly insecureHttp?: boolean;
  readonly readyTimeoutMs?: number;
  /** Extra files written next to the configuration (certificates, token files), by relative name. */
  readonly files?: Readonly<Record<string, string>>;
  /**
   * A state directory of the caller's, kept after stop() (a gateway restart reuses it: registrations,
   * certificates). Default: `state/` inside the gateway's own temp dir, removed by stop().
   */
  readonly stateDir?: string;
}

export async function startGateway(options: StartGatewayOptions): Promise<GatewayProcess> {
  if ((options.config === undefined) === (options.configPath === undefined))
    throw new Error('startGateway: give either config (YAML text) or configPath (an existing file or directory)');
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-e2e-'));
  const configPath = options.configPath ?? join(dir, 'hookgate.yaml');
  const stateDir = options.stateDir ?? join(dir, 'state');
  if (options.config !== undefined) await writeFile(configPath, options.config);
  for (const [name, content] of Object.entries(options.files ?? {})) await writeFile(join(dir, name), content);
  const args = [
    ...(options.execArgv ?? []),
    options.cliBin ?? CLI_BIN,
    'serve',
    '--config',
    configPath,
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    '--metrics-port',
    String(options.metricsPort ?? 0),
    '--state-dir',
    stateDir,
    ...(options.insecureHttp === false ? [] : ['--insecure-http']),
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, HOOKGATE_LOG_LEVEL: 'debug', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectProcessLog(child, 'gateway');
  const { lines: logs, stderr, waitForLog } = output;
  // 'close', not 'exit': every line the process wrote has been read by then.
  const exited = new Promise<number | null>((resolveExit) =>
    child.once('close', (code, signal) => resolveExit(code ?? (signal ? 128 : null))),
  );

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      const code = await Promise.race([exited, sleep(options.stopGraceMs ?? 8000).then(() => 'timeout' as const)]);
      if (code === 'timeout' && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };

  const exitedEarly = (what: string) =>
    exited.then((code) => {
      throw new Error(`gateway exited with ${code} before ${what}; ${output.describe()}`);
    });
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  let urls: { admissionUrl: string; metricsUrl: string };
  try {
    urls = await Promise.race([listeningUrls(options, waitForLog, readyTimeoutMs), exitedEarly('serving')]);
    await Promise.race([waitForReady(urls.metricsUrl, readyTimeoutMs), exitedEarly('it was ready')]);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pid: child.pid!,
    ...urls,
    configPath,
    configDir: dir,
    stateDir,
    registrySocket: join(stateDir, 'registry.sock'),
    logs,
    stderr,
    exited,
    waitForLog,
    signal: (name) => child.pid !== undefined && child.exitCode === null && void process.kill(child.pid, name),
    exitCode: () => child.exitCode,
    waitForExit: (timeoutMs = 15_000) => Promise.race([exited, sleep(timeoutMs).then(() => child.exitCode)]),
    stop,
  };
}

/** Where it listens: the ports given up front, else the addresses of its "hookgate serving" line. */
async function listeningUrls(
  options: StartGatewayOptions,
  waitForLog: GatewayProcess['waitForLog'],
  timeoutMs: number,
): Promise<{ admissionUrl: string; metricsUrl: string }> {
  if (options.port && options.metricsPort) {
    const scheme = options.insecureHttp === false ? 'https' : 'http';
    return {
      admissionUrl: `${scheme}://127.0.0.1:${options.port}`,
      metricsUrl: `http://127.0.0.1:${options.metricsPort}`,
    };
  }
  const serving = await waitForLog((l) => l.msg === 'hookgate serving', timeoutMs);
  return { admissionUrl: String(serving['admissionUrl']), metricsUrl: String(serving['metricsUrl']) };
}

async function waitForReady(metricsUrl: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${metricsUrl}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`gateway /readyz did not answer 200 within ${timeoutMs} ms`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Rewrites the configuration file atomically (temp file + rename), as editors and ConfigMap mounts do. */
export async function rewriteConfig(gateway: GatewayProcess, config: string): Promise<void> {
  const temp = `${gateway.configPath}.tmp`;
  await writeFile(temp, config);
  await rename(temp, gateway.configPath);
}

/** The newest configuration generation every worker reported applied (1 at start). */
export function appliedGeneration(gateway: GatewayProcess): number {
  let generation = 1;
  for (const line of gateway.logs) {
    if (line.msg === 'configuration applied by every worker' && typeof line['generation'] === 'number')
      generation = Math.max(generation, line['generation']);
  }
  return generation;
}

/** Writes a new configuration, sends SIGHUP, and waits until every worker serves it. */
export async function reloadConfig(gateway: GatewayProcess, config: string): Promise<number> {
  const before = appliedGeneration(gateway);
  await rewriteConfig(gateway, config);
  gateway.signal('SIGHUP');
  const line = await gateway.waitForLog(
    (l) =>
      l.msg === 'configuration applied by every worker' &&
      typeof l['generation'] === 'number' &&
      l['generation'] > before,
  );
  return line['generation'] as number;
}

/** The PEM of the gateway's self-managed CA (what print-webhooks puts in caBundle). */
export function readGatewayCa(gateway: GatewayProcess): Promise<string> {
  return readFile(join(gateway.stateDir, 'tls', 'ca.crt'), 'utf8');
}
