/**
 * Redis Sentinel and Redis Cluster topologies of a test's own, made of real redis-server processes
 * on free ports in a temp dir (no persistence), stopped by pid:
 *
 *   const sentinel = await startRedisSentinel();   // a master, a replica, one Sentinel (quorum 1)
 *   sentinel.url                                   // redis+sentinel://127.0.0.1:<port>/hookgate
 *   await sentinel.failover();                     // SENTINEL FAILOVER: the replica becomes master
 *   const cluster = await startRedisCluster();     // three masters, no replicas
 *   cluster.url                                    // redis+cluster://127.0.0.1:<p1>,127.0.0.1:<p2>,...
 *   await startRedisCluster(3, { tls: files });    // TLS only, cluster bus too: rediss+cluster://...
 *
 * One Sentinel is enough for SENTINEL FAILOVER (a forced failover needs no agreement); production
 * runs three. Cluster nodes get an explicit `cluster-port`: the default port+10000 may be past 65535
 * for an ephemeral port.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { spawnRedisProcess, tlsServerArgs, type RedisProcess, type RedisTlsFiles } from './redis.js';

export const SENTINEL_MASTER_NAME = 'hookgate';

export interface RedisSentinelTopology {
  /** redis+sentinel://127.0.0.1:<sentinel port>/hookgate */
  readonly url: string;
  /** The data nodes' URLs (redis://), the current master first. */
  masterUrl(): Promise<string>;
  /** Forces a failover and waits until the Sentinel names the promoted replica, which accepts writes. */
  failover(): Promise<{ readonly from: string; readonly to: string }>;
  stop(): Promise<void>;
}

export interface RedisClusterTopology {
  /** redis+cluster://127.0.0.1:<p1>,127.0.0.1:<p2>,127.0.0.1:<p3> (rediss+cluster:// with TLS) */
  readonly url: string;
  /** Each master's own redis:// (rediss://) URL. */
  readonly nodeUrls: readonly string[];
  stop(): Promise<void>;
}

/**
 * A TLS cluster's files: the serving certificate (it must name 127.0.0.1) and a client certificate
 * (extended key usage clientAuth) that each node presents to the others on the cluster bus, which
 * always asks for one whatever `tls-auth-clients` says; both signed by the CA in `caFile`.
 */
export interface RedisClusterTlsFiles extends RedisTlsFiles {
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
}

const TIMEOUT_MS = 20_000;

export async function startRedisSentinel(): Promise<RedisSentinelTopology> {
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-sentinel-'));
  const processes: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  let stopClient = (): void => undefined;
  try {
    const [masterPort, replicaPort, sentinelPort] = [await freePort(), await freePort(), await freePort()];
    for (const [name, port, extra] of [
      ['master', masterPort, []],
      ['replica', replicaPort, ['--replicaof', '127.0.0.1', String(masterPort)]],
    ] as const) {
      await mkdir(join(dir, name));
      processes.push(await spawnRedisProcess([...dataNodeArgs(port, join(dir, name)), ...extra], port));
    }
    const conf = join(dir, 'sentinel.conf');
    await writeFile(
      conf,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${masterPort} 1`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 2000`,
        `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 10000`,
        '',
      ].join('\n'),
    );
    processes.push(await spawnRedisProcess([conf, '--sentinel'], sentinelPort));
    const sentinel = new Redis({ host: '127.0.0.1', port: sentinelPort, lazyConnect: true, maxRetriesPerRequest: 1 });
    // Its errors reach the commands that fail; a start that fails below must not leave it retrying.
    sentinel.on('error', () => undefined);
    stopClient = () => sentinel.disconnect();
    const ask = async <T>(fn: (client: Redis) => Promise<T>): Promise<T> => {
      await sentinel.connect().catch(() => undefined);
      return fn(sentinel);
    };
    const masterAddress = async () =>
      ask(async (c) => {
        const [host, port] = (await c.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER_NAME)) as string[];
        return `redis://${host}:${port}`;
      });
    // A forced failover needs a replica the Sentinel has seen linked to the master.
    const replicaReady = async () =>
      ask(async (c) => {
        const replicas = (await c.call('SENTINEL', 'REPLICAS', SENTINEL_MASTER_NAME)) as string[][];
        return replicas.some((fields) => {
          const map = new Map<string, string>();
          for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
          return map.get('master-link-status') === 'ok' && !(map.get('flags') ?? '').includes('down');
        });
      });
    await waitFor(replicaReady, 'the Sentinel to see the replica linked to its master');
    return {
      url: `redis+sentinel://127.0.0.1:${sentinelPort}/${SENTINEL_MASTER_NAME}`,
      masterUrl: masterAddress,
      async failover() {
        const from = await masterAddress();
        await waitFor(replicaReady, 'the Sentinel to see a replica linked to the master');
        await ask((c) => c.call('SENTINEL', 'FAILOVER', SENTINEL_MASTER_NAME));
        await waitFor(async () => (await masterAddress()) !== from, 'the Sentinel to name a new master');
        const to = await masterAddress();
        await waitFor(async () => (await roleOf(to)) === 'master', `${to} to act as master`);
        return { from, to };
      },
      async stop() {
        sentinel.disconnect();
        await stop();
      },
    };
  } catch (error) {
    stopClient();
    await stop();
    throw error;
  }
}

/**
 * `masters` masters, no replicas. With `tls` every node speaks TLS only (`--port 0`, `--tls-port`,
 * `--tls-cluster yes` for the cluster bus; clients are not asked for certificates); the cluster is
 * formed and checked over TLS, verified with `tls.caFile`.
 */
export async function startRedisCluster(
  masters = 3,
  options: { tls?: RedisClusterTlsFiles } = {},
): Promise<RedisClusterTopology> {
  const { tls } = options;
  const dir = await mkdtemp(join(tmpdir(), tls ? 'hookgate-cluster-tls-' : 'hookgate-cluster-'));
  const processes: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const ca = tls ? { ca: await readFile(tls.caFile, 'utf8') } : undefined;
    const ports: number[] = [];
    for (let i = 0; i < masters; i++) {
      const [port, busPort] = [await freePort(), await freePort()];
      const nodeDir = join(dir, `node-${i}`);
      await mkdir(nodeDir);
      const args = [
        ...dataNodeArgs(port, nodeDir, tls),
        '--cluster-enabled',
        'yes',
        '--cluster-port',
        String(busPort),
        '--cluster-config-file',
        join(nodeDir, 'nodes.conf'),
        '--cluster-node-timeout',
        '2000',
      ];
      processes.push(await spawnRedisProcess(args, port, 5000, ca));
      ports.push(port);
    }
    const addresses = ports.map((p) => `127.0.0.1:${p}`);
    const cliTls = tls ? ['--tls', '--cacert', tls.caFile] : [];
    await run('redis-cli', [
      ...cliTls,
      '--cluster',
      'create',
      ...addresses,
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    const scheme = tls ? 'rediss' : 'redis';
    for (const port of ports) {
      await waitFor(
        async () => /cluster_state:ok/.test(await command(`${scheme}://127.0.0.1:${port}`, ['CLUSTER', 'INFO'], ca)),
        `cluster node ${port} to report cluster_state:ok`,
      );
    }
    return {
      url: `${scheme}+cluster://${addresses.join(',')}`,
      nodeUrls: addresses.map((a) => `${scheme}://${a}`),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function dataNodeArgs(port: number, dir: string, tls?: RedisClusterTlsFiles): string[] {
  const listen = tls
    ? [
        ...['--port', '0', '--tls-port', String(port), '--tls-cluster', 'yes', ...tlsServerArgs(tls)],
        ...['--tls-client-cert-file', tls.clientCertFile, '--tls-client-key-file', tls.clientKeyFile],
      ]
    : ['--port', String(port)];
  return [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
}

async function roleOf(url: string): Promise<string> {
  const answer = await command(url, ['ROLE']).catch(() => '');
  return answer.split('\n')[0] ?? '';
}

/** One command on a fresh connection (over TLS verified with `tls.ca` if given); the answer flattened to lines. */
async function command(url: string, args: string[], tls?: { ca: string }): Promise<string> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
    ...(tls ? { tls } : {}),
  });
  client.on('error', () => {});
  try {
    await client.connect();
    const answer = await client.call(args[0]!, ...args.slice(1));
    return Array.isArray(answer) ? answer.flat(3).map(String).join('\n') : String(answer);
  } finally {
    client.disconnect();
  }
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { timeout: TIMEOUT_MS }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} ${args.join(' ')} failed: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${TIMEOUT_MS} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
