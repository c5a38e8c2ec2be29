/**
 * servePlugin: a plugin as a gRPC server. Unary Admit, multiplexed AdmitStream, Describe,
 * Reconcile and grpc.health.v1, over a unix socket or TCP, with graceful shutdown.
 */
import * as grpc from '@grpc/grpc-js';
import client from 'prom-client';
import { AdmissionPluginService, HealthService, MAX_MESSAGE_BYTES } from '@hookgate/proto';
import type {
  AdmissionPluginHandlers,
  AdmitRequest__Output,
  AdmitResponse,
  BatchedCall__Output,
  DescribeResponse,
} from '@hookgate/proto';
import type { AdmissionRequest } from '@hookgate/admission';
import { admit } from './admit.js';
import { HealthState } from './health.js';
import type { HookCallError } from './hook-call-error.js';
import { type PluginLogger, resolveLogger } from './logger.js';
import { bindAddress, parseListen, removeStaleSocket } from './listen.js';
import { type AdmitOutcome, type PluginMetrics, createPluginMetrics } from './metrics.js';
import { startMetricsListener, type MetricsListener } from './metrics-listener.js';
import { reconcile } from './reconcile.js';
import { listHeldEffects, reconcileOrphan } from './resync.js';
import { SelfRegistration, type SelfRegistrationOptions } from './registration/index.js';
import type { Plugin } from './types.js';
import { SDK_IMPLEMENTATION } from './version.js';

export interface ServeOptions {
  /** `unix:///run/hookgate/my-plugin.sock` or `127.0.0.1:7001` (port 0 picks a free port). */
  readonly listen: string;
  /** PEM key and certificate; with clientCa, clients must present a certificate it signed. */
  readonly tls?: { readonly key: string | Buffer; readonly cert: string | Buffer; readonly clientCa?: string | Buffer };
  /** How long shutdown() waits for in-flight calls before cutting them (default 10 s). */
  readonly shutdownGraceMs?: number;
  /** prom-client metrics: a registry to register into (a new one by default), optionally served at GET /metrics. */
  readonly metrics?: { readonly registry?: client.Registry; readonly listen?: string } | boolean;
  /** pino by default; `false` for none. */
  readonly logger?: PluginLogger | false;
  /** On SIGTERM/SIGINT: shut down gracefully, then exit the process. Off by default. */
  readonly handleSignals?: boolean;
  readonly serverOptions?: grpc.ServerOptions;
  /**
   * Declare `admit_batch` in Describe (default true): the gateway then sends the hooks of one phase
   * that run concurrently in one message, which this server answers call by call. Handlers do not
   * change; `false` only to compare or to debug.
   */
  readonly admitBatch?: boolean;
  /**
   * Register with the gateway's Registry and keep the lease renewed: retries with backoff until the
   * gateway answers, registers again at once after a gateway restart. Shutting down keeps the
   * registration (failurePolicy Fail hooks fail closed while the plugin is away) unless
   * `deregisterOnShutdown` is set.
   */
  readonly register?: SelfRegistrationOptions;
}

export interface PluginServer {
  readonly plugin: Plugin;
  /** A target for the gateway: `unix:///path.sock` or `host:port` with the bound port. */
  readonly target: string;
  readonly health: HealthState;
  /** The registry metrics are in, when enabled. */
  readonly metrics: client.Registry | undefined;
  /** `host:port` of the /metrics listener, when enabled. */
  readonly metricsAddress: string | undefined;
  /** Present when `register` was given. */
  readonly registration: SelfRegistration | undefined;
  /** Stops accepting, answers what is in flight (streams included), then closes. Idempotent. */
  shutdown(graceMs?: number): Promise<void>;
}

const PLUGIN_SERVICE = 'hookgate.plugin.v1.AdmissionPlugin';

interface OpenStream {
  pending: number;
  /** The client ended its side: end ours once the pending messages are answered. */
  halfClosed: boolean;
  closed: boolean;
  readonly call: grpc.ServerDuplexStream<AdmitRequest__Output, AdmitResponse>;
}

export async function servePlugin(plugin: Plugin, options: ServeOptions): Promise<PluginServer> {
  const logger = resolveLogger(plugin.name, options.logger);
  const address = parseListen(options.listen);
  const health = new HealthState(['', PLUGIN_SERVICE], 'NOT_SERVING');
  const metrics = resolveMetrics(plugin.name, options.metrics);
  const streams = new Set<OpenStream>();
  let draining = false;

  const logFailure = (
    error: HookCallError,
    message: AdmitRequest__Output,
    request: AdmissionRequest | undefined,
  ): void => {
    logger.warn(
      {
        plugin: plugin.name,
        hook: message.hook,
        uid: request?.uid ?? message.uid,
        kind: request?.kind?.kind,
        namespace: request?.namespace,
        // Not `name`: pino-pretty shows that field as the logger's name.
        objectName: request?.name,
        operation: request?.operation,
        code: grpc.status[error.code],
        err: error.cause instanceof Error ? { type: error.cause.name, stack: error.cause.stack } : undefined,
      },
      error.message,
    );
  };

  const observe = (
    message: AdmitRequest__Output,
    started: number,
    error: HookCallError | null,
    response: AdmitResponse | null,
  ): void => {
    if (metrics === undefined) return;
    const outcome: AdmitOutcome =
      error !== null
        ? 'error'
        : response?.allowed === false
          ? 'denied'
          : response?.patch !== undefined
            ? 'patched'
            : 'allowed';
    metrics.metrics.observeAdmit(message.hook, outcome, (performance.now() - started) / 1000);
    const reported = response?.sideEffects?.length ?? 0;
    if (reported > 0) metrics.metrics.countSideEffects(message.hook, reported);
  };

  // A last net under the answer path: whatever happens while answering is logged, never a crash.
  const guarded = (answer: () => void): void => {
    try {
      answer();
    } catch (error) {
      logger.error(
        {
          plugin: plugin.name,
          // `err` is a thrown Error (with its stack); anything else thrown is only a message.
          ...(error instanceof Error ? { err: { type: error.name, stack: error.stack } } : { error: String(error) }),
        },
        'could not send an answer',
      );
    }
  };

  const endIfIdle = (stream: OpenStream): void => {
    if ((draining || stream.halfClosed) && stream.pending === 0 && !stream.closed) {
      stream.closed = true;
      stream.call.end();
    }
  };

  const handlers: AdmissionPluginHandlers = {
    Admit(call, callback) {
      const started = metrics === undefined ? 0 : performance.now();
      admit(plugin, call.request, (error, response, request) =>
        guarded(() => {
          observe(call.request, started, error, response);
          if (error !== null) {
            logFailure(error, call.request, request);
            callback({ code: error.code, details: error.message });
          } else {
            callback(null, response);
          }
        }),
      );
    },

    AdmitStream(call) {
      const stream: OpenStream = { pending: 0, halfClosed: false, closed: false, call };
      streams.add(stream);
      metrics?.metrics.streamOpened();
      const answer = (message: AdmitRequest__Output): void => {
        stream.pending++;
        const started = metrics === undefined ? 0 : performance.now();
        admit(plugin, message, (error, response, request) =>
          guarded(() => {
            stream.pending--;
            observe(message, started, error, response);
            let reply: AdmitResponse;
            if (error !== null) {
              logFailure(error, message, request);
              reply = { id: message.id, uid: message.uid, error: { code: error.code, message: error.message } };
            } else {
              reply = response as AdmitResponse;
              reply.id = message.id;
            }
            if (!stream.closed) call.write(reply);
            endIfIdle(stream);
          }),
        );
      };
      call.on('data', (message: AdmitRequest__Output) => {
        if (message.batch.length === 0) return answer(message);
        // A batch: every entry is a call of its own, started now and answered when it is done.
        for (const entry of message.batch) answer(batchedCall(message, entry));
      });
      const close = (): void => {
        if (!streams.delete(stream)) return;
        stream.closed = true;
        metrics?.metrics.streamClosed();
      };
      // The gateway half-closed: answer what is pending, then end our side.
      call.on('end', () => {
        stream.halfClosed = true;
        endIfIdle(stream);
      });
      call.on('cancelled', close);
      call.on('error', close);
      call.on('close', close);
    },

    Describe(_call, callback) {
      const reply: DescribeResponse = {
        plugin: plugin.name,
        hooks: [...plugin.hooks].map(([name, spec]) => ({
          name,
          phase: spec.phase === 'mutating' ? 'MUTATING' : 'VALIDATING',
        })),
        admitStream: true,
        applyPatch: true,
        reconcile: plugin.reconcile !== undefined,
        resync: plugin.resync !== undefined,
        admitBatch: options.admitBatch ?? true,
        implementation: SDK_IMPLEMENTATION,
      };
      callback(null, reply);
    },

    Reconcile(call, callback) {
      reconcile(plugin, call.request).then(
        (reply) => {
          metrics?.metrics.observeReconcile(reply.done ? 'done' : 'retry');
          callback(null, reply);
        },
        (error: HookCallError) => {
          metrics?.metrics.observeReconcile('error');
          logger.warn({ plugin: plugin.name, hook: call.request.hook, code: grpc.status[error.code] }, error.message);
          callback({ code: error.code ?? grpc.status.INTERNAL, details: error.message });
        },
      );
    },

    ListHeldEffects(call, callback) {
      listHeldEffects(plugin, call.request).then(
        (reply) => callback(null, reply),
        (error: HookCallError) => {
          // A controller asking a plugin without resync handlers is routine (it skips the plugin and
          // says so at debug): not worth a warning on every resync interval.
          if (error.code !== grpc.status.UNIMPLEMENTED)
            logger.warn({ plugin: plugin.name, code: grpc.status[error.code] }, error.message);
          callback({ code: error.code ?? grpc.status.INTERNAL, details: error.message });
        },
      );
    },

    ReconcileOrphan(call, callback) {
      reconcileOrphan(plugin, call.request).then(
        (reply) => {
          metrics?.metrics.observeReconcile(reply.done ? 'done' : 'retry');
          callback(null, reply);
        },
        (error: HookCallError) => {
          metrics?.metrics.observeReconcile('error');
          logger.warn(
            { plugin: plugin.name, hook: call.request.held?.hook, code: grpc.status[error.code] },
            error.message,
          );
          callback({ code: error.code ?? grpc.status.INTERNAL, details: error.message });
        },
      );
    },
  };

  // Accept what the gateway may send (grpc-js would refuse messages over 4 MiB).
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    ...options.serverOptions,
  });
  server.addService(AdmissionPluginService, handlers);
  server.addService(HealthService, health.handlers());

  // The metrics listener first: grpc-js answers calls as soon as bindAsync completes, so a metrics
  // port that cannot be bound must fail the start before any gateway has seen this plugin serve.
  let metricsListener: MetricsListener | undefined;
  if (metrics?.listen !== undefined) {
    metricsListener = await startMetricsListener(metrics.listen, metrics.metrics.registry, () =>
      draining
        ? 'draining: the plugin is shutting down and answers only the calls in flight'
        : health.get('') === 'SERVING'
          ? undefined
          : `gRPC health is ${health.get('')}`,
    );
  }

  let port: number;
  try {
    if (address.kind === 'unix') await removeStaleSocket(address.path);
    port = await new Promise<number>((resolve, reject) => {
      server.bindAsync(bindAddress(address), credentialsFor(options.tls), (error, boundPort) =>
        error ? reject(error) : resolve(boundPort),
      );
    });
  } catch (error) {
    // Without this, the metrics port would keep the process alive after the failed start.
    health.close();
    await metricsListener?.close();
    throw error;
  }
  health.setAll('SERVING');

  const target = address.kind === 'unix' ? `unix://${address.path}` : `${publicHost(address.host)}:${port}`;
  logger.info({ plugin: plugin.name, target, hooks: [...plugin.hooks.keys()] }, 'plugin serving');

  const registration =
    options.register === undefined ? undefined : new SelfRegistration(plugin.name, target, options.register, logger);
  await registration?.start();

  let shuttingDown: Promise<void> | undefined;
  const shutdown = (graceMs = options.shutdownGraceMs ?? 10_000): Promise<void> => {
    shuttingDown ??= (async () => {
      draining = true;
      // First, so a deregistration (deregisterOnShutdown) removes the hooks before calls stop being answered.
      await registration?.stop();
      health.close();
      for (const stream of streams) endIfIdle(stream);
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          logger.warn(
            { plugin: plugin.name, graceMs },
            'in-flight calls did not finish within the shutdown grace period; cutting them',
          );
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await metricsListener?.close();
      if (signalHandler !== undefined) removeSignalHandlers(signalHandler);
      logger.info({ plugin: plugin.name }, 'plugin stopped');
    })();
    return shuttingDown;
  };

  let signalHandler: (() => void) | undefined;
  if (options.handleSignals === true) {
    signalHandler = () => {
      shutdown().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGTERM', signalHandler);
    process.once('SIGINT', signalHandler);
  }

  return {
    plugin,
    target,
    health,
    metrics: metrics?.metrics.registry,
    metricsAddress: metricsListener?.address,
    registration,
    shutdown,
  };
}

/** One entry of a batch as a call of its own: the shared request fields, the entry's own ones. */
function batchedCall(message: AdmitRequest__Output, entry: BatchedCall__Output): AdmitRequest__Output {
  return {
    id: entry.id,
    hook: entry.hook,
    phase: message.phase,
    round: entry.round,
    uid: entry.uid,
    request: message.request,
    baseRequest: message.baseRequest,
    patch: message.patch,
    timeoutMs: entry.timeoutMs,
    reviewVersion: entry.reviewVersion,
    requestHead: message.requestHead,
    batch: [],
  };
}

function credentialsFor(tls: ServeOptions['tls']): grpc.ServerCredentials {
  if (tls === undefined) return grpc.ServerCredentials.createInsecure();
  const clientCa = tls.clientCa === undefined ? null : Buffer.from(tls.clientCa);
  return grpc.ServerCredentials.createSsl(
    clientCa,
    [{ private_key: Buffer.from(tls.key), cert_chain: Buffer.from(tls.cert) }],
    clientCa !== null,
  );
}

function resolveMetrics(
  plugin: string,
  option: ServeOptions['metrics'],
): { metrics: PluginMetrics; listen: string | undefined } | undefined {
  if (option === undefined || option === false) return undefined;
  const settings = option === true ? {} : option;
  return { metrics: createPluginMetrics(plugin, settings.registry ?? new client.Registry()), listen: settings.listen };
}

function publicHost(host: string): string {
  if (host === '' || host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function removeSignalHandlers(handler: () => void): void {
  process.off('SIGTERM', handler);
  process.off('SIGINT', handler);
}
