/**
 * Finding a Redis for tests and the local stack, in this order:
 *   1. REDIS_URL, if set (used as is; an unreachable one is an error, not a fallback);
 *   2. redis://127.0.0.1:6379, if it answers PING;
 *   3. a redis-server of our own on a free port, if the binary is installed (stopped by stop());
 *   4. otherwise an error that says how to get one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { freePort } from './free-port.js';

export interface RedisHandle {
  readonly url: string;
  /** Where it came from, for log lines. */
  readonly source: 'REDIS_URL' | 'default' | 'spawned';
  /** Stops a redis-server we started (by pid); a no-op for one we did not start. */
  stop(): Promise<void>;
}

const DEFAULT_URL = 'redis://127.0.0.1:6379';

export async function ensureRedis(options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<RedisHandle> {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? 5000;
  const fromEnv = env['REDIS_URL'];
  if (fromEnv) {
    const { host, port } = hostPort(fromEnv);
    if (!(await answersPing(host, port, timeoutMs))) {
      throw new Error(`REDIS_URL=${fromEnv} does not answer PING; start that Redis or unset REDIS_URL`);
    }
    return { url: fromEnv, source: 'REDIS_URL', stop: async () => {} };
  }
  if (await answersPing('127.0.0.1', 6379, 1000)) {
    return { url: DEFAULT_URL, source: 'default', stop: async () => {} };
  }
  return startRedisServer(timeoutMs);
}

/**
 * Where to PING: the URL's first host (the Redis, a Sentinel or a cluster seed node all answer it).
 * Only reachability is checked here; @hookgate/queue's parser validates the URL where it is used
 * (devtools cannot import @hookgate/queue, whose tests use devtools).
 */
function hostPort(url: string): { host: string; port: number } {
  const authority = url.replace(/^[^:]*:\/\//, '').split(/[/?#]/)[0] ?? '';
  const first = authority.slice(authority.lastIndexOf('@') + 1).split(',')[0] ?? '';
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(first);
  const defaultPort = url.includes('+sentinel://') ? 26379 : 6379;
  return { host: match?.[1]?.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(match?.[2] ?? defaultPort) };
}

/**
 * Sends a RESP PING and waits for +PONG (or an auth error, which still proves a Redis is there);
 * over TLS when `tls` gives the CA to verify the server with.
 */
async function answersPing(host: string, port: number, timeoutMs: number, tls?: { ca: string }): Promise<boolean> {
  return new Promise((resolve) => {
    const ping = () => socket.write('PING\r\n');
    const socket = tls ? tlsConnect({ host, port, ca: tls.ca }, ping) : new Socket();
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG') || data.toString().startsWith('-NOAUTH')));
    if (!tls) socket.connect(port, host, ping);
  });
}

/**
 * Starts a private redis-server on a free port (also used directly by tests of this module), or
 * on `port`: a test that restarts Redis starts the next one where the first one listened.
 */
export async function startRedisServer(timeoutMs = 5000, atPort?: number): Promise<RedisHandle> {
  const port = atPort ?? (await freePort());
  return spawnInOwnDir('hookgate-redis-', port, `redis://127.0.0.1:${port}`, async (dir) => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    return spawnRedisProcess(args, port, timeoutMs);
  });
}

/** A redis-server started by `spawn` with its own temporary directory, removed when it stops (or fails to start). */
async function spawnInOwnDir(
  dirPrefix: string,
  port: number,
  url: string,
  spawn: (dir: string) => Promise<RedisProcess>,
): Promise<RedisHandle> {
  const dir = await mkdtemp(join(tmpdir(), dirPrefix));
  let server: RedisProcess;
  try {
    server = await spawn(dir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    source: 'spawned',
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The PEM files of a TLS redis-server: its certificate and key, and the CA that signed them. */
export interface RedisTlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly caFile: string;
}

/**
 * Starts a private redis-server that speaks TLS only (`--port 0`, `--tls-port`, no client
 * certificates asked for) on a free port; its URL is `rediss://127.0.0.1:<port>`, so the
 * certificate must name 127.0.0.1. Readiness is a PING over TLS verified with `caFile`.
 */
export async function startTlsRedisServer(
  files: RedisTlsFiles,
  options: { timeoutMs?: number; port?: number } = {},
): Promise<RedisHandle> {
  const port = options.port ?? (await freePort());
  return spawnInOwnDir('hookgate-redis-tls-', port, `rediss://127.0.0.1:${port}`, async (dir) => {
    const args = [
      ...['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1'],
      ...tlsServerArgs(files),
      ...['--save', '', '--appendonly', 'no', '--dir', dir],
    ];
    const ca = await readFile(files.caFile, 'utf8');
    return spawnRedisProcess(args, port, options.timeoutMs ?? 5000, { ca });
  });
}

/** The redis-server arguments that give it `files` (no client certificates asked for); the port is the caller's. */
export function tlsServerArgs(files: RedisTlsFiles): string[] {
  return [
    ...['--tls-cert-file', files.certFile, '--tls-key-file', files.keyFile, '--tls-ca-cert-file', files.caFile],
    ...['--tls-auth-clients', 'no'],
  ];
}

/** A redis-server (or Sentinel) process of ours; stop() ends it by pid and waits for its exit. */
export interface RedisProcess {
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Spawns `redis-server <args>` and waits until `port` answers PING (redis-topologies.ts uses it too);
 * with `tls`, a PING over TLS verified with its CA.
 */
export async function spawnRedisProcess(
  args: readonly string[],
  port: number,
  timeoutMs = 5000,
  tls?: { ca: string },
): Promise<RedisProcess> {
  let child: ChildProcess;
  try {
    child = spawn('redis-server', [...args], { stdio: 'ignore' });
  } catch {
    throw noRedisError();
  }
  const spawnFailed = new Promise<never>((_, reject) => child.once('error', () => reject(noRedisError())));
  const deadline = Date.now() + timeoutMs;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  };
  for (;;) {
    const up = await Promise.race([answersPing('127.0.0.1', port, 500, tls), spawnFailed]);
    if (up) return { port, stop };
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`started redis-server on port ${port} but it did not answer PING within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function noRedisError(): Error {
  return new Error(
    'no Redis found: REDIS_URL is not set, nothing answers on 127.0.0.1:6379, and redis-server is not installed. ' +
      'Install one (Debian/Ubuntu: `apt-get install redis-server`) or set REDIS_URL=redis://host:port.',
  );
}
