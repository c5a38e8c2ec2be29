/**
 * Pieces the end-to-end tests of the reconcile pipeline share (gateway → BullMQ → controller →
 * plugin Reconcile, with the fake apiserver): the reconcile test plugin and what it printed, the
 * controller's configuration with short timings, admission reviews whose objects the test then
 * stores in the fake apiserver as the apiserver would, and a BullMQ job's state read from Redis.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { computeJobId, jobKey, reconcileQueueName } from '@hookgate/queue';
import type { FakeApiServer } from './fake-apiserver.js';
import { startPlugin, type PluginProcess } from './plugin-process.js';
import type { AdmissionReview } from '@hookgate/admission';
import { wrapReview } from './admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from './gateway-config.js';

export const RECONCILE_HOOK = 'effect.reconcile.test';

/** test/fixtures/plugins/reconcile-plugin.ts; `hold-*` objects wait for `releaseFile`. */
/** `env`: RECONCILE_PLUGIN_TLS_CERT, _KEY (serve TLS) and _CLIENT_CA (require mTLS), PEM file paths. */
export function startReconcilePlugin(
  listen: string,
  name: string,
  releaseFile: string,
  env?: Readonly<Record<string, string>>,
): Promise<PluginProcess> {
  return startPlugin('reconcile-plugin.ts', [listen, name, releaseFile], env);
}

interface PrintedLine {
  readonly reconcile?: string;
  readonly applied?: string;
  readonly token: string;
  readonly outcome?: string;
}

/** The JSON lines a test plugin printed (its `listening` line and others left out). */
export function printedLines(plugin: PluginProcess): PrintedLine[] {
  return plugin
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as PrintedLine);
}

/** Reconcile calls and applications per request uid (the side effect's token), as the plugin saw them. */
export function reconcileCounts(plugin: PluginProcess, token: string): { calls: number; applied: string[] } {
  const lines = printedLines(plugin).filter((l) => l.token === token);
  return {
    calls: lines.filter((l) => l.reconcile !== undefined).length,
    applied: lines.filter((l) => l.applied !== undefined).map((l) => l.outcome ?? ''),
  };
}

/** Short timings so that a case takes seconds: grace, confirming read, stall check and backoff. */
export function controllerConfig(options: {
  redisUrl: string;
  prefix: string;
  plugins: readonly { name: string; target: string }[];
  kubeconfig: string;
  extra?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    redis: { url: options.redisUrl, prefix: options.prefix },
    plugins: options.plugins,
    kubernetes: { mode: 'kubeconfig', kubeconfig: options.kubeconfig },
    concurrency: 4,
    lockDurationMs: 2_500,
    stalledIntervalMs: 500,
    maxStalledCount: 2,
    graceMs: 300,
    confirmDelayMs: 800,
    unavailableDelayMs: 300,
    readTimeoutMs: 500,
    reconcileTimeoutMs: 1_500,
    attempts: 4,
    backoff: { baseMs: 100, capMs: 500 },
    shutdownTimeoutMs: 2_000,
    ...options.extra,
  };
}

export interface PodReview {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  /** metadata.uid the object has in the validating phase: the uid storage gives it. */
  readonly objectUid: string;
  readonly body: unknown;
  jobId(plugin: string): string;
}

/**
 * The reconcile tests' gateway configuration: the reconcile plugin's side-effecting hook (Fail) on
 * Pod CREATEs in namespace default, its jobs on `redisUrl` under `prefix`, short Redis timings.
 */
export function reconcileGatewayConfig(options: {
  readonly plugin: { readonly name: string; readonly target: string };
  readonly redisUrl: string;
  readonly prefix: string;
  readonly workers?: number;
}): string {
  const { plugin, redisUrl, prefix } = options;
  return gatewayConfigYaml(
    [
      webhookConfiguration('validating', 'reconcile-effects', [
        {
          name: RECONCILE_HOOK,
          clientConfig: { plugin: plugin.name },
          sideEffects: 'NoneOnDryRun',
          failurePolicy: 'Fail',
        },
      ]),
    ],
    {
      plugins: [plugin],
      ...(options.workers === undefined ? {} : { workers: options.workers }),
      extra: { redis: { url: redisUrl, prefix, identityCheckSeconds: 1, addTimeoutMs: 500 } },
    },
  );
}

/** A CREATE by alice of `object` (a v1 `kind` of `group`, served as `resource`), in an AdmissionReview as the apiserver sends it. */
export function createReviewBody(request: {
  readonly uid: string;
  readonly group: string;
  readonly kind: string;
  readonly resource: string;
  readonly name: string;
  readonly namespace: string;
  readonly object: Record<string, unknown>;
  readonly dryRun?: boolean;
}): AdmissionReview {
  const { uid, group, kind, resource, name, namespace, object } = request;
  return wrapReview({
    uid,
    kind: { group, version: 'v1', kind },
    resource: { group, version: 'v1', resource },
    name,
    namespace,
    operation: 'CREATE',
    userInfo: { username: 'alice', groups: ['system:authenticated'] },
    object,
    oldObject: null,
    dryRun: request.dryRun ?? false,
    options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
  });
}

/** A validating Pod CREATE as the apiserver sends it after mutation: final name, and the uid it will be stored with. */
export function podReview(namePrefix: string, namespace = 'default'): PodReview {
  const uid = randomUUID();
  const objectUid = randomUUID();
  const name = `${namePrefix}-${uid.slice(0, 8)}`;
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, uid: objectUid },
    spec: { containers: [{ name: 'app', image: 'app:1' }] },
  };
  return {
    uid,
    name,
    namespace,
    objectUid,
    body: createReviewBody({ uid, group: '', kind: 'Pod', resource: 'pods', name, namespace, object }),
    jobId: (plugin) =>
      computeJobId({
        plugin,
        requestUid: uid,
        hook: RECONCILE_HOOK,
        effectKind: 'effect',
        effectKey: `${namespace}/${name}`,
      }),
  };
}

/** Stores the reviewed Pod in the fake apiserver with the uid the review announced (the write after admission). */
export function storePod(api: FakeApiServer, review: PodReview): void {
  api.create(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: review.name, namespace: review.namespace, uid: review.objectUid },
    },
    { keepUid: true },
  );
}

export type JobState = 'completed' | 'failed' | 'delayed' | 'active' | 'waiting' | 'absent';

export interface JobView {
  readonly state: JobState;
  readonly returnvalue?: { outcome?: string; rule?: string; message?: string };
  readonly failedReason?: string;
  readonly attemptsMade?: number;
}

/** Where a job is, read from BullMQ's keys (the test does not run a BullMQ client of its own). */
export async function jobView(redis: Redis, prefix: string, plugin: string, jobId: string): Promise<JobView> {
  const queue = reconcileQueueName(plugin);
  const base = `${prefix}:${queue}`;
  const hash = await redis.hgetall(jobKey(prefix, queue, jobId));
  if (Object.keys(hash).length === 0) return { state: 'absent' };
  const [completed, failed, delayed, active, waiting] = await Promise.all([
    redis.zscore(`${base}:completed`, jobId),
    redis.zscore(`${base}:failed`, jobId),
    redis.zscore(`${base}:delayed`, jobId),
    redis.lpos(`${base}:active`, jobId),
    redis.lpos(`${base}:wait`, jobId),
  ]);
  const state: JobState =
    completed !== null
      ? 'completed'
      : failed !== null
        ? 'failed'
        : delayed !== null
          ? 'delayed'
          : active !== null
            ? 'active'
            : waiting !== null
              ? 'waiting'
              : 'absent';
  return {
    state,
    ...(hash['returnvalue'] ? { returnvalue: JSON.parse(hash['returnvalue']) as JobView['returnvalue'] } : {}),
    ...(hash['failedReason'] ? { failedReason: hash['failedReason'] } : {}),
    ...(hash['attemptsMade'] ? { attemptsMade: Number(hash['attemptsMade']) } : {}),
  };
}
