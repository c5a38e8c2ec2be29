/**
 * The controller on a real Redis Cluster and behind a real Sentinel (devtools starts both; killed by
 * pid): the gateway's producer adds jobs, the controller's workers run them through a real SDK
 * plugin, its resync job scheduler is upserted and its dashboard serves the queue. The jobs are
 * dryRun (no apiserver read; the kubeconfig points at a port nobody listens on).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capturedLogger,
  startRedisCluster,
  startRedisSentinel,
  type RedisClusterTopology,
  type RedisSentinelTopology,
} from '@hookgate/devtools';
import { createMetricsRegistry } from '@hookgate/observability';
import { definePlugin, servePlugin, type PluginServer } from '@hookgate/plugin-sdk';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { Queue } from 'bullmq';
import { REDIS_CLIENT_BEHAVIOUR, SideEffectProducer, createRedisClient, reconcileQueueName } from '@hookgate/queue';
import { sampleJob } from '@hookgate/queue/testing';
import { buildController } from './build-controller.js';
import { readControllerConfig } from './config.js';
import { writeUnreachableKubeconfig } from './test/unreachable-kubeconfig.js';

const reconciled: string[] = [];
const ledger = definePlugin({
  name: 'ledger',
  hooks: { 'claims.ledger.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
  reconcile(request) {
    reconciled.push(request.sideEffect.key);
    return { done: true, message: 'ok' };
  },
});

let tmp: TempDir;
let server: PluginServer;
let kubeconfig: string;
let cluster: RedisClusterTopology;
let sentinel: RedisSentinelTopology;
beforeAll(async () => {
  tmp = await tempDir('hookgate-controller-topologies-');
  server = await servePlugin(ledger, { listen: `unix://${path.join(tmp.dir, 'ledger.sock')}`, logger: false });
  kubeconfig = await writeUnreachableKubeconfig(tmp.dir);
  [cluster, sentinel] = await Promise.all([startRedisCluster(), startRedisSentinel()]);
}, 60_000);
afterAll(async () => {
  await server?.shutdown(200);
  await Promise.all([cluster?.stop(), sentinel?.stop()]);
  await tmp?.cleanup();
});

describe.each([
  { name: 'Redis Cluster', url: () => cluster.url },
  { name: 'Redis Sentinel', url: () => sentinel.url },
])('the controller on $name', ({ url }) => {
  it('reconciles every job the producer adds, schedules the resync and is ready', async () => {
    const prefix = `{hgtest-${randomUUID().slice(0, 8)}}`;
    const result = readControllerConfig(
      {
        redis: { url: url(), prefix },
        plugins: [{ name: 'ledger', target: server.target }],
        kubernetes: { mode: 'kubeconfig', kubeconfig },
        graceMs: 0,
        confirmDelayMs: 100,
        resync: { intervalMs: 60_000 },
        health: { host: '127.0.0.1', port: 0 },
        dashboard: { port: 0 },
        registeredPlugins: { enabled: true, pollMs: 200 },
        shutdownTimeoutMs: 2_000,
      },
      { configDir: tmp.dir, env: {} },
    );
    if (!result.ok) throw new Error(result.errors.join('\n'));
    const { logger } = capturedLogger('controller');
    const controller = await buildController(result.config, { logger, registry: createMetricsRegistry() });
    const producer = new SideEffectProducer({ redisUrl: url(), prefix });
    const connection = createRedisClient(url(), REDIS_CLIENT_BEHAVIOUR.worker());
    const queue = new Queue(reconcileQueueName('ledger'), { connection, prefix });
    try {
      await expect.poll(() => producer.connectionStatus, { timeout: 10_000 }).toBe('ready');
      const keys = Array.from({ length: 8 }, (_, i) => `${prefix}/claim-${i}`);
      for (const key of keys) {
        const job = sampleJob({ effect: { kind: 'claim', key } }, { uid: randomUUID(), dryRun: true });
        expect((await producer.add(job)).outcome).toBe('added');
      }
      await expect
        .poll(() => reconciled.filter((k) => k.startsWith(prefix)).sort(), { timeout: 20_000 })
        .toEqual(keys.sort());
      await expect.poll(async () => (await queue.getJobCounts('completed')).completed, { timeout: 10_000 }).toBe(8);
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toHaveLength(1);
      expect(controller.notReadyReason()).toBeUndefined();
      const page = await fetch(controller.dashboardUrl!);
      expect(page.status).toBe(200);
    } finally {
      await controller.close();
      await producer.close();
      await queue.close();
      connection.disconnect();
    }
  }, 60_000);
});
