/**
 * buildGateway(options, deps): the admission listener as a Fastify instance (tests drive it with
 * inject; main.ts listens). TLS, apiserver authentication, the body parser and error mapping are
 * each registered from their own file; the routes are admission-route.ts.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { EncodeAnnotationsOptions, HookInvoker } from '@hookgate/admission';
import { createRequestIds, type GatewayMetrics, type Logger } from '@hookgate/observability';
import { secureContextOptions, type TlsMaterial, type TlsMaterialSource } from '../tls/index.js';
import { FAILURE_POLICIES, admissionPath } from '../registration/index.js';
import { admissionHandler } from './admission-route.js';
import { registerApiserverAuth } from './apiserver-auth.js';
import { answerClientError, registerErrorHandler } from './bad-request.js';
import type { GatewayContext } from './gateway-context.js';
import type { GatewayStateSource } from './gateway-state.js';
import { registerJsonBodyParser } from './json-body.js';
import { lazyChildLogger } from './lazy-request-logger.js';
import type { SideEffectSink } from './side-effects.js';

export interface GatewayOptions {
  /** Largest accepted AdmissionReview. The apiserver's objects are ≤ ~1.5 MiB each; UPDATE carries two. */
  readonly bodyLimitBytes?: number;
  readonly annotations?: EncodeAnnotationsOptions;
  /** Longest a client may take to send a request (tests shorten it). */
  readonly requestTimeoutMs?: number;
  /** A connection silent this long is closed (tests shorten it). */
  readonly idleConnectionTimeoutMs?: number;
  /** Serve https with this material (hot-swapped on change); plain http when absent. */
  readonly tls?: TlsMaterialSource;
  /** Accepted bearer tokens; empty or absent: no token authentication. */
  readonly bearerTokens?: () => readonly string[];
}

export interface GatewayDeps {
  readonly state: GatewayStateSource;
  /** The HTTP bridge invoker for url/service hooks (plugin hooks use the state's plugin clients). */
  readonly bridge: HookInvoker;
  readonly logger: Logger;
  readonly metrics: GatewayMetrics;
  readonly sideEffects: SideEffectSink;
  /** Monotonic clock in ms; the chain's deadlines and the invokers' timers use it. */
  readonly now?: () => number;
  readonly newUid?: () => string;
  /** The `reqId` of each request's log lines; by default unique across workers (createRequestIds). */
  readonly newRequestId?: () => string;
}

export const DEFAULT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
/** Longest a client may take to send one request (Node's requestTimeout; ≥ its 60 s headersTimeout). */
const REQUEST_TIMEOUT_MS = 60_000;
/** A connection with no traffic this long is closed (keep-alive idles end earlier, at fastify's 72 s). */
const IDLE_CONNECTION_TIMEOUT_MS = 120_000;

export function buildGateway(options: GatewayOptions, deps: GatewayDeps): FastifyInstance {
  const material = options.tls?.current();
  const tokens = options.bearerTokens ?? (() => []);
  const clientCertificates = material?.clientCA !== undefined;
  const app = Fastify({
    loggerInstance: deps.logger,
    // fastify's incoming/completed lines are off: every request gets one debug line with its whole
    // trace, and denials and failure-policy decisions an info decision line (see the observability README).
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is made on its first line: an allowed review writes none (lazy-request-logger.ts).
    childLoggerFactory: lazyChildLogger,
    // fastify's default counts from req-1 in every worker: ids would repeat across workers and restarts.
    genReqId: deps.newRequestId ?? createRequestIds(),
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    // The apiserver waits at most 30 s per call. A client that takes a minute to send its request,
    // or sits on a connection silent for two, is not the apiserver: free its memory and socket.
    requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    connectionTimeout: options.idleConnectionTimeoutMs ?? IDLE_CONNECTION_TIMEOUT_MS,
    clientErrorHandler: answerClientError,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ...(material ? { https: httpsOptions(material, tokens().length > 0) } : {}),
  }) as unknown as FastifyInstance;
  if (options.tls) watchCertificates(app, options.tls);

  const ctx: GatewayContext = {
    state: deps.state,
    bridge: deps.bridge,
    now: deps.now ?? (() => performance.now()),
    newUid: deps.newUid ?? randomUUID,
    annotations: options.annotations ?? {},
    metrics: deps.metrics,
    sideEffects: deps.sideEffects,
    draining: closeConnectionsWhenDraining(app),
  };
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  registerApiserverAuth(app, { clientCertificates, bearerTokens: tokens });
  app.post('/mutate', admissionHandler('mutating', ctx));
  app.post('/validate', admissionHandler('validating', ctx));
  // The registration's webhooks, one per failure policy (print-webhooks).
  for (const policy of FAILURE_POLICIES) {
    app.post(admissionPath('mutating', policy), admissionHandler('mutating', ctx, policy));
    app.post(admissionPath('validating', policy), admissionHandler('validating', ctx, policy));
  }
  return app;
}

/**
 * With a client CA, certificates are requested; they are required unless bearer tokens are also
 * accepted (then apiserver-auth.ts checks that one of the two was presented).
 */
function httpsOptions(m: TlsMaterial, tokensToo: boolean) {
  const base = { key: m.key, cert: m.cert, minVersion: 'TLSv1.2' as const };
  if (m.clientCA === undefined) return base;
  return { ...base, ca: m.clientCA, requestCert: true, rejectUnauthorized: !tokensToo };
}

/**
 * During a graceful close, answers still in flight carry `Connection: close`, so the apiserver's
 * keep-alive connections end with them and close() does not wait for their idle timeout.
 * The hook covers fastify's replies (errors); admission answers ask the returned function.
 */
function closeConnectionsWhenDraining(app: FastifyInstance): () => boolean {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  // A callback hook, not an async one: no promise and microtask on every answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  return () => draining;
}

function watchCertificates(app: FastifyInstance, tls: TlsMaterialSource): void {
  const stop = tls.onChange((m) => {
    const server = app.server as unknown as { setSecureContext?: (o: object) => void };
    server.setSecureContext?.(secureContextOptions(m));
    app.log.info(
      { notAfter: m.notAfter.toISOString(), origin: m.origin },
      'admission listener now serves the renewed certificate',
    );
  });
  app.addHook('onClose', async () => {
    stop();
  });
}
