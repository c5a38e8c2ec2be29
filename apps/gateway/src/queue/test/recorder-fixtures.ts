/** Jobs, recorders and Redis reads for the side-effect queue tests (real Redis, real spool files). */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger, createMetricsRegistry } from '@hookgate/observability';
import {
  buildSideEffectJob,
  createRedisClient,
  jobIdOf,
  jobKey,
  reconcileQueueName,
  type SideEffectJob,
  type StoredSideEffectJob,
} from '@hookgate/queue';
import type { Registry } from 'prom-client';
import { JobRecorder, type JobRecorderOptions } from '../job-recorder.js';
import { createSideEffectQueueMetrics } from '../queue-metrics.js';

export function sampleJob(plugin: string, key: string, uid = randomUUID()): SideEffectJob {
  return buildSideEffectJob({
    plugin,
    effect: { hook: `${plugin}.hookgate.test`, kind: 'claim', key },
    admission: {
      uid,
      operation: 'CREATE',
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: '',
      namespace: 'shop',
      name: key,
      generateName: '',
      dryRun: false,
      phase: 'validating',
    },
    decision: { allowed: true },
    gateway: 'test-gateway',
    time: Date.now(),
  });
}

export interface TestRecorder {
  readonly recorder: JobRecorder;
  readonly registry: Registry;
  /** Every log line so far, parsed. */
  readonly logs: Record<string, unknown>[];
}

export async function openTestRecorder(
  options: { redisUrl: string; prefix: string; dir: string; identityFile: string } & {
    maxBytes?: number;
    replayWindowMinutes?: number;
    addTimeoutMs?: number;
  },
): Promise<TestRecorder> {
  const logs: Record<string, unknown>[] = [];
  const destination = new Writable({
    write: (chunk: Buffer, _e, done) => (logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()),
  });
  const registry = createMetricsRegistry();
  const recorderOptions: JobRecorderOptions = {
    redis: {
      url: options.redisUrl,
      prefix: options.prefix,
      addTimeoutMs: options.addTimeoutMs ?? 1000,
      connectTimeoutMs: 500,
      identityCheckSeconds: 1,
    },
    spool: {
      dir: options.dir,
      maxBytes: options.maxBytes ?? 1024 * 1024,
      replayWindowMinutes: options.replayWindowMinutes ?? 10,
    },
    identityFile: options.identityFile,
    log: createLogger({ component: 'test', level: 'debug', destination }),
    metrics: (source) => createSideEffectQueueMetrics(registry, source),
    maintenanceIntervalMs: 100,
  };
  return { recorder: await JobRecorder.open(recorderOptions), registry, logs };
}

/** The job as stored in its plugin's queue, or null. */
export async function storedJob(
  redisUrl: string,
  prefix: string,
  job: SideEffectJob,
): Promise<StoredSideEffectJob | null> {
  const client = testClient(redisUrl);
  try {
    const data = await client.hget(jobKey(prefix, reconcileQueueName(job.plugin), jobIdOf(job)), 'data');
    return data === null ? null : (JSON.parse(data) as StoredSideEffectJob);
  } finally {
    client.disconnect();
  }
}

/** Deletes every key under the prefix (a test's own queues). */
export async function deletePrefix(redisUrl: string, prefix: string): Promise<void> {
  const client = testClient(redisUrl);
  try {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}

/** One sample of a metric in the registry's exposition, or 0 when it has none. */
export async function metricValue(registry: Registry, sample: string): Promise<number> {
  const text = await registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? 0 : Number(line.slice(sample.length + 1));
}

/** A client of any topology (a Sentinel URL too) that retries once, for the tests' own reads. */
function testClient(redisUrl: string) {
  return createRedisClient(redisUrl, {
    maxRetriesPerRequest: 1,
    offlineQueue: true,
    retryDelayMs: (times) => Math.min(times * 100, 1_000),
  });
}
