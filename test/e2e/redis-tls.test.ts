/**
 * rediss:// against a real TLS Redis: a redis-server of the test's own (devtools'
 * startTlsRedisServer, TLS only, stopped by pid) serving a certificate for 127.0.0.1 from a
 * private CA made for the test. Hookgate's clients use Node's default trust store, so the CA is
 * trusted the way the docs say: NODE_EXTRA_CA_CERTS, which Node reads at process start. Each
 * case therefore runs a process of its own (a SideEffectProducer, the CLI, the gateway), with and
 * without it.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPO_ROOT,
  freePort,
  spawnRedisProcess,
  startGateway,
  startRedisCluster,
  startTlsRedisServer,
  type RedisClusterTlsFiles,
  type RedisClusterTopology,
  type RedisHandle,
  type RedisProcess,
} from '@hookgate/devtools';
import { computeJobId, jobKey, reconcileQueueName, type StoredSideEffectJob } from '@hookgate/queue';
import { SAMPLE_HOOK, SAMPLE_PLUGIN, sampleJob } from '@hookgate/queue/testing';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startPlugin, type PluginProcess } from '../src/plugin-process.js';
import { podCreateReview } from '../src/pod-review.js';
import { runCli } from '../src/run-cli.js';
import { createTestCa } from '../src/test-certificates.js';

const PRODUCER_SCRIPT = join(REPO_ROOT, 'test/fixtures/redis/producer-add.ts');
/** What a process that does not trust the private CA is told (Node's message; which one depends on the chain sent). */
const UNTRUSTED = /unable to verify the first certificate|self-signed certificate in certificate chain/;

let dir: string;
let tlsFiles: { certFile: string; keyFile: string; caFile: string };
/** tlsFiles and a clientAuth certificate for the nodes of a TLS cluster (the cluster bus asks for one). */
let clusterTlsFiles: RedisClusterTlsFiles;
let caFile: string;
let caPem: string;
let redis: RedisHandle;
/** The test's own view of the TLS Redis: ioredis given the CA explicitly. */
let reader: Redis;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookgate-redis-tls-e2e-'));
  const ca = await createTestCa('hookgate-redis-tls-ca');
  const serving = await ca.issue({ commonName: '127.0.0.1', ips: ['127.0.0.1'], dns: ['localhost'] });
  caPem = ca.certPem;
  caFile = join(dir, 'ca.pem');
  const files = { certFile: join(dir, 'redis.crt'), keyFile: join(dir, 'redis.key'), caFile };
  await writeFile(caFile, caPem);
  await writeFile(files.certFile, serving.certPem);
  await writeFile(files.keyFile, serving.keyPem, { mode: 0o600 });
  tlsFiles = files;
  const node = await ca.issue({ commonName: 'hookgate-cluster-node', client: true });
  clusterTlsFiles = {
    ...files,
    clientCertFile: join(dir, 'cluster-node.crt'),
    clientKeyFile: join(dir, 'cluster-node.key'),
  };
  await writeFile(clusterTlsFiles.clientCertFile, node.certPem);
  await writeFile(clusterTlsFiles.clientKeyFile, node.keyPem, { mode: 0o600 });
  redis = await startTlsRedisServer(files);
  const port = Number(new URL(redis.url).port);
  reader = new Redis({ host: '127.0.0.1', port, tls: { ca: caPem }, lazyConnect: true, maxRetriesPerRequest: 1 });
  await reader.connect();
});
afterAll(async () => {
  reader?.disconnect();
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Environment of a child: NODE_EXTRA_CA_CERTS set to the private CA, or removed. */
function trust(trusted: boolean): Record<string, string | undefined> {
  return { NODE_EXTRA_CA_CERTS: trusted ? caFile : undefined };
}

interface ProducerOutput {
  readonly result?: { jobId: string; queue: string; outcome: string };
  readonly error?: string;
  readonly connectionError?: string;
}

/** Runs test/fixtures/redis/producer-add.ts in a node of its own; its one JSON line and how long it took. */
function producerAdd(url: string, prefix: string, uid: string, trusted: boolean) {
  const env = Object.fromEntries(
    Object.entries({ ...process.env, ...trust(trusted) }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const started = Date.now();
  return new Promise<{ output: ProducerOutput; ms: number }>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', PRODUCER_SCRIPT, url, prefix, uid],
      { cwd: REPO_ROOT, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`producer-add failed: ${error.message}\n${stderr}`));
        else
          resolve({
            output: JSON.parse(stdout.trim().split('\n').at(-1)!) as ProducerOutput,
            ms: Date.now() - started,
          });
      },
    );
  });
}

async function deletePrefix(prefix: string): Promise<void> {
  const keys = await reader.keys(`${prefix}:*`);
  if (keys.length > 0) await reader.del(...keys);
}

describe('SideEffectProducer on rediss://', () => {
  it('adds a job over TLS when the process trusts the private CA (NODE_EXTRA_CA_CERTS)', async () => {
    const prefix = `{hg-tls-${randomUUID()}}`;
    const uid = randomUUID();
    try {
      const { output } = await producerAdd(redis.url, prefix, uid, true);
      const jobId = computeJobId({
        plugin: SAMPLE_PLUGIN,
        requestUid: uid,
        hook: SAMPLE_HOOK,
        effectKind: sampleJob().effect.kind,
        effectKey: sampleJob().effect.key,
      });
      expect(output).toEqual({ result: { jobId, queue: reconcileQueueName(SAMPLE_PLUGIN), outcome: 'added' } });
      const stored = await reader.hget(jobKey(prefix, reconcileQueueName(SAMPLE_PLUGIN), jobId), 'data');
      expect(JSON.parse(stored!) as StoredSideEffectJob).toMatchObject({ plugin: SAMPLE_PLUGIN, admission: { uid } });
    } finally {
      await deletePrefix(prefix);
    }
  });

  it('without the CA trusted, fails within seconds and says the certificate is not trusted', async () => {
    const prefix = `{hg-tls-${randomUUID()}}`;
    const { output, ms } = await producerAdd(redis.url, prefix, randomUUID(), false);
    expect(output.result).toBeUndefined();
    expect(output.error).toMatch(/HG_ERR_QUEUE_UNAVAILABLE|not connected/);
    expect(output.connectionError).toMatch(UNTRUSTED);
    expect(ms).toBeLessThan(20_000);
    expect(await reader.keys(`${prefix}:*`)).toEqual([]);
  });
});

describe('rediss+sentinel://', () => {
  let sentinel: RedisProcess | undefined;
  afterAll(() => sentinel?.stop());

  // Also the producer's close behind Sentinel: before it called disconnect() after quit(), the
  // failover detector's Sentinel connections kept the child process alive (execFile timed out).
  it('finds the master through a TLS Sentinel, adds over TLS to it, and the process exits after close', async () => {
    // One Sentinel (TLS only, and TLS to the master: tls-replication) watching the TLS Redis above.
    const port = await freePort();
    const masterPort = new URL(redis.url).port;
    const conf = join(dir, 'sentinel.conf');
    await writeFile(
      conf,
      [
        ...['port 0', `tls-port ${port}`, 'bind 127.0.0.1', `dir ${dir}`],
        ...[`tls-cert-file ${tlsFiles.certFile}`, `tls-key-file ${tlsFiles.keyFile}`, `tls-ca-cert-file ${caFile}`],
        ...['tls-auth-clients no', 'tls-replication yes', `sentinel monitor hookgate 127.0.0.1 ${masterPort} 1`, ''],
      ].join('\n'),
    );
    sentinel = await spawnRedisProcess([conf, '--sentinel'], port, 5000, { ca: caPem });
    const prefix = `{hg-tls-${randomUUID()}}`;
    const uid = randomUUID();
    try {
      const { output } = await producerAdd(`rediss+sentinel://127.0.0.1:${port}/hookgate`, prefix, uid, true);
      expect(output.result?.outcome).toBe('added');
      const stored = await reader.hget(jobKey(prefix, reconcileQueueName(SAMPLE_PLUGIN), output.result!.jobId), 'data');
      expect(JSON.parse(stored!) as StoredSideEffectJob).toMatchObject({ admission: { uid } });

      const refused = await producerAdd(`rediss+sentinel://127.0.0.1:${port}/hookgate`, prefix, randomUUID(), false);
      expect(refused.output.result).toBeUndefined();
      // ioredis's Sentinel client does not pass the TLS error on: only "All sentinels are
      // unreachable ... Last error: Connection is closed." (docs/operations.md says so).
      expect(refused.output.connectionError).toMatch(/^All sentinels are unreachable/);
    } finally {
      await deletePrefix(prefix);
    }
  });
});

describe('rediss+cluster://', () => {
  let cluster: RedisClusterTopology | undefined;
  let clusterReader: Cluster | undefined;
  afterAll(async () => {
    clusterReader?.disconnect();
    await cluster?.stop();
  });

  it('adds over TLS to a Redis Cluster whose bus is TLS too, and reports the failure without the CA', async () => {
    // Three TLS-only masters (devtools, tls-cluster yes) serving the 127.0.0.1 certificate above;
    // the cluster bus always asks the connecting node for a certificate: a clientAuth one.
    cluster = await startRedisCluster(3, { tls: clusterTlsFiles });
    expect(cluster.url).toMatch(/^rediss\+cluster:\/\//);
    // Two seed nodes, as an operator would name them; the third is found through CLUSTER SLOTS.
    const url = `rediss+cluster://${cluster.nodeUrls
      .slice(0, 2)
      .map((u) => new URL(u).host)
      .join(',')}`;
    const prefix = `{hg-tls-cluster-${randomUUID()}}`;
    const uid = randomUUID();
    const { output } = await producerAdd(url, prefix, uid, true);
    expect(output.result?.outcome).toBe('added');
    const seed = new URL(cluster.nodeUrls[0]!);
    clusterReader = new Cluster([{ host: seed.hostname, port: Number(seed.port) }], {
      dnsLookup: (address, done) => done(null, address),
      redisOptions: { tls: { ca: caPem }, maxRetriesPerRequest: 1 },
    });
    const stored = await clusterReader.hget(
      jobKey(prefix, reconcileQueueName(SAMPLE_PLUGIN), output.result!.jobId),
      'data',
    );
    expect(JSON.parse(stored!) as StoredSideEffectJob).toMatchObject({ plugin: SAMPLE_PLUGIN, admission: { uid } });

    const otherPrefix = `{hg-tls-cluster-${randomUUID()}}`;
    const refused = await producerAdd(url, otherPrefix, randomUUID(), false);
    expect(refused.output.result).toBeUndefined();
    expect(refused.output.error).toMatch(/HG_ERR_QUEUE_UNAVAILABLE|not connected/);
    // ioredis's Cluster client reports its own message ("Failed to refresh slots cache."), with the
    // last node's error appended by describeRedisError; for TLS that is only "Connection is closed."
    // (ioredis does not keep the certificate error): pinned loosely.
    expect(refused.output.connectionError).toMatch(/slots cache.*last node error: /i);
    expect(refused.ms).toBeLessThan(20_000);
    const left = await Promise.all(clusterReader.nodes('master').map((n) => n.keys(`${otherPrefix}:*`)));
    expect(left.flat()).toEqual([]);
  });
});

describe('hookgate queue status --redis rediss://', () => {
  it('counts the queues over TLS when the CLI trusts the CA, and names the certificate problem when not', async () => {
    const prefix = `{hg-tls-${randomUUID()}}`;
    try {
      expect((await producerAdd(redis.url, prefix, randomUUID(), true)).output.result?.outcome).toBe('added');
      const args = ['queue', 'status', '--redis', redis.url, '--prefix', prefix, '--output', 'json'];
      const ok = await runCli(args, { env: trust(true) });
      expect(ok.stderr).toBe('');
      expect(ok.code).toBe(0);
      const status = JSON.parse(ok.stdout) as {
        redis: string;
        queues: { plugin: string; counts: { waiting: number } }[];
      };
      expect(status.redis).toBe(redis.url);
      expect(status.queues.map((q) => [q.plugin, q.counts.waiting])).toEqual([[SAMPLE_PLUGIN, 1]]);

      const started = Date.now();
      const refused = await runCli(args, { env: trust(false) });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(new RegExp(`^hookgate queue status: cannot reach Redis at ${redis.url}: `));
      expect(refused.stderr).toMatch(UNTRUSTED);
      expect(refused.stderr).toMatch(
        /; trust the Redis server's CA with NODE_EXTRA_CA_CERTS=<ca\.pem> \(read when the process starts\)\n$/,
      );
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await deletePrefix(prefix);
    }
  });
});

describe('the gateway with redis.url rediss://', () => {
  const PLUGIN = 'behaviours';
  const HOOK = 'side-effect.plugin.test';
  let plugin: PluginProcess;
  beforeAll(async () => {
    plugin = await startPlugin('behaviour-plugin.ts', [`unix://${join(dir, 'behaviours.sock')}`, PLUGIN]);
  });
  afterAll(() => plugin?.stop());

  async function gatewayWith(prefix: string, trusted: boolean) {
    const config = gatewayConfigYaml(
      [
        webhookConfiguration('validating', 'tls-side-effects', [
          {
            name: HOOK,
            clientConfig: { plugin: PLUGIN },
            sideEffects: 'NoneOnDryRun',
            failurePolicy: 'Ignore',
          },
        ]),
      ],
      {
        plugins: [{ name: PLUGIN, target: plugin.target }],
        extra: { redis: { url: redis.url, prefix, addTimeoutMs: 1000 } },
      },
    );
    return startGateway({ config, env: trust(trusted) });
  }

  it('stores the side-effect job over TLS before answering, with NODE_EXTRA_CA_CERTS set for the gateway', async () => {
    const prefix = `{hg-tls-${randomUUID()}}`;
    const gateway = await gatewayWith(prefix, true);
    const client = new AdmissionClient(gateway.admissionUrl);
    try {
      const uid = randomUUID();
      const name = `web-${uid.slice(0, 8)}`;
      const answer = await client.post('/validate', podCreateReview({ uid, name, namespace: 'default' }), {
        timeout: '10s',
      });
      expect(answer.review.response?.allowed).toBe(true);
      const jobId = computeJobId({
        plugin: PLUGIN,
        requestUid: uid,
        hook: HOOK,
        effectKind: 'reservation',
        effectKey: `default/${name}`,
      });
      const stored = await reader.hget(jobKey(prefix, reconcileQueueName(PLUGIN), jobId), 'data');
      expect(JSON.parse(stored!) as StoredSideEffectJob).toMatchObject({ plugin: PLUGIN, admission: { uid, name } });
      expect(gateway.logs.filter((l) => UNTRUSTED.test(JSON.stringify(l)))).toEqual([]);
    } finally {
      await client.close();
      await gateway.stop();
      await deletePrefix(prefix);
    }
  });

  it('without the CA trusted, logs the certificate problem and stores nothing', async () => {
    const prefix = `{hg-tls-${randomUUID()}}`;
    const gateway = await gatewayWith(prefix, false);
    try {
      await gateway.waitForLog((l) => UNTRUSTED.test(String(l['error'] ?? '')), 15_000);
      expect(await reader.keys(`${prefix}:*`)).toEqual([]);
    } finally {
      await gateway.stop();
    }
  });
});
