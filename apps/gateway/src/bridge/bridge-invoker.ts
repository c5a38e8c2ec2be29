/**
 * The HTTP(S) bridge: calls an existing AdmissionReview webhook (`clientConfig.url` or `service`)
 * exactly as the apiserver does (§10, §11, §15) and maps transport events to HookFailure kinds.
 * Everything about the answer's meaning (status codes, uid, patch pairing) is verifyHookResponse's.
 */
import {
  hookTimeoutQuery,
  timeoutFailure,
  transportFailure,
  verifyHookResponse,
  type HookCall,
  type HookFailure,
  type HookInvoker,
  type HookReply,
} from '@hookgate/admission';
import type { Pool } from 'undici';
import { ClientPools } from './client-pools.js';
import { encodeHookReview } from './encode-hook-review.js';
import { describeTransportError } from './go-error-text.js';
import {
  resolveHookEndpoint,
  serviceEndpoint,
  servicePort,
  type EndpointResult,
  type HookEndpoint,
} from './hook-endpoint.js';
import { exchange, type HookExchange } from './hook-exchange.js';
import { retryDelayMs } from './retry-after.js';
import type { ServiceRef } from './service-address.js';
import type { ServiceResolver } from './service-resolver.js';

export interface BridgeOptions {
  /** The gateway clock (ms); HookCall.deadline is on it. */
  readonly now: () => number;
  /** Largest response body read from a hook. */
  readonly maxResponseBytes?: number;
  readonly connectionsPerOrigin?: number;
  readonly keepAliveTimeoutMs?: number;
  /**
   * Resolves `service` references through the apiserver (the current one: it follows the
   * configuration). Absent or undefined: `<name>.<namespace>.svc` is looked up in DNS.
   */
  readonly services?: () => ServiceResolver | undefined;
  /** A service reference that could not be resolved for a call (for a log line saying what to do). */
  readonly onServiceUnresolved?: (hook: string, service: ServiceRef, error: string) => void;
}

export interface BridgeInvoker {
  readonly invoke: HookInvoker;
  /** Closes every keep-alive connection (graceful shutdown). */
  close(): Promise<void>;
}

const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** The apiserver's REST client retries a 429/5xx with Retry-After at most this many times. */
const MAX_ATTEMPTS = 10;

export function createBridgeInvoker(options: BridgeOptions): BridgeInvoker {
  const pools = new ClientPools({
    connections: options.connectionsPerOrigin ?? 64,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 30_000,
  });
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  /** A hook's target never changes (a new configuration compiles new hooks): its URL is parsed once. */
  const namedEndpoints = new WeakMap<object, EndpointResult>();
  const namedEndpoint = (target: Exclude<HookCall['hook']['target'], { kind: 'plugin' }>): EndpointResult => {
    let named = namedEndpoints.get(target);
    if (named === undefined) {
      named = resolveHookEndpoint(target);
      namedEndpoints.set(target, named);
    }
    return named;
  };
  /** Per service name and CA bundle, the origin last dialled: its pool is dropped when the Service moves. */
  const serviceOrigins = new Map<string, string>();

  const invoke = (async (call: HookCall, signal: AbortSignal): Promise<HookReply> => {
    const { target } = call.hook;
    if (target.kind === 'plugin')
      return fail(clientFailure(`hook targets plugin "${target.plugin}", not a url or service`));
    const named = namedEndpoint(target);
    if (!named.ok) return fail(clientFailure(named.error));
    const query = `${named.endpoint.path.includes('?') ? '&' : '?'}timeout=${hookTimeoutQuery(call.timeoutSeconds)}`;
    const path = `${named.endpoint.path}${query}`;
    const url = `${named.endpoint.url}${query}`;
    const remaining = call.deadline - options.now();
    if (remaining <= 0) return fail(timeoutFailure(url));
    // One controller for the caller's signal and our own deadline timer (cleared on every path):
    // AbortSignal.any and AbortSignal.timeout cost far more per call, and the latter's timer outlives it.
    const aborts = new CallAbort(signal, remaining);
    try {
      const resolved = await dialledEndpoint(call, named, aborts.signal);
      // As in the apiserver, a service that does not resolve fails the dial: a transport error.
      if (!resolved.ok) return fail(transportFailure(url, resolved.error));
      const endpoint = resolved.endpoint;
      const pool = pools.poolFor(endpoint.origin, endpoint.servername, endpoint.caBundle);
      if (!pool.ok) return fail(clientFailure(pool.error));
      return await post(pool.pool, endpoint, path, url, call, aborts);
    } finally {
      aborts.dispose();
    }
  }) satisfies HookInvoker;

  /** The endpoint to connect to: a service reference's resolved address when the apiserver is at hand. */
  async function dialledEndpoint(call: HookCall, named: EndpointResult, signal: AbortSignal): Promise<EndpointResult> {
    const { target } = call.hook;
    const resolver = options.services?.();
    if (target.kind !== 'service' || resolver === undefined || !named.ok) return named;
    const ref = { namespace: target.namespace, name: target.name, port: servicePort(target) };
    const address = await resolver.resolve(ref, signal);
    if (!address.ok) {
      options.onServiceUnresolved?.(call.hook.name, ref, address.error);
      return address;
    }
    const endpoint = serviceEndpoint(target, address.address);
    if (endpoint.ok) {
      const { origin, servername, caBundle } = endpoint.endpoint;
      const key = `${servername}\u0000${caBundle}`;
      const previous = serviceOrigins.get(key);
      if (previous !== origin) {
        serviceOrigins.set(key, origin);
        if (previous !== undefined) pools.drop(previous, servername, caBundle);
      }
    }
    return endpoint;
  }

  async function post(
    pool: Pool,
    endpoint: HookEndpoint,
    path: string,
    url: string,
    call: HookCall,
    aborts: CallAbort,
  ): Promise<HookReply> {
    const signal = aborts.signal;
    // Encoded once per call (the object's JSON once per object) and sent as bytes on every attempt.
    const body = encodeHookReview(call);
    for (let attempt = 1; ; attempt += 1) {
      let answer: HookExchange;
      try {
        // The body is read to its end (up to the bound) whatever the status, so that a retried
        // connection stays reusable.
        answer = await exchange(pool, { path, headers: REQUEST_HEADERS, body, signal, maxBytes });
      } catch (error) {
        return fail(abortedOrTransport(error, url, endpoint, aborts));
      }
      const delay = retryDelayMs(answer.statusCode, answer.headers['retry-after'], attempt, MAX_ATTEMPTS);
      if (delay !== undefined && options.now() + delay < call.deadline) {
        if (!(await sleep(delay, signal))) return fail(abortedOrTransport(undefined, url, endpoint, aborts));
        continue;
      }
      if (!answer.body.ok) return fail(transportFailure(url, answer.body.error));
      const contentType = answer.headers['content-type'];
      return verifyHookResponse(
        {
          httpStatus: answer.statusCode,
          ...(typeof contentType === 'string' ? { contentType } : {}),
          body: answer.body.bytes.toString('utf8'),
          url,
        },
        call,
      );
    }
  }

  return { invoke, close: () => pools.close() };
}

/** What client-go sends on a webhook call (rest.Request with the admission client's config). */
const REQUEST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, */*',
  'user-agent': 'hookgate-bridge (kube-apiserver-admission compatible)',
};

const fail = (failure: HookFailure): HookReply => ({ ok: false, failure });

/** §15: the webhook client could not be built (no usable url, bad caBundle). */
function clientFailure(detail: string): HookFailure {
  return { kind: 'client', message: `could not get REST client: ${detail}`, code: 500 };
}

/**
 * Why a call stops early: the caller's signal (the review was abandoned) or the hook's deadline.
 * Both abort one controller, whose signal the request and any retry wait listen to.
 */
class CallAbort {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal;
  readonly #timer: NodeJS.Timeout;
  #timedOut = false;
  readonly #onCallerAbort = () => this.#controller.abort();

  constructor(caller: AbortSignal, remainingMs: number) {
    this.#caller = caller;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort();
    }, Math.ceil(remainingMs));
    if (caller.aborted) this.#controller.abort();
    else caller.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  get callerAborted(): boolean {
    return this.#caller.aborted;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#caller.removeEventListener('abort', this.#onCallerAbort);
  }
}

function abortedOrTransport(error: unknown, url: string, endpoint: HookEndpoint, aborts: CallAbort): HookFailure {
  if (aborts.timedOut) return timeoutFailure(url);
  if (aborts.callerAborted) return transportFailure(url, 'context canceled');
  return transportFailure(url, describeTransportError(error, endpoint));
}

/** Resolves true after `ms`, false as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
