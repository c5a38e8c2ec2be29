/**
 * Debian's `prometheus` and `promtool` (apt-get install prometheus) for the monitoring tests: a real
 * Prometheus on a free loopback port with its data in a temp dir, stopped by pid, and its HTTP
 * query API; promtool runs as a command. Neither is faked: a missing binary fails the test with
 * the command that installs it.
 */
import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@hookgate/devtools';
import { tempDir } from '@hookgate/plugin-sdk/testing';

const run = promisify(execFile);
const INSTALL_HINT = "install Debian's prometheus package (apt-get install -y prometheus), which brings promtool too";

export interface CommandResult {
  readonly code: number;
  readonly output: string;
}

/** Runs promtool with `args`; the exit code and stdout+stderr, whatever the outcome. */
export async function promtool(args: readonly string[], cwd?: string): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run('promtool', [...args], { cwd, timeout: 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string };
    if (e.code === 'ENOENT') throw new Error(`promtool not found: ${INSTALL_HINT}`);
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

export interface PromSample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

export interface PromRule {
  readonly name: string;
  readonly type: 'alerting' | 'recording';
  readonly health: string;
  readonly lastError?: string;
  readonly query: string;
}

export interface PrometheusProcess {
  readonly url: string;
  readonly pid: number;
  /** An instant query; rejects with Prometheus's error (a PromQL syntax error, say). */
  query(expr: string): Promise<PromSample[]>;
  /** Every rule of every loaded rule group, with its evaluation health. */
  rules(): Promise<PromRule[]>;
  stop(): Promise<void>;
}

export interface StartPrometheusOptions {
  /** prometheus.yml; may name the files below by their relative names. */
  readonly config: string;
  /** Files written next to the configuration (rule files), by name. */
  readonly files?: Readonly<Record<string, string>>;
  readonly readyTimeoutMs?: number;
}

export async function startPrometheus(options: StartPrometheusOptions): Promise<PrometheusProcess> {
  const dir = await tempDir('hookgate-prometheus-');
  await writeFile(join(dir.dir, 'prometheus.yml'), options.config);
  for (const [name, content] of Object.entries(options.files ?? {})) await writeFile(join(dir.dir, name), content);
  const port = await freePort();
  const child = spawn(
    'prometheus',
    [
      `--config.file=${join(dir.dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { cwd: dir.dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(`prometheus not found: ${INSTALL_HINT}`) : error),
    );
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await dir.cleanup();
  };
  try {
    await spawned;
    await waitReady(url, exited, () => output, options.readyTimeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    pid: child.pid!,
    async query(expr) {
      const body = await api<{ resultType: string; result: PromSample[] }>(
        `${url}/api/v1/query?query=${encodeURIComponent(expr)}`,
      );
      if (body.resultType !== 'vector') throw new Error(`expected a vector for ${expr}, got ${body.resultType}`);
      return body.result;
    },
    async rules() {
      const body = await api<{ groups: { rules: PromRule[] }[] }>(`${url}/api/v1/rules`);
      return body.groups.flatMap((g) => g.rules);
    },
    stop,
  };
}

async function api<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const body = (await res.json()) as { status: string; data: T; error?: string };
  if (body.status !== 'success') throw new Error(`Prometheus answered ${res.status}: ${body.error ?? 'no error text'}`);
  return body.data;
}

async function waitReady(
  url: string,
  exited: Promise<number | null>,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone !== undefined) throw new Error(`prometheus exited with ${gone} before it was ready:\n${output()}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`prometheus was not ready within ${timeoutMs} ms:\n${output()}`);
}
