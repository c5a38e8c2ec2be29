/**
 * The cluster primary: the one process that reads and validates the configuration (at start, on
 * file change and on SIGHUP), runs the Registry (registrations, leases, persistence), forks the
 * workers and sends each of them the configuration and every registry snapshot, serves /metrics
 * (aggregated across workers), /livez and /readyz, and runs the graceful shutdown.
 */
import cluster, { type Worker } from 'node:cluster';
import {
  ConfigurationHolder,
  formatConfigError,
  reloadOnSighup,
  watchConfiguration,
  type LoadedConfiguration,
} from '@hookgate/config';
import {
  clusterMetricsSource,
  createGatewayMetrics,
  createLogger,
  createMetricsRegistry,
  recordConfigReload,
  registerBuildInfo,
  startHealthListener,
  type HealthListener,
  type Logger,
} from '@hookgate/observability';
import { watchBreakGlass } from '../break-glass/index.js';
import { describeRuleOutside, rulesOutsideRegistration } from '../registration/index.js';
import { ensureSelfManagedCertificates } from '../tls/index.js';
import { GATEWAY_VERSION } from '../version.js';
import { breakGlassDetails, createBreakGlassGauge, reportBreakGlass } from './break-glass-report.js';
import { applyServeOptions } from './effective-configuration.js';
import { logListenFailure } from './listen-failure.js';
import { isWorkerMessage, type PrimaryMessage } from './messages.js';
import { keepPrimaryMetrics } from './metric-ownership.js';
import { openPrimaryRegistry, type PrimaryRegistry } from './primary-registry.js';
import type { ServeOptions } from './serve-options.js';
import { WorkerPool } from './worker-pool.js';
import { answerJobMessages } from '../queue/job-channel.js';
import type { JobRecorder } from '../queue/job-recorder.js';
import { openJobRecorder } from '../queue/open-job-recorder.js';
import {
  startRegisteredPluginsPublisher,
  type RegisteredPluginsPublisher,
} from '../queue/registered-plugins-publisher.js';

const SHUTDOWN_GRACE_MS = 35_000;

export async function runPrimary(options: ServeOptions): Promise<number> {
  const log = createLogger({ component: 'gateway', level: options.logLevel ?? 'info', base: { role: 'primary' } });
  // Set once the Registry runs: from then on, a reload whose static hooks or plugins take a name a
  // registration holds is refused like an invalid file (the store names both sides).
  let registry: PrimaryRegistry | undefined;
  const opened = await ConfigurationHolder.open(options.configPath, {
    prepare: (c) => {
      const prepared = applyServeOptions(c, options);
      const accepted = registry?.checkStatic(prepared, options.configPath);
      return accepted === undefined || accepted.ok ? { ok: true, value: prepared } : accepted;
    },
  });
  if (!opened.ok) {
    for (const e of opened.error) process.stderr.write(`${formatConfigError(e)}\n`);
    process.stderr.write(
      `hookgate: the configuration in ${options.configPath} is invalid (${opened.error.length} problem(s)); nothing started\n`,
    );
    return 1;
  }
  const holder = opened.value;
  const started = holder.current().prepared;
  const gateway = started.gateway;
  if (options.logLevel === undefined) log.level = gateway.logLevel;
  if (!gateway.admission.tls.disabled && gateway.admission.tls.certFile === undefined) {
    // Create the private CA once here, before the workers race for it (they would serialise on the lock).
    await ensureSelfManagedCertificates({ stateDir: gateway.stateDir, log });
  }

  const metricsRegistry = createMetricsRegistry();
  const metrics = createGatewayMetrics(metricsRegistry);
  keepPrimaryMetrics(metricsRegistry, metrics);
  registerBuildInfo(metricsRegistry, { version: GATEWAY_VERSION });
  recordConfigReload(metrics, { ok: true, generation: 1, at: holder.current().loadedAt });

  try {
    registry = await openPrimaryRegistry(started, log, metricsRegistry);
  } catch (error) {
    process.stderr.write(
      `hookgate: cannot serve the registry on ${gateway.registry.socket}: ${(error as Error).message}; nothing started\n`,
    );
    return 1;
  }
  const runningRegistry = registry;

  let jobs: JobRecorder | undefined;
  try {
    jobs = await openJobRecorder(gateway, log, metricsRegistry);
  } catch (error) {
    await runningRegistry.close();
    process.stderr.write(`hookgate: cannot open the side-effect queue: ${(error as Error).message}; nothing started\n`);
    return 1;
  }
  answerJobMessages(jobs);
  // Controllers learn from Redis where the plugins registered here listen (to call their Reconcile).
  const publisher: RegisteredPluginsPublisher | undefined =
    gateway.redis === undefined || gateway.registry.disabled
      ? undefined
      : startRegisteredPluginsPublisher({
          redis: gateway.redis,
          registrySocket: gateway.registry.socket,
          snapshot: () => runningRegistry.snapshot(),
          log,
        });

  // Break glass: read before the first worker asks for its configuration, followed from then on.
  const breakGlassGauge = createBreakGlassGauge(metricsRegistry);
  const breakGlass = await watchBreakGlass(gateway.stateDir, (state) => {
    reportBreakGlass(log, breakGlassGauge, state, gateway.stateDir);
    pool.broadcast({ type: 'hookgate:break-glass', ...(state ? { breakGlass: state } : {}) });
  });
  reportBreakGlass(log, breakGlassGauge, breakGlass.current(), gateway.stateDir, true);

  const configurationMessage = (): PrimaryMessage => {
    const glass = breakGlass.current();
    return {
      type: 'hookgate:configuration',
      generation: holder.generation,
      configuration: holder.current().prepared,
      registry: runningRegistry.snapshot(),
      ...(glass ? { breakGlass: glass } : {}),
      ...(jobs ? { sideEffectRedis: jobs.redis } : {}),
    };
  };
  const pool = new WorkerPool(gateway.workers, log, configurationMessage);
  let shuttingDown = false;
  let health: HealthListener;
  try {
    health = await startHealthListener({
      host: gateway.metrics.host,
      port: gateway.metrics.port,
      metrics: clusterMetricsSource(metricsRegistry),
      notReadyReason: () =>
        shuttingDown
          ? 'shutting down'
          : pool.listeningCount() === 0
            ? 'admission listener not accepting yet'
            : undefined,
      notLiveReason: () => pool.notLiveReason(),
      readyDetails: () => breakGlassDetails(breakGlass.current()),
    });
  } catch (error) {
    // The open registry socket would keep the process alive with nothing served.
    breakGlass.close();
    await Promise.all([runningRegistry.close(), publisher?.close()]);
    const { code = 'UNKNOWN', message } = error as NodeJS.ErrnoException;
    const address = urlOf('http', gateway.metrics.host, gateway.metrics.port).slice('http://'.length);
    logListenFailure(log, '/metrics, /livez and /readyz', address, code, message);
    return 1;
  }
  const metricsUrl = urlOf('http', gateway.metrics.host, health.port);

  // The configuration served before each reload: what the registration applied was printed from, at best.
  let served = started;
  holder.onReload((outcome) => {
    if (outcome.kind === 'unchanged') return log.debug({}, 'configuration files unchanged');
    if (outcome.kind === 'failed') {
      recordConfigReload(metrics, { ok: false });
      for (const e of outcome.errors)
        log.error({ file: e.file, document: e.document, field: e.field, rule: e.rule }, formatConfigError(e));
      return log.error(
        { generation: outcome.snapshot.generation, problems: outcome.errors.length },
        'configuration reload refused: still serving the last good configuration',
      );
    }
    recordConfigReload(metrics, { ok: true, generation: outcome.snapshot.generation, at: outcome.snapshot.loadedAt });
    warnAboutRestartOnlySettings(log, gateway, outcome.snapshot.prepared);
    warnAboutHooksOutsideRegistration(log, served, outcome.snapshot.prepared);
    served = outcome.snapshot.prepared;
    log.info(
      { generation: outcome.snapshot.generation, ...counts(outcome.snapshot.prepared) },
      'configuration reloaded',
    );
    pool.broadcast(configurationMessage());
  });
  // Every change goes out, renewals included: a worker's lease guard needs the new lease ends.
  runningRegistry.onChange((change) => {
    pool.broadcast({ type: 'hookgate:registry', registry: change.snapshot });
    // A renewal only moves a lease end: the periodic refresh carries it.
    if (change.reason !== 'renew') publisher?.changed();
  });
  const reload = () => void holder.reload();
  const watch = await watchConfiguration(options.configPath, reload, {
    onError: (e) => log.warn({ error: e.message }, 'stopped watching the configuration; SIGHUP still reloads'),
  });
  const unhookSighup = reloadOnSighup(reload);

  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isWorkerMessage(message)) return;
    if (message.type === 'hookgate:apply-failed') {
      log.error(
        {
          worker: worker.id,
          generation: message.generation,
          registryGeneration: message.registryGeneration,
          error: message.error,
        },
        'a worker could not apply the configuration or registrations; it keeps its previous hooks',
      );
    }
  });
  const scheme = gateway.admission.tls.disabled ? 'http' : 'https';
  pool.onAllListening((port) => {
    const registrations = runningRegistry.snapshot().registrations.length;
    log.info(
      {
        admissionUrl: urlOf(scheme, gateway.admission.host, port),
        metricsUrl,
        workers: gateway.workers,
        generation: holder.generation,
        ...counts(started),
        registrations,
      },
      'hookgate serving',
    );
  });
  pool.start();

  return new Promise<number>((resolve) => {
    /** `exitCode`: 0 when asked to stop; 1 when the gateway cannot go on (a listener, a crash loop). */
    const shutdown = async (signal: string, exitCode = 0) => {
      if (shuttingDown) return;
      shuttingDown = true;
      log.info({ signal }, 'shutting down: workers stop accepting and finish in-flight requests');
      watch.close();
      breakGlass.close();
      unhookSighup();
      // The registry stops taking registrations and writes its last state while workers drain.
      await Promise.all([pool.stop(SHUTDOWN_GRACE_MS), runningRegistry.close(), publisher?.close()]);
      // After the workers: their last reviews' jobs are recorded before the spool closes.
      await jobs?.close();
      await health.close();
      log.info({}, 'hookgate stopped');
      resolve(exitCode);
    };
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal));
    pool.onListenFailed((failure) => {
      logListenFailure(log, 'admission requests', failure.address, failure.code, failure.cause);
      void shutdown('admission listener could not bind', 1);
    });
    pool.onGaveUp(() => {
      log.fatal({}, 'workers keep crashing: giving up');
      void shutdown('crash loop', 1);
    });
  });
}

function counts(c: LoadedConfiguration) {
  let mutating = 0;
  let validating = 0;
  for (const w of c.webhookConfigurations) {
    if (w.kind === 'MutatingWebhookConfiguration') mutating += w.webhooks.length;
    else validating += w.webhooks.length;
  }
  return { mutatingHooks: mutating, validatingHooks: validating, plugins: c.gateway.plugins.length };
}

function urlOf(scheme: string, host: string, port: number): string {
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The apiserver sends the gateway only what the registration printed from the previous
 * configuration covers: hooks reaching further are served but not called until it is printed and
 * applied again. Said once per reload, with the rules concerned.
 */
function warnAboutHooksOutsideRegistration(
  log: Logger,
  previous: LoadedConfiguration,
  next: LoadedConfiguration,
): void {
  const outside = rulesOutsideRegistration(next.webhookConfigurations, previous);
  if (outside.length === 0) return;
  log.warn(
    {
      rules: outside.map((rule) =>
        describeRuleOutside(rule, 'not covered by the registration printed from the previous configuration'),
      ),
    },
    'the reloaded hooks reach requests the previous registration does not send to the gateway: apply the output of `hookgate print-webhooks` again',
  );
}

/** Listener, TLS and authentication settings are bound at start; say so instead of ignoring them silently. */
function warnAboutRestartOnlySettings(
  log: Logger,
  started: LoadedConfiguration['gateway'],
  next: LoadedConfiguration,
): void {
  const bound = (g: LoadedConfiguration['gateway']) =>
    JSON.stringify({
      admission: g.admission,
      metrics: g.metrics,
      stateDir: g.stateDir,
      workers: g.workers,
      registry: g.registry,
      redis: g.redis,
      spool: g.spool,
    });
  if (bound(started) !== bound(next.gateway)) {
    log.warn(
      {},
      'listener, TLS, authentication, registry, worker, redis or spool settings changed: they apply at the next restart; hooks, plugins and namespaces changed now',
    );
  }
}
