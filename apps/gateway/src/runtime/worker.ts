/**
 * A gateway worker (node:cluster): waits for the configuration (and registry snapshot) from the
 * primary, serves the admission listener (port shared across workers by the cluster), applies new
 * configurations and registry snapshots as they come, and on shutdown stops accepting, finishes
 * in-flight requests and closes its channels.
 */
import cluster from 'node:cluster';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { LoadedConfiguration } from '@hookgate/config';
import {
  createGatewayMetrics,
  createLogger,
  createMetricsRegistry,
  createWorkerProcessRegistry,
  exposeWorkerMetrics,
  type Logger,
} from '@hookgate/observability';
import { createBridgeInvoker } from '../bridge/bridge-invoker.js';
import { unresolvedServiceLog } from '../bridge/unresolved-service-log.js';
import { buildGateway } from '../server/build-gateway.js';
import { hostname } from 'node:os';
import { primaryJobChannel } from '../queue/job-channel.js';
import { createUnrecordedCounter } from '../queue/queue-metrics.js';
import { WorkerJobRecorder } from '../queue/worker-job-recorder.js';
import { loggingSideEffectSink, queuedSideEffectSink, type SideEffectSink } from '../server/side-effects.js';
import { openTlsMaterial, type TlsMaterialSource } from '../tls/index.js';
import type { WorkerMessage } from './messages.js';
import { openPrimaryInbox } from './primary-inbox.js';
import { keepWorkerMetrics } from './metric-ownership.js';
import type { ServeOptions } from './serve-options.js';
import { WorkerState } from './worker-state.js';

export async function runWorker(options: ServeOptions): Promise<void> {
  // Reloads are the primary's job; a SIGHUP sent to the whole process group must not kill a worker.
  process.on('SIGHUP', () => undefined);
  const log = createLogger({
    component: 'gateway',
    level: options.logLevel ?? 'info',
    base: { worker: cluster.worker?.id ?? 0 },
  });
  const workerId = String(cluster.worker?.id ?? 0);
  const registry = createMetricsRegistry();
  const metrics = createGatewayMetrics(registry, { worker: workerId });
  keepWorkerMetrics(registry, metrics);
  // Process and Node metrics per worker (labelled worker="<id>"); the hook metrics summed.
  exposeWorkerMetrics([registry, createWorkerProcessRegistry(workerId)]);

  const inbox = openPrimaryInbox(send);
  const first = await inbox.first;
  const gateway = first.configuration.gateway;
  if (options.logLevel === undefined) log.level = gateway.logLevel;
  const state = new WorkerState(log, metrics);
  await state.setBreakGlass(first.breakGlass !== undefined);
  await state.apply(first.generation, first.configuration, first.registry);

  const tls = gateway.admission.tls.disabled ? undefined : await openTls(first.configuration, log, metrics);
  let tokens = await readBearerTokens(gateway.admission.bearerTokenFile);
  const now = () => performance.now();
  const bridge = createBridgeInvoker({
    now,
    services: () => state.current().services,
    onServiceUnresolved: unresolvedServiceLog(log),
  });
  // Queuing is bound at start, like the listeners: to the Redis the primary opened its spool for
  // (a reload's `redis` applies at the next restart, for the primary and its workers alike).
  const sideEffectRedis = first.sideEffectRedis;
  const channel = sideEffectRedis === undefined ? undefined : primaryJobChannel(send);
  const jobs =
    channel === undefined || sideEffectRedis === undefined
      ? undefined
      : new WorkerJobRecorder({
          redis: sideEffectRedis,
          log,
          viaPrimary: channel.record,
          sendAcknowledged: channel.acknowledged,
        });
  const sideEffects: SideEffectSink =
    jobs === undefined
      ? loggingSideEffectSink(log, metrics)
      : queuedSideEffectSink({
          log,
          metrics,
          unrecorded: createUnrecordedCounter(registry),
          record: (batch, waitMs) => jobs.record(batch, waitMs),
          gateway: hostname(),
        });
  const app = buildGateway(
    { ...(tls ? { tls } : {}), ...(tokens.length > 0 ? { bearerTokens: () => tokens } : {}) },
    { state, bridge: bridge.invoke, logger: log, metrics, sideEffects, now },
  );
  try {
    await app.listen({ host: gateway.admission.host, port: gateway.admission.port });
  } catch (error) {
    // The primary says so once, for every worker, and exits: a gateway that cannot take
    // admission requests must not look alive (a static pod would otherwise never restart).
    const { code = 'UNKNOWN', message } = error as NodeJS.ErrnoException;
    const failed: WorkerMessage = {
      type: 'hookgate:listen-failed',
      address: hostPort(gateway.admission.host, gateway.admission.port),
      code,
      cause: message,
    };
    // Exit once the message is on its way (exiting at once could drop it).
    process.send?.(failed, undefined, {}, () => process.exit(LISTEN_FAILED_EXIT_CODE));
    return;
  }
  send({ type: 'hookgate:listening', port: (app.server.address() as AddressInfo).port });

  let closing: Promise<void> | undefined;
  const shutdown = (reason: string) => {
    closing ??= (async () => {
      log.info({ reason }, 'worker shutting down: no new connections, finishing in-flight requests');
      await app.close();
      // The last acknowledged jobs reach the primary's replay copy before this worker exits.
      await jobs?.close();
      channel?.close();
      await bridge.close();
      await state.close();
      tls?.close();
      log.info({}, 'worker stopped');
      process.exit(0);
    })();
    return closing;
  };

  inbox.deliverTo((message) => {
    if (message.type === 'hookgate:shutdown') void shutdown('asked by the primary');
    if (message.type === 'hookgate:side-effect-route') jobs?.setDirect(message.direct);
    if (message.type === 'hookgate:break-glass') {
      state.setBreakGlass(message.breakGlass !== undefined).then(
        () => sendApplied(state),
        (error: unknown) => log.error({ error: (error as Error).message }, 'could not apply the break-glass switch'),
      );
    }
    if (message.type === 'hookgate:configuration') {
      void (async () => {
        try {
          await state.setBreakGlass(message.breakGlass !== undefined);
          await state.apply(message.generation, message.configuration, message.registry);
          tokens = await readBearerTokens(message.configuration.gateway.admission.bearerTokenFile);
          sendApplied(state);
        } catch (error) {
          send({
            type: 'hookgate:apply-failed',
            generation: message.generation,
            registryGeneration: message.registry.generation,
            error: (error as Error).message,
          });
        }
      })();
    }
    if (message.type === 'hookgate:registry') {
      state.applyRegistry(message.registry).then(
        (rebuilt) => rebuilt && sendApplied(state),
        (error: unknown) => {
          const generation = state.current().generation;
          send({
            type: 'hookgate:apply-failed',
            generation,
            registryGeneration: message.registry.generation,
            error: (error as Error).message,
          });
        },
      );
    }
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal));
  // The primary is gone: nobody will route connections here any more.
  process.on('disconnect', () => void shutdown('primary disconnected'));
}

/** A worker that could not bind exits with this code; the primary does not replace it. */
export const LISTEN_FAILED_EXIT_CODE = 78; // EX_CONFIG: the address is the operator's to fix

function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** `sent`: called once the message is on its way (or at once without a channel). */
function send(message: WorkerMessage, sent?: () => void): void {
  if (process.send === undefined) return sent?.();
  process.send(message, undefined, {}, sent === undefined ? undefined : () => sent());
}

function sendApplied(state: WorkerState): void {
  const { generation, registryGeneration } = state.current();
  send({ type: 'hookgate:applied', generation, registryGeneration });
}

async function openTls(
  loaded: LoadedConfiguration,
  log: Logger,
  metrics: ReturnType<typeof createGatewayMetrics>,
): Promise<TlsMaterialSource> {
  const { tls } = loaded.gateway.admission;
  const source = await openTlsMaterial({
    stateDir: loaded.gateway.stateDir,
    ...(tls.certFile !== undefined ? { certFile: tls.certFile } : {}),
    ...(tls.keyFile !== undefined ? { keyFile: tls.keyFile } : {}),
    ...(tls.clientCAFile !== undefined ? { clientCAFile: tls.clientCAFile } : {}),
    log,
  });
  const record = (notAfter: Date) => metrics.tlsCertificateExpiry.set(notAfter.getTime() / 1000);
  record(source.current().notAfter);
  source.onChange((m) => record(m.notAfter));
  return source;
}

/** The token file holds one token (surrounding whitespace ignored); none configured → []. */
async function readBearerTokens(file: string | undefined): Promise<string[]> {
  if (file === undefined) return [];
  const token = (await readFile(file, 'utf8')).trim();
  if (token === '') throw new Error(`bearer token file ${file} is empty`);
  return [token];
}
