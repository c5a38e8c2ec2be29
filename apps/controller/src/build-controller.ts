/**
 * The controller from its configuration: one BullMQ Worker per served plugin's queue, each
 * running processJob (@hookgate/queue) against the apiserver and the plugin's Reconcile, the
 * health/metrics listener, the periodic resync (resync-job.ts), the read-only dashboard
 * (dashboard.ts), and a bounded stop. Served plugins are the configured ones and, with
 * `registeredPlugins.enabled`, those registered at run time with a gateway's Registry
 * (registered-plugins-watcher.ts): their workers start and stop as gateways publish them.
 *
 *   const controller = await buildController(config, { logger });
 *   process.once('SIGTERM', () => void controller.close().then(() => process.exit(0)));
 *
 * Stopping: workers stop taking jobs and running jobs get `shutdownTimeoutMs` to finish. After
 * that, Reconcile calls in flight are cancelled and the Redis connections dropped: the unfinished
 * jobs keep their lock until it lapses, then stall and run again on another (or the next)
 * controller. A Reconcile is idempotent, so running one twice is safe; waiting forever is not.
 */
import { readFileSync } from 'node:fs';
import { loadPluginTls } from '@hookgate/config';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { Registry } from 'prom-client';
import { loadKubeConfig } from '@hookgate/kubernetes';
import {
  createLogger,
  createMetricsRegistry,
  registryMetricsSource,
  startHealthListener,
  type HealthListener,
  type Logger,
} from '@hookgate/observability';
import { createPluginClient, type PluginClient, type PluginTls } from '@hookgate/plugin-client';
import { startDashboard, type Dashboard } from './dashboard.js';
import { isResyncJob, runResyncJob, upsertResyncScheduler } from './resync-job.js';
import {
  REDIS_CLIENT_BEHAVIOUR,
  buildBackoffStrategy,
  createRedisClient,
  pluginClientReconciler,
  unknownPluginOutcome,
  processJob,
  readRegisteredPlugins,
  reconcileQueueName,
  redactRedisUrl,
  type ProcessJobDeps,
  type PublishedPluginTls,
  type RedisClient,
  type ResyncResult,
  type ReadObject,
} from '@hookgate/queue';
import { kubernetesObjectReader } from '@hookgate/queue/kubernetes';
import { applyResult, honourAttemptDelay, type CompletedReconcile } from './apply-result.js';
import type { ControllerConfig, ControllerPlugin } from './config.js';
import { createControllerMetrics, type QueueProbe } from './metrics.js';
import { watchRegisteredPlugins, type RegisteredPluginsWatcher } from './registered-plugins-watcher.js';
import { bounded as boundedBy, sleep } from './timing.js';
import { watchUnservedQueues } from './unserved-queues.js';

export interface ControllerOptions {
  readonly logger?: Logger;
  /** Where metrics go (a fresh registry with process metrics by default). */
  readonly registry?: Registry;
  /** Replaces the apiserver reader built from `config.kubernetes` (the one faked part in tests). */
  readonly readObject?: ReadObject;
  readonly now?: () => number;
}

export interface Controller {
  readonly health: HealthListener;
  /** The read-only dashboard's URL, when enabled. */
  readonly dashboardUrl: string | undefined;
  readonly registry: Registry;
  /** Undefined when every Redis connection is ready. */
  notReadyReason(): string | undefined;
  /** Resolves once stopped; `forced` when running jobs were still running near shutdownTimeoutMs (cancelled). */
  close(): Promise<{ readonly forced: boolean }>;
}

/** Bounds one queue-gauge read at scrape time: a Redis that does not answer must not hang /metrics. */
const PROBE_TIMEOUT_MS = 1_000;
/** At most this much of shutdownTimeoutMs goes to handing cancelled jobs back. */
const HAND_BACK_MAX_MS = 1_000;

export async function buildController(config: ControllerConfig, options: ControllerOptions = {}): Promise<Controller> {
  const logger = options.logger ?? createLogger({ component: 'controller', level: config.logLevel });
  checkClientTlsFiles(config.registeredPlugins.clientTls);
  const registry = options.registry ?? createMetricsRegistry({ collectDefault: true });
  const now = options.now ?? Date.now;
  const stopping = new AbortController();

  /** Every plugin whose queue is served now, configured or registered at run time. */
  const served = new Map<string, ServedPlugin>();
  const readObject =
    options.readObject ??
    kubernetesObjectReader(loadKubeConfig(config.kubernetes), { timeoutMs: config.readTimeoutMs });
  const deps: ProcessJobDeps = {
    readObject,
    // A plugin no longer served (deregistered mid-job) answers as unknown: the job waits, no attempt used.
    reconcile: pluginClientReconciler((name) => served.get(name)?.client, {
      timeoutMs: config.reconcileTimeoutMs,
      signal: stopping.signal,
    }),
    now,
    gracePeriodMs: config.graceMs,
    confirmDelayMs: config.confirmDelayMs,
    unavailableDelayMs: config.unavailableDelayMs,
  };

  const connections = new Set<RedisClient>();
  const connect = (role: string): RedisClient => {
    // Workers need maxRetriesPerRequest null: their blocking commands must wait out a Redis outage.
    const connection = createRedisClient(config.redis.url, REDIS_CLIENT_BEHAVIOUR.worker(), 'redis.url');
    // Once per outage, not once per reconnect attempt; /readyz says not ready meanwhile.
    let down = false;
    const redis = redactRedisUrl(config.redis.url);
    connection.on('error', (error: Error) => {
      if (down) return;
      down = true;
      logger.warn(
        { redis, role, err: error.message },
        'Redis connection lost: jobs wait until it is back (reconnecting)',
      );
    });
    connection.on('ready', () => {
      if (!down) return;
      down = false;
      logger.info({ redis, role }, 'Redis connection ready again');
    });
    connections.add(connection);
    return connection;
  };

  const queueConnection = connect('queues');
  // Queues in Redis this controller does not serve (a plugin removed while its jobs wait): measured too.
  const unserved = watchUnservedQueues({
    connection: queueConnection,
    prefix: config.redis.prefix,
    isServed: (plugin) => served.has(plugin),
    logger,
    probeTimeoutMs: PROBE_TIMEOUT_MS,
  });
  const metrics = createControllerMetrics(
    registry,
    () => [...served.values()].map((p) => p.probe),
    () => unserved.probes(),
  );

  const callOptions = () => ({ deadline: Date.now() + config.reconcileTimeoutMs, signal: stopping.signal });
  const resyncDeps = {
    readObject,
    now,
    signal: stopping.signal,
    listHeld: (plugin: string, request: Parameters<PluginClient['listHeldEffects']>[0]) =>
      served.get(plugin)?.client.listHeldEffects(request, callOptions()) ??
      Promise.resolve(unknownPluginOutcome(plugin)),
    reconcileOrphan: (plugin: string, request: Parameters<PluginClient['reconcileOrphan']>[0]) =>
      served.get(plugin)?.client.reconcileOrphan(request, callOptions()) ??
      Promise.resolve(unknownPluginOutcome(plugin)),
  };

  const backoffStrategy = honourAttemptDelay(buildBackoffStrategy(config.backoff), now);
  let dashboard: Dashboard | undefined;

  /** Starts serving one plugin's queue: its client, worker and events listener. */
  const servePlugin = (plugin: ControllerPlugin, registeredTls?: PublishedPluginTls): ServedPlugin => {
    const client = createPluginClient(plugin.name, plugin.target, {
      ...clientOptions(plugin, registeredTls),
      // Jobs of a failing plugin wait without a line each (debug); its circuit opening is the warn line.
      onCircuitStateChange: (name, state, previous) => {
        if (state === 'open') {
          logger.warn(
            { plugin: name, target: plugin.target, previous },
            `plugin ${name} keeps failing or not answering Reconcile: its jobs wait (no attempts used) until it answers its health check; check the plugin`,
          );
        } else if (state === 'closed') {
          logger.info({ plugin: name, previous }, `plugin ${name} answers again: its jobs resume`);
        }
      },
    });
    const queueName = reconcileQueueName(plugin.name);
    const queue = new Queue(queueName, { connection: queueConnection, prefix: config.redis.prefix });
    const workerConnection = connect(`worker ${plugin.name}`);
    const worker = new Worker<unknown, CompletedReconcile | ResyncResult>(
      queueName,
      async (job: Job, token?: string) => {
        if (isResyncJob(job)) {
          const context = { plugin: plugin.name, config: config.resync, deps: resyncDeps, logger, metrics };
          return runResyncJob(job, token, context);
        }
        const attempt = job.attemptsMade + 1;
        const result = await processJob({ data: job.data, state: job.progress }, deps, attempt);
        return applyResult(job, token, result, attempt, {
          plugin: plugin.name,
          logger,
          metrics,
          attempts: config.attempts,
          now,
        });
      },
      {
        connection: workerConnection,
        prefix: config.redis.prefix,
        concurrency: config.concurrency,
        lockDuration: config.lockDurationMs,
        stalledInterval: config.stalledIntervalMs,
        maxStalledCount: config.maxStalledCount,
        settings: { backoffStrategy },
      },
    );
    // A job whose lock lapsed (its controller died or was stopped mid-job) is run again; past
    // maxStalledCount BullMQ fails it in Redis without an event here (the failed-set gauge shows it).
    worker.on('stalled', (jobId: string) => {
      metrics.stalled.inc({ plugin: plugin.name });
      logger.warn(
        { plugin: plugin.name, jobId },
        `reconcile job stalled (its lock lapsed): it runs again, or fails after ${config.maxStalledCount} stall(s)`,
      );
    });
    worker.on('error', (error: Error) =>
      logger.error({ plugin: plugin.name, err: error.message }, 'reconcile worker error'),
    );

    // BullMQ fails a job that stalled more than maxStalledCount times inside Redis: only the queue's
    // event stream says so. One QueueEvents (a blocking connection) per queue.
    const eventsConnection = connect(`events ${plugin.name}`);
    const events = new QueueEvents(queueName, { connection: eventsConnection, prefix: config.redis.prefix });
    events.on('failed', ({ jobId, failedReason }) => {
      if (!/stalled more than allowable limit/.test(failedReason)) return;
      metrics.stalledFailed.inc({ plugin: plugin.name });
      logger.warn(
        { plugin: plugin.name, jobId, maxStalledCount: config.maxStalledCount },
        'reconcile job moved to the failed set after stalling too often (its controllers died or stopped mid-job each time): retry it with `hookgate queue retry`',
      );
    });
    events.on('error', (error: Error) =>
      logger.error({ plugin: plugin.name, err: error.message }, 'queue events listener error'),
    );
    const entry: ServedPlugin = {
      plugin,
      client,
      queue,
      worker,
      events,
      connections: [workerConnection, eventsConnection],
      probe: probeOf(plugin.name, queue),
    };
    served.set(plugin.name, entry);
    dashboard?.addQueue(queue);
    return entry;
  };

  // Every controller upserts the same schedulers: idempotent. A Redis down at start only delays it.
  const scheduleResync = async (entry: ServedPlugin): Promise<void> => {
    const plugin = entry.plugin.name;
    try {
      await bounded(upsertResyncScheduler(entry.queue, plugin, config.resync), config.readTimeoutMs);
    } catch (error) {
      logger.warn(
        { plugin, err: error instanceof Error ? error.message : String(error) },
        'could not schedule the periodic resync (Redis not answering): it is scheduled when a controller starts with Redis up',
      );
    }
  };

  /** Stops serving one plugin: its worker gets shutdownTimeoutMs for running jobs, as at a stop. */
  const unservePlugin = async (name: string): Promise<void> => {
    const entry = served.get(name);
    if (entry === undefined) return;
    // From here its jobs' Reconcile calls answer unknown plugin: they wait without using attempts.
    served.delete(name);
    dashboard?.removeQueue(entry.queue);
    const closed = await Promise.race([
      entry.worker.close().then(() => true),
      sleep(config.shutdownTimeoutMs).then(() => false),
    ]);
    if (!closed) {
      logger.warn(
        { plugin: name, shutdownTimeoutMs: config.shutdownTimeoutMs },
        'jobs still running when its worker stopped: abandoning them (their lock lapses, then they run again)',
      );
    }
    await Promise.race([Promise.all([entry.queue.close(), entry.events.close()]), sleep(PROBE_TIMEOUT_MS)]);
    for (const connection of entry.connections) {
      connections.delete(connection);
      connection.disconnect();
    }
    entry.client.close();
  };

  await Promise.all(config.plugins.map((plugin) => scheduleResync(servePlugin(plugin))));

  let stopRequested = false;
  const notReadyReason = (): string | undefined => {
    if (stopRequested) return 'stopping';
    const waiting = [...connections].filter((c) => c.status !== 'ready').length;
    return waiting === 0
      ? undefined
      : `${waiting} Redis connection(s) to ${redactRedisUrl(config.redis.url)} not ready`;
  };
  const health = await startHealthListener({
    host: config.health.host,
    port: config.health.port,
    metrics: registryMetricsSource(registry),
    notReadyReason,
  });
  if (config.dashboard.enabled) {
    try {
      dashboard = await startDashboard(
        [...served.values()].map((p) => p.queue),
        config.dashboard,
      );
    } catch (error) {
      await health.close();
      throw new Error(
        `the dashboard cannot listen on ${config.dashboard.host}:${config.dashboard.port}: ${error instanceof Error ? error.message : String(error)}; set dashboard.port, or dashboard.enabled: false`,
      );
    }
  }
  let watcher: RegisteredPluginsWatcher | undefined;
  if (config.registeredPlugins.enabled) {
    watcher = await watchRegisteredPlugins({
      read: () => bounded(readRegisteredPlugins(queueConnection, config.redis.prefix), config.readTimeoutMs),
      staticPlugins: config.plugins,
      pollMs: config.registeredPlugins.pollMs,
      logger,
      // TLS as registered; the client identity presented (mTLS) is this controller's own setting.
      start: async (plugin) =>
        scheduleResync(
          servePlugin(
            {
              name: plugin.name,
              target: plugin.target,
              ...(plugin.tls === undefined || config.registeredPlugins.clientTls === undefined
                ? {}
                : { tls: config.registeredPlugins.clientTls }),
            },
            plugin.tls,
          ),
        ),
      stop: unservePlugin,
    });
  }
  logger.info(
    {
      plugins: config.plugins.map((p) => p.name),
      registeredPlugins: watcher?.served() ?? 'not followed',
      redis: redactRedisUrl(config.redis.url),
      prefix: config.redis.prefix,
      health: health.url,
      dashboard: dashboard?.url,
      resyncIntervalMs: config.resync.intervalMs,
    },
    `controller started: reconciling side effects${dashboard ? `; queue dashboard (read-only) at ${dashboard.url}` : ''}`,
  );

  let closing: Promise<{ forced: boolean }> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopRequested = true;
      await watcher?.close();
      const stopped = [...served.values()];
      const workersClosed = Promise.all(stopped.map((p) => p.worker.close())).then(() => true);
      const within = (ms: number) => Promise.race([workersClosed, sleep(ms).then(() => false)]);
      // The last part of the budget is for handing jobs back: cancelled Reconcile calls come back
      // as 'canceled', which delays the job without using an attempt (no lock to wait out).
      const handBackMs = Math.min(HAND_BACK_MAX_MS, Math.floor(config.shutdownTimeoutMs / 4));
      let inTime = await within(config.shutdownTimeoutMs - handBackMs);
      if (!inTime) {
        stopping.abort();
        inTime = await within(handBackMs);
        if (!inTime) {
          logger.warn(
            { shutdownTimeoutMs: config.shutdownTimeoutMs },
            'jobs still running at the shutdown timeout: abandoning them (their lock lapses, then they run again)',
          );
        }
      }
      const forced = stopping.signal.aborted;
      stopping.abort();
      await Promise.race([
        Promise.all([...stopped.flatMap((p) => [p.queue.close(), p.events.close()]), unserved.close()]),
        sleep(PROBE_TIMEOUT_MS),
      ]);
      await dashboard?.close();
      // Dropping the connections also ends abandoned jobs' lock renewal: they stall and run again.
      for (const connection of connections) connection.disconnect();
      for (const p of stopped) p.client.close();
      await health.close();
      logger.info({ forced }, 'controller stopped');
      return { forced };
    })());

  return { health, dashboardUrl: dashboard?.url, registry, notReadyReason, close };
}

/** One plugin's queue as this controller serves it. */
interface ServedPlugin {
  readonly plugin: ControllerPlugin;
  readonly client: PluginClient;
  readonly queue: Queue;
  readonly worker: Worker;
  readonly events: QueueEvents;
  /** The worker's and the events listener's own connections (the queue shares one). */
  readonly connections: readonly RedisClient[];
  readonly probe: QueueProbe;
}

/**
 * The client identity for registered plugins is read at every start of one: an unreadable file
 * would only show when a TLS plugin registers. Said at start instead.
 */
function checkClientTlsFiles(clientTls: ControllerConfig['registeredPlugins']['clientTls']): void {
  if (clientTls === undefined) return;
  for (const [field, file] of [
    ['certFile', clientTls.certFile],
    ['keyFile', clientTls.keyFile],
  ] as const) {
    try {
      readFileSync(file);
    } catch (error) {
      throw new Error(
        `registeredPlugins.clientTls.${field}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}): give the client certificate and key presented to plugins registered with TLS, or remove registeredPlugins.clientTls`,
      );
    }
  }
}

/** The configured TLS files read, plus a registered plugin's CA and server name (public material). */
function clientOptions(plugin: ControllerPlugin, registered?: PublishedPluginTls): { tls?: PluginTls } {
  const files = loadPluginTls(plugin.tls);
  if (registered === undefined) return files === undefined ? {} : { tls: files };
  return {
    tls: {
      ...files,
      ca: registered.ca,
      ...(registered.serverName === undefined ? {} : { serverName: registered.serverName }),
    },
  };
}

function probeOf(plugin: string, queue: Queue): QueueProbe {
  return {
    plugin,
    getJobCounts: (...types) => bounded(queue.getJobCounts(...(types as Parameters<Queue['getJobCounts']>))),
    oldestWaitingTimestamp: async () => {
      const [oldest] = await bounded(queue.getJobs(['wait'], 0, 0, true));
      return oldest?.timestamp;
    },
  };
}

function bounded<T>(promise: Promise<T>, ms = PROBE_TIMEOUT_MS): Promise<T> {
  return boundedBy(promise, ms);
}
