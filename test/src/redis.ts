/**
 * Finds a Redis for the end-to-end tests: REDIS_URL, else 127.0.0.1:6379 if it answers PING, else a
 * private `redis-server` on a free port (killed by pid in stop()), else a failure that says how to get one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { findFreePort } from './free-port.js';

export interface TestRedis {
  readonly url: string;
  stop(): Promise<void>;
}

export async function discoverRedis(): Promise<TestRedis> {
  const fromEnv = process.env['REDIS_URL'];
  if (fromEnv) return { url: fromEnv, stop: async () => undefined };
  if (await answersPing('127.0.0.1', 6379)) return { url: 'redis://127.0.0.1:6379', stop: async () => undefined };
  const port = await findFreePort();
  const child = await spawnRedisServer(port);
  if (!child) {
    throw new Error(
      'No Redis for the end-to-end tests: set REDIS_URL, run one on 127.0.0.1:6379, or install redis-server ' +
        '(Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis).',
    );
  }
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await answersPing('127.0.0.1', port)) {
      return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child) };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopChild(child);
  throw new Error(`redis-server on port ${port} did not answer PING within 5 s`);
}

function spawnRedisServer(port: number): Promise<ChildProcess | null> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  // ENOENT arrives as an 'error' event, after spawn() returned.
  return new Promise((resolve) => {
    child.once('spawn', () => resolve(child));
    child.once('error', () => resolve(null));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
}

/** Sends an inline PING and waits for +PONG (or an auth error, which still proves a Redis listens). */
function answersPing(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())));
    socket.connect(port, host, () => socket.write('PING\r\n'));
  });
}
