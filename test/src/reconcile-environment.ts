/**
 * What the reconcile pipeline's end-to-end test files start once and what their cases start each:
 * a temp dir, the fake apiserver and its kubeconfig, the shared Redis with a client of it, and the
 * reconcile test plugin (startReconcileEnvironment); per case a queue prefix of its own, gateways
 * and controllers, stopped after the case in reverse order (CaseCleanups); useReconcileEnvironment
 * wires both into a test file's hooks.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  deletePrefixedKeys,
  ensureRedis,
  startGateway,
  type GatewayProcess,
  type RedisHandle,
} from '@hookgate/devtools';
import { AdmissionClient } from './admission-client.js';
import { startController, type ControllerProcess } from './controller-process.js';
import { FakeApiServer } from './fake-apiserver.js';
import { fetchMetrics, sampleValue } from './metrics-text.js';
import type { PluginProcess } from './plugin-process.js';
import { startReconcilePlugin } from './reconcile-pipeline.js';

export interface ReconcileEnvironment {
  readonly dir: string;
  readonly api: FakeApiServer;
  readonly kubeconfig: string;
  readonly redis: RedisHandle;
  /** A client of the Redis (one try per command), to read jobs and delete a case's keys. */
  readonly redisClient: Redis;
  /** The reconcile test plugin, listening on a unix socket in `dir`. */
  readonly reconcilePlugin: PluginProcess;
  /** The file whose existence releases the plugin's `hold-*` objects. */
  readonly releaseFile: string;
  stop(): Promise<void>;
}

export interface ReconcileEnvironmentOptions {
  /** Names the temp dir (`hookgate-<name>-e2e-`) and the cases' queue prefixes. */
  readonly name: string;
  /** The reconcile plugin's name. */
  readonly plugin: string;
  /** The release file's name in `dir` (default `release`). */
  readonly releaseFile?: string;
  /** Resources the fake apiserver serves beyond its defaults, registered before the kubeconfig is written. */
  readonly prepareApi?: (api: FakeApiServer) => void;
}

export async function startReconcileEnvironment(options: ReconcileEnvironmentOptions): Promise<ReconcileEnvironment> {
  const dir = await mkdtemp(join(tmpdir(), `hookgate-${options.name}-e2e-`));
  const releaseFile = join(dir, options.releaseFile ?? 'release');
  let api: FakeApiServer | undefined;
  let redis: RedisHandle | undefined;
  let reconcilePlugin: PluginProcess | undefined;
  let redisClient: Redis | undefined;
  const stop = async () => {
    redisClient?.disconnect();
    await reconcilePlugin?.stop();
    await redis?.stop();
    await api?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    api = await FakeApiServer.start();
    options.prepareApi?.(api);
    const kubeconfig = await api.writeKubeconfig();
    [redis, reconcilePlugin] = await Promise.all([
      ensureRedis(),
      startReconcilePlugin(`unix://${join(dir, `${options.plugin}.sock`)}`, options.plugin, releaseFile),
    ]);
    redisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    return { dir, api, kubeconfig, redis, redisClient, reconcilePlugin, releaseFile, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** What a case started, stopped after it in reverse order: `run()` in afterEach. */
export class CaseCleanups {
  private readonly pending: (() => Promise<unknown>)[] = [];

  push(cleanup: () => Promise<unknown>): void {
    this.pending.push(cleanup);
  }

  async run(): Promise<void> {
    for (const cleanup of this.pending.splice(0).reverse()) await cleanup();
  }

  /** A queue prefix of the case's own (a hash tag, as the default), its keys deleted afterwards. */
  queuePrefix(redisClient: Redis, label: string): string {
    const prefix = `{${label}-${randomUUID().slice(0, 8)}}`;
    this.push(() => deletePrefixedKeys(redisClient, prefix));
    return prefix;
  }

  /** The gateway as its own process on `config` (and a state directory of the caller's), with a client. */
  async gateway(config: string, stateDir?: string): Promise<{ gateway: GatewayProcess; client: AdmissionClient }> {
    const starting = startGateway({ config, ...(stateDir ? { stateDir } : {}) });
    const opened: { client?: AdmissionClient } = {};
    // Registered before the start resolves: when a case fails meanwhile (a process started beside it
    // in Promise.all did not start), its cleanup still waits for this one and stops it.
    this.push(async () => {
      await opened.client?.close();
      await (await starting.catch(() => undefined))?.stop();
    });
    const started = await starting;
    const client = new AdmissionClient(started.admissionUrl);
    opened.client = client;
    return { gateway: started, client };
  }

  async controller(config: Record<string, unknown>): Promise<ControllerProcess> {
    const starting = startController(config);
    this.push(async () => (await starting.catch(() => undefined))?.stop());
    return starting;
  }
}

export interface ReconcileSuite extends Omit<ReconcileEnvironment, 'stop'> {
  readonly cleanups: CaseCleanups;
  /** A queue prefix of the current case's own (`{<name>-…}`), its keys deleted after the case. */
  casePrefix(): string;
}

/**
 * The environment of a test file: started in beforeAll, stopped in afterAll, the cases' cleanups run
 * in afterEach. Its fields are read inside hooks and tests (once beforeAll has run).
 */
export function useReconcileEnvironment(options: ReconcileEnvironmentOptions): ReconcileSuite {
  let env: ReconcileEnvironment | undefined;
  const started = (): ReconcileEnvironment => {
    if (env === undefined) throw new Error('the reconcile environment is read before beforeAll started it');
    return env;
  };
  const cleanups = new CaseCleanups();
  beforeAll(async () => {
    env = await startReconcileEnvironment(options);
  });
  afterAll(() => env?.stop());
  afterEach(() => cleanups.run());
  return {
    get dir() {
      return started().dir;
    },
    get api() {
      return started().api;
    },
    get kubeconfig() {
      return started().kubeconfig;
    },
    get redis() {
      return started().redis;
    },
    get redisClient() {
      return started().redisClient;
    },
    get reconcilePlugin() {
      return started().reconcilePlugin;
    },
    get releaseFile() {
      return started().releaseFile;
    },
    cleanups,
    casePrefix: () => cleanups.queuePrefix(started().redisClient, options.name),
  };
}

/** A sample's value on a /metrics page, 0 when absent. */
export async function metricValue(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  return sampleValue(await fetchMetrics(url), name, labels) ?? 0;
}
