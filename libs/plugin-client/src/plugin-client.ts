/**
 * One plugin, as the gateway (admission) and the controller (reconcile) see it: ONE channel opened
 * at creation and kept warm (keepalive, no idle timeout, reconnect with a short capped backoff),
 * its capabilities (Describe), the long-lived AdmitStream when it offers one, unary Admit
 * otherwise, unary Reconcile, a circuit breaker, and a health probe that closes the breaker as
 * soon as the plugin answers again.
 */
import * as grpc from '@grpc/grpc-js';
import {
  DEFAULT_GRPC_RECEIVE_LIMIT_BYTES,
  MAX_MESSAGE_BYTES,
  newAdmissionPluginClient,
  newHealthClient,
} from '@hookgate/proto';
import type {
  AdmissionPluginClient,
  AdmitRequest,
  BatchedCall,
  DescribeResponse__Output,
  HealthClient,
  ListHeldEffectsRequest,
  ListHeldEffectsResponse__Output,
  ReconcileOrphanRequest,
  ReconcileRequest,
  ReconcileResponse__Output,
  ServingStatus__Output,
} from '@hookgate/proto';
import { AdmitStreamMux } from './admit-stream.js';
import { PLAIN_CAPABILITIES, capabilitiesFrom, type PluginCapabilities } from './capabilities.js';
import { CircuitBreaker, type CircuitBreakerOptions, type CircuitState } from './circuit-breaker.js';
import { channelCredentials, tlsChannelOptions, type PluginTls } from './credentials.js';
import {
  CANCELED,
  clientClosed,
  type CallFailure,
  type CallOutcome,
  type ListHeldEffectsCallOutcome,
  type ReconcileCallOutcome,
  type TransportOutcome,
} from './transport-outcome.js';
import { admitUnary, callUnary } from './unary-call.js';

export interface PluginClientOptions {
  readonly tls?: PluginTls;
  /** Merged over the defaults below (keepalive, backoff, message sizes). */
  readonly channelOptions?: grpc.ChannelOptions;
  /** `false` disables the breaker. */
  readonly circuitBreaker?: CircuitBreakerOptions | false;
  /** Deadline of Describe and health probes (default 2 s). */
  readonly probeTimeoutMs?: number;
  /** Force the transport instead of following Describe (tests, plugins with a broken stream). */
  readonly transport?: 'auto' | 'unary';
  readonly onCircuitStateChange?: (plugin: string, state: CircuitState, previous: CircuitState) => void;
  /** An answer on the stream that matched no call in flight (unknown or repeated id, or after its timeout). */
  readonly onStrayAnswer?: (plugin: string, id: number) => void;
}

/** Keepalive at 5 min: the most a default Go gRPC server tolerates without GOAWAY (too_many_pings). */
export const DEFAULT_CHANNEL_OPTIONS: grpc.ChannelOptions = Object.freeze({
  'grpc.keepalive_time_ms': 300_000,
  'grpc.keepalive_timeout_ms': 20_000,
  'grpc.keepalive_permit_without_calls': 0,
  // A channel never goes idle: the connection stays up between calls.
  'grpc.client_idle_timeout_ms': 2_147_483_647,
  // A restarted plugin is found again within a second or two, not after minutes of backoff.
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.min_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 2_000,
  // A channel of its own, not grpc-js's process-wide subchannel pool: a client created for a plugin
  // that came back (re-registered, or moved) connects at once instead of inheriting the dead
  // connection's reconnect backoff from an older client of the same target.
  'grpc.use_local_subchannel_pool': 1,
  // AdmissionReviews carry object and oldObject: the SDK accepts the same (MAX_MESSAGE_BYTES).
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
});

export interface ReconcileCallOptions {
  /** When to give up, in Date.now() ms (a gRPC deadline). */
  readonly deadline: number;
  /** Cancels the call (the controller is stopping). */
  readonly signal?: AbortSignal;
}

const NEVER_ABORTED = new AbortController().signal;

export interface PluginClientStatus {
  readonly plugin: string;
  readonly target: string;
  readonly connectivity: keyof typeof grpc.connectivityState;
  readonly circuit: CircuitState | 'disabled';
  readonly streamOpen: boolean;
  readonly inFlight: number;
  readonly capabilities: PluginCapabilities | undefined;
}

export class PluginClient {
  readonly name: string;
  readonly target: string;
  readonly breaker: CircuitBreaker | undefined;
  readonly #grpc: AdmissionPluginClient;
  readonly #health: HealthClient;
  readonly #stream: AdmitStreamMux;
  readonly #probeTimeoutMs: number;
  readonly #forceUnary: boolean;
  /** Set when AdmitStream answered UNIMPLEMENTED despite Describe: unary for this client's lifetime. */
  #streamUnsupported = false;
  #capabilities: PluginCapabilities | undefined;
  #describing: Promise<PluginCapabilities> | undefined;
  #probeTimer: NodeJS.Timeout | undefined;
  #closed = false;
  /** The last gRPC failure recorded on the breaker (a stream break hands the same outcome to every pending call). */
  #lastRecorded: CallOutcome<unknown> | undefined;

  constructor(name: string, target: string, options: PluginClientOptions = {}) {
    this.name = name;
    this.target = target;
    this.#probeTimeoutMs = options.probeTimeoutMs ?? 2000;
    this.#forceUnary = options.transport === 'unary';
    const channelOptions = { ...DEFAULT_CHANNEL_OPTIONS, ...tlsChannelOptions(options.tls), ...options.channelOptions };
    this.#grpc = newAdmissionPluginClient(target, channelCredentials(options.tls), channelOptions);
    this.#health = newHealthClient(target, channelCredentials(options.tls), {
      channelOverride: this.#grpc.getChannel(),
    });
    this.#stream = new AdmitStreamMux(
      () => this.#grpc.AdmitStream(),
      // The plugin may have restarted as another version: ask again what it offers.
      (code) => code !== grpc.status.UNIMPLEMENTED && this.#refreshCapabilities(),
      (id) => options.onStrayAnswer?.(name, id),
    );
    if (options.circuitBreaker !== false) {
      const onChange = options.onCircuitStateChange;
      this.breaker = new CircuitBreaker({
        ...options.circuitBreaker,
        onStateChange: (state, previous) => {
          if (state === 'open') this.#scheduleProbe();
          onChange?.(name, state, previous);
        },
      });
    }
    // Connect now, so that the first admission request does not pay for it.
    this.#grpc.getChannel().getConnectivityState(true);
    this.describe().catch(() => undefined);
  }

  /** Known once Describe answered (or turned out to be unimplemented). */
  get capabilities(): PluginCapabilities | undefined {
    const known = this.#capabilities;
    return known !== undefined && this.#streamUnsupported && known.stream ? { ...known, stream: false } : known;
  }

  /** Asks the plugin what it offers; concurrent callers share one call. */
  describe(timeoutMs = this.#probeTimeoutMs): Promise<PluginCapabilities> {
    this.#describing ??= new Promise<PluginCapabilities>((resolve, reject) => {
      this.#grpc.Describe({}, { deadline: Date.now() + timeoutMs }, (error, reply?: DescribeResponse__Output) => {
        this.#describing = undefined;
        if (error?.code === grpc.status.UNIMPLEMENTED) this.#capabilities = PLAIN_CAPABILITIES;
        else if (error) return reject(error);
        else this.#capabilities = capabilitiesFrom(reply!);
        resolve(this.#capabilities);
      });
    });
    return this.#describing;
  }

  /**
   * One admit call: the breaker first, then the stream or unary Admit. `build` makes the message
   * once the capabilities are known (they decide between the whole request and base + patch).
   * `timeoutCounts: false`: the deadline was the request's, not the hook's, so a timeout is not the
   * plugin's failure.
   */
  async admit(
    build: (capabilities: PluginCapabilities) => AdmitRequest,
    timeoutMs: number,
    signal: AbortSignal,
    options: { timeoutCounts?: boolean } = {},
  ): Promise<TransportOutcome> {
    if (signal.aborted) return CANCELED;
    const admission = this.breaker?.admit() ?? 'pass';
    if (admission === 'reject') return this.#circuitOpen();
    const started = Date.now();
    let capabilities = this.capabilities;
    if (capabilities === undefined) {
      // Plugin unreachable or slow to describe: carry on with the plain contract, which works with any plugin.
      capabilities = await this.describe(Math.min(timeoutMs, this.#probeTimeoutMs)).catch(() => PLAIN_CAPABILITIES);
    }
    const remaining = timeoutMs - (Date.now() - started);
    let outcome = await this.#send(build(capabilities), capabilities, remaining, signal);
    if (!outcome.ok && outcome.kind === 'rpc' && outcome.code === grpc.status.UNIMPLEMENTED && capabilities.stream) {
      // Describe said stream, the server disagrees: use unary from now on. The message was not processed.
      this.#streamUnsupported = true;
      outcome = await admitUnary(this.#grpc, build(this.capabilities!), timeoutMs - (Date.now() - started), signal);
    }
    this.#record(outcome, admission === 'trial', options.timeoutCounts ?? true);
    return outcome;
  }

  /**
   * Several admit calls of one phase started together (the gateway's validating hooks of one
   * plugin), one promise per call in order. To a plugin that declares `admit_batch`, the shared
   * request (`shared`, built once the capabilities are known) travels once, in one AdmitStream
   * message, with one entry per call; otherwise each call is an `admit` of its own. Either way each
   * call has its own timeout, breaker admission and outcome: a late answer times out alone.
   */
  admitBatch(
    shared: (capabilities: PluginCapabilities) => AdmitRequest,
    calls: readonly BatchCall[],
    signal: AbortSignal,
  ): Promise<TransportOutcome>[] {
    const capabilities = this.capabilities;
    const batchable =
      calls.length > 1 &&
      capabilities !== undefined &&
      capabilities.batch &&
      !this.#forceUnary &&
      !this.#streamUnsupported &&
      !this.#closed &&
      !signal.aborted;
    const message = batchable ? shared(capabilities) : undefined;
    if (message === undefined || approximateBytes(message) > DEFAULT_GRPC_RECEIVE_LIMIT_BYTES) {
      return calls.map((call) => this.admit((caps) => withCall(shared(caps), call), call.timeoutMs, signal, call));
    }
    const answers: Promise<TransportOutcome>[] = new Array<Promise<TransportOutcome>>(calls.length);
    const sent: number[] = [];
    const trials: boolean[] = [];
    for (let k = 0; k < calls.length; k++) {
      const admission = this.breaker?.admit() ?? 'pass';
      if (admission === 'reject') answers[k] = Promise.resolve(this.#circuitOpen());
      else {
        sent.push(k);
        trials.push(admission === 'trial');
      }
    }
    if (sent.length === 0) return answers;
    const started = Date.now();
    message.batch = sent.map((k) => batchedCall(calls[k]!));
    const outcomes = this.#stream.sendBatch(
      message,
      sent.map((k) => calls[k]!.timeoutMs),
      signal,
    );
    sent.forEach((k, i) => {
      const call = calls[k]!;
      answers[k] = outcomes[i]!.then(async (outcome) => {
        if (!outcome.ok && outcome.kind === 'rpc' && outcome.code === grpc.status.UNIMPLEMENTED) {
          // Describe said stream, the server disagrees: unary from now on. The message was not processed.
          this.#streamUnsupported = true;
          const message = withCall(shared(this.capabilities!), call);
          outcome = await admitUnary(this.#grpc, message, call.timeoutMs - (Date.now() - started), signal);
        }
        this.#record(outcome, trials[i]!, call.timeoutCounts ?? true);
        return outcome;
      });
    });
    return answers;
  }

  /**
   * One side effect to reconcile (the controller's call), through the same breaker as admit calls:
   * a plugin that is down fails fast here too. A plugin without a reconcile handler answers
   * UNIMPLEMENTED (an `rpc` outcome that is not a transport failure); `capabilities.reconcile` says
   * so in advance.
   */
  reconcile(request: ReconcileRequest, options: ReconcileCallOptions): Promise<ReconcileCallOutcome> {
    return this.#unaryThroughBreaker<ReconcileResponse__Output>(
      (callOptions, callback) => this.#grpc.Reconcile(request, callOptions, callback),
      options,
    );
  }

  /**
   * One page of the effects the plugin holds (periodic resync). A plugin without resync answers
   * UNIMPLEMENTED (an `rpc` outcome that is not a transport failure).
   */
  listHeldEffects(request: ListHeldEffectsRequest, options: ReconcileCallOptions): Promise<ListHeldEffectsCallOutcome> {
    return this.#unaryThroughBreaker<ListHeldEffectsResponse__Output>(
      (callOptions, callback) => this.#grpc.ListHeldEffects(request, callOptions, callback),
      options,
    );
  }

  /** Undo one held effect whose object is gone or replaced (periodic resync). */
  reconcileOrphan(request: ReconcileOrphanRequest, options: ReconcileCallOptions): Promise<ReconcileCallOutcome> {
    return this.#unaryThroughBreaker<ReconcileResponse__Output>(
      (callOptions, callback) => this.#grpc.ReconcileOrphan(request, callOptions, callback),
      options,
    );
  }

  async #unaryThroughBreaker<R>(
    start: Parameters<typeof callUnary<R>>[0],
    options: ReconcileCallOptions,
  ): Promise<CallOutcome<R>> {
    const signal = options.signal ?? NEVER_ABORTED;
    if (signal.aborted) return CANCELED;
    if (this.#closed) return clientClosed();
    const admission = this.breaker?.admit() ?? 'pass';
    if (admission === 'reject') return this.#circuitOpen();
    const outcome = await callUnary<R>(start, options.deadline - Date.now(), signal);
    this.#record(outcome, admission === 'trial', true);
    return outcome;
  }

  /** grpc.health.v1 Check of the whole server (service ""). */
  checkHealth(timeoutMs = this.#probeTimeoutMs): Promise<ServingStatus__Output> {
    return new Promise((resolve, reject) => {
      this.#health.Check({ service: '' }, { deadline: Date.now() + timeoutMs }, (error, reply) =>
        error ? reject(error) : resolve(reply!.status),
      );
    });
  }

  status(): PluginClientStatus {
    const state = this.#grpc.getChannel().getConnectivityState(false);
    return {
      plugin: this.name,
      target: this.target,
      connectivity: grpc.connectivityState[state] as keyof typeof grpc.connectivityState,
      circuit: this.breaker?.state ?? 'disabled',
      streamOpen: this.#stream.isOpen,
      inFlight: this.#stream.inFlight,
      capabilities: this.capabilities,
    };
  }

  /** Ends the stream (messages in flight fail as transport failures) and closes the channel. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#probeTimer);
    this.#stream.close();
    this.#grpc.close();
  }

  #send(
    message: AdmitRequest,
    capabilities: PluginCapabilities,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<TransportOutcome> {
    if (this.#closed) return Promise.resolve(clientClosed());
    // A message a plugin may refuse for its size goes alone (unary): refused on the shared stream, it
    // would break the stream and fail every call in flight on it.
    const shared =
      capabilities.stream &&
      !this.#forceUnary &&
      !this.#streamUnsupported &&
      approximateBytes(message) <= DEFAULT_GRPC_RECEIVE_LIMIT_BYTES;
    return shared ? this.#stream.send(message, timeoutMs, signal) : admitUnary(this.#grpc, message, timeoutMs, signal);
  }

  #circuitOpen(): CallFailure {
    return { ok: false, kind: 'circuit-open', failures: this.breaker?.consecutiveFailures ?? 0 };
  }

  #record(outcome: CallOutcome<unknown>, trial: boolean, timeoutCounts: boolean): void {
    const breaker = this.breaker;
    if (breaker === undefined) return;
    if (!outcome.ok && outcome.kind === 'timeout' && !timeoutCounts) {
      if (trial) breaker.releaseTrial();
      return;
    }
    // One broken stream is one failure, not one per call that was in flight on it (they share the outcome);
    // a message too large says nothing about the plugin's health.
    // Timeouts are shared singletons, but each one is a failure of its own call.
    const streamBreak = !outcome.ok && outcome.kind === 'rpc';
    const repeated = streamBreak && outcome === this.#lastRecorded;
    if (streamBreak) this.#lastRecorded = outcome;
    if (repeated || (!outcome.ok && outcome.kind === 'rpc' && outcome.code === grpc.status.RESOURCE_EXHAUSTED)) {
      if (trial) breaker.releaseTrial();
      return;
    }
    if (outcome.ok || (outcome.kind === 'rpc' && !outcome.transport)) breaker.recordSuccess();
    else if (outcome.kind === 'timeout' || outcome.kind === 'rpc') breaker.recordFailure();
    else if (trial) breaker.releaseTrial();
  }

  #refreshCapabilities(): void {
    if (this.#closed) return;
    this.describe().catch(() => undefined);
  }

  /** While open, probe health after each cool-down; SERVING closes the circuit at once. */
  #scheduleProbe(): void {
    if (this.#closed || this.breaker === undefined) return;
    clearTimeout(this.#probeTimer);
    this.#probeTimer = setTimeout(() => {
      const breaker = this.breaker!;
      if (this.#closed || breaker.state === 'closed') return;
      this.checkHealth().then(
        (status) => (status === 'SERVING' ? breaker.probeSucceeded() : this.#probeFailed()),
        () => this.#probeFailed(),
      );
    }, this.breaker.retryInMs);
    this.#probeTimer.unref();
  }

  #probeFailed(): void {
    this.breaker?.probeFailed();
    if (this.breaker?.state !== 'closed') this.#scheduleProbe();
  }
}

/** One client per plugin, created once at startup (or registration) and shared by every request. */
export function createPluginClient(name: string, target: string, options?: PluginClientOptions): PluginClient {
  return new PluginClient(name, target, options);
}

/** One call of `admitBatch`: AdmitRequest's per-call fields, and how its timeout counts (see `admit`). */
export interface BatchCall {
  readonly hook: string;
  readonly round: number;
  readonly uid: string;
  readonly timeoutMs: number;
  readonly reviewVersion: string;
  readonly timeoutCounts?: boolean;
}

/** The whole AdmitRequest of one call: the shared request fields, the call's own ones. */
function withCall(shared: AdmitRequest, call: BatchCall): AdmitRequest {
  return { ...shared, ...batchedCall(call) };
}

function batchedCall(call: BatchCall): BatchedCall {
  return {
    hook: call.hook,
    round: call.round,
    uid: call.uid,
    timeoutMs: Math.max(0, Math.ceil(call.timeoutMs)),
    reviewVersion: call.reviewVersion,
  };
}

/** The encoded size of an AdmitRequest, near enough: its byte fields dominate. */
function approximateBytes(message: AdmitRequest): number {
  return (
    byteCount(message.request) +
    byteCount(message.baseRequest) +
    byteCount(message.patch) +
    byteCount(message.requestHead) +
    256
  );
}

function byteCount(field: AdmitRequest['request']): number {
  return field === undefined ? 0 : typeof field === 'string' ? Buffer.byteLength(field) : field.length;
}
