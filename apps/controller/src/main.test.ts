/**
 * The controller as its own process: a bad configuration exits 1 naming each field; a good one
 * starts, logs, and exits 0 on SIGTERM. Real Redis (ensureRedis); the process is stopped by pid.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedis, type RedisHandle } from '@hookgate/devtools';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { reconcileQueueName } from '@hookgate/queue';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

let redis: RedisHandle;
let tmp: TempDir;

beforeAll(async () => {
  redis = await ensureRedis();
  tmp = await tempDir('hookgate-controller-main-');
}, 30_000);

afterAll(async () => {
  await tmp?.cleanup();
  await redis?.stop();
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs main.ts; `onLine` may signal the child. Killed by pid if it outlives `timeoutMs`. */
function runMain(args: string[], onStdout?: (text: string, pid: number) => void, timeoutMs = 20_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      cwd: APP_DIR,
      env: { ...process.env, REDIS_URL: redis.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(stdout, child.pid!);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      process.kill(child.pid!, 'SIGKILL');
      reject(new Error(`main.ts did not exit within ${timeoutMs} ms; stdout: ${stdout} stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('controller main', () => {
  it('without --config: usage, exit 2', async () => {
    const run = await runMain([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: controller --config');
  });

  it('an invalid configuration: every bad field named, exit 1', async () => {
    const file = path.join(tmp.dir, 'bad.yaml');
    await writeFile(file, 'plugins:\n  - name: Ledger\nconcurrency: 0\n');
    const run = await runMain(['--config', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}: plugins[0].name: Invalid value: "Ledger"`);
    expect(run.stderr).toContain(`${file}: plugins[0].target: Required value`);
    expect(run.stderr).toContain(`${file}: concurrency: Invalid value: 0`);
  });

  it('a valid configuration: starts, and exits 0 on SIGTERM', async () => {
    const kubeconfig = path.join(tmp.dir, 'kubeconfig');
    await writeFile(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{ name: c, cluster: { server: "http://127.0.0.1:9" } }]\n' +
        'users: [{ name: u, user: {} }]\ncontexts: [{ name: x, context: { cluster: c, user: u } }]\ncurrent-context: x\n',
    );
    const prefix = `{hgtest-${randomUUID().slice(0, 8)}}`;
    const file = path.join(tmp.dir, 'controller.yaml');
    await writeFile(
      file,
      [
        `redis: { prefix: "${prefix}" }`,
        `plugins: [{ name: ledger, target: "unix://${path.join(tmp.dir, 'ledger.sock')}" }]`,
        'kubernetes: { mode: kubeconfig, kubeconfig: kubeconfig }',
        'health: { port: 0 }',
        'dashboard: { port: 0 }',
        'shutdownTimeoutMs: 2000',
      ].join('\n'),
    );
    let signalled = false;
    const queue = new Queue(reconcileQueueName('ledger'), { connection: { url: redis.url }, prefix });
    const run = await runMain(['--config', file], (stdout, pid) => {
      if (!signalled && stdout.includes('controller started')) {
        signalled = true;
        process.kill(pid, 'SIGTERM');
      }
    });
    // The workers leave their bookkeeping keys (meta, stalled-check) behind.
    await queue.obliterate({ force: true });
    await queue.close();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ component: 'controller', plugins: ['ledger'], prefix });
    expect(lines.at(-1)).toMatchObject({ msg: 'controller stopped', forced: false });
  }, 30_000);
});
