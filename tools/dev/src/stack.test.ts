/**
 * The local stack (`npm start`) as a process: a plugin killed by pid is restarted with backoff and
 * serves again, while the gateway and the other plugins keep running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:https';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';
import { REPO_ROOT } from './gateway-process.js';
import type { LogLine } from './process-log.js';
import { restartDelayMs } from './supervised-process.js';

describe('restartDelayMs', () => {
  const cases = [
    { name: 'first restart', attempt: 0, ms: 500 },
    { name: 'doubles', attempt: 3, ms: 4_000 },
    { name: 'capped at 30 s', attempt: 7, ms: 30_000 },
    { name: 'stays capped for very many attempts', attempt: 10_000, ms: 30_000 },
  ];
  it.each(cases)('$name', ({ attempt, ms }) => expect(restartDelayMs(attempt)).toBe(ms));
});

describe('the local stack', () => {
  let dir: string;
  let stack: ChildProcess;
  let admissionPort: number;
  const logs: LogLine[] = [];
  /** Every pid the stack reported starting: killed at the end in case the stack could not stop them. */
  const pids = new Set<number>();

  const waitForLog = (predicate: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine> =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const look = (): void => {
        const line = logs.find(predicate);
        if (line) return resolve(line);
        if (stack.exitCode !== null) return reject(new Error(`the stack exited with ${stack.exitCode}`));
        if (Date.now() - started > timeoutMs)
          return reject(new Error(`no such log line within ${timeoutMs} ms; last lines: ${tail()}`));
        setTimeout(look, 100);
      };
      look();
    });
  const tail = () =>
    logs
      .slice(-10)
      .map((l) => JSON.stringify(l))
      .join('\n');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-stack-'));
    admissionPort = await freePort();
    const metricsPort = await freePort();
    const controllerPort = await freePort();
    const dashboardPort = await freePort();
    stack = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'tools/dev/src/stack.ts')], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        HOOKGATE_STACK_DIR: dir,
        HOOKGATE_PORT: String(admissionPort),
        HOOKGATE_METRICS_PORT: String(metricsPort),
        HOOKGATE_CONTROLLER_PORT: String(controllerPort),
        HOOKGATE_DASHBOARD_PORT: String(dashboardPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    stack.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const text of lines) {
        try {
          const line = JSON.parse(text) as LogLine;
          logs.push(line);
          if (line.msg === 'stack process started' && typeof line['pid'] === 'number') pids.add(line['pid']);
        } catch {
          // not a log line (a child's plain stderr is not piped here)
        }
      }
    });
    stack.stderr!.resume();
    await waitForLog((l) => (l.msg ?? '').startsWith('stack ready'), 90_000);
  }, 100_000);

  afterAll(async () => {
    if (stack.exitCode === null && stack.signalCode === null) {
      const exited = new Promise((resolve) => stack.once('exit', resolve));
      stack.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    }
    for (const pid of [stack.pid, ...pids]) {
      try {
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('restarts a plugin killed by pid, logs it, and the plugin answers again through the gateway', async () => {
    const name = 'plugin required-labels';
    const first = await waitForLog((l) => l['process'] === name && l.msg === 'stack process started', 5_000);
    const pid = first['pid'] as number;
    process.kill(pid, 'SIGKILL');

    const exited = await waitForLog((l) => l['process'] === name && l['exit'] === 'SIGKILL', 10_000);
    expect(exited).toMatchObject({ level: 'warn', pid, restartInMs: 500, restarts: 1 });
    const again = await waitForLog(
      (l) => l['process'] === name && l.msg === 'stack process started' && l['pid'] !== pid,
      10_000,
    );
    expect(again).toMatchObject({ restarts: 1 });
    expect(stack.exitCode).toBeNull();

    // The restarted plugin itself denies (its message names the missing label), not the failure policy.
    const ca = await readFile(join(dir, 'state/tls/ca.crt'));
    await expect
      .poll(() => validate(admissionPort, ca), { timeout: 20_000, interval: 300 })
      .toMatch(/required-labels\.hookgate\.dev.*denied.*team/);
  }, 60_000);
});

/** Sends an unlabelled Deployment in a prod namespace to /validate; returns the denial message. */
function validate(port: number, ca: Buffer): Promise<string> {
  const review = {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'stack-restart-test',
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      namespace: 'payments',
      name: 'web',
      operation: 'CREATE',
      userInfo: { username: 'test' },
      object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'payments' } },
    },
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/validate?timeout=10s', method: 'POST', ca }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => {
        const answer = JSON.parse(body) as { response?: { status?: { message?: string } } };
        resolve(answer.response?.status?.message ?? '');
      });
    });
    req.once('error', reject);
    req.setHeader('Content-Type', 'application/json');
    req.end(JSON.stringify(review));
  });
}
