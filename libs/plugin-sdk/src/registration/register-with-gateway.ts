/**
 * Self-registration with the gateway's Registry: register at start, renew at a third of the
 * granted lease, register again as soon as the connection to the gateway is lost (a restarted
 * gateway), retry with backoff while it is unreachable. Deregistering is explicit: by default a
 * plugin that stops keeps its registration, so its failurePolicy Fail hooks fail closed while it
 * restarts instead of silently disappearing.
 */
import * as grpc from '@grpc/grpc-js';
import { GRPC_STATUS_NAME, newRegistryClient } from '@hookgate/proto';
import type { RegisterResponse__Output, RegistryClient } from '@hookgate/proto';
import { type PluginLogger, resolveLogger } from '../logger.js';
import { backoffDelay, type BackoffSettings } from './backoff.js';
import { registryTarget } from './registry-address.js';

export interface RegisterWithGatewayOptions {
  /** The gateway's registry socket (its `registry.socket`): an absolute path or `unix:///path`. */
  readonly socket: string;
  /** The name the webhook configurations use as `clientConfig.plugin`. */
  readonly plugin: string;
  /**
   * Where the gateway calls this plugin: `unix:///path.sock` or `host:port`. A `host:port` target
   * needs `tls` unless its host is a loopback address (127.0.0.0/8, [::1]): the gateway refuses it.
   */
  readonly target: string;
  /**
   * The plugin serves TLS on `target`: how the gateway and the reconciliation controller verify it.
   * Public material only; a client certificate (mTLS) is the caller's own setting, never sent here.
   */
  readonly tls?: RegistrationTlsOptions;
  /**
   * Mutating/ValidatingWebhookConfiguration documents: YAML or JSON text (several documents in one
   * text are fine), bytes, or plain objects (sent as JSON). Validated by the gateway like static files.
   */
  readonly configurations: readonly (string | Uint8Array | object)[];
  /** Requested lease; the gateway may grant another, and renewals follow the granted one. Default: the gateway's. */
  readonly leaseSeconds?: number;
  /** Retry pacing while the gateway is unreachable (and, at maxMs, after a refusal). */
  readonly retry?: BackoffSettings;
  /** Deadline of each Register/Deregister call. Default 5 s. */
  readonly callTimeoutMs?: number;
  /** pino by default; `false` for none. */
  readonly logger?: PluginLogger | false;
  /** Called after every accepted Register (the first one, renewals, re-registrations). */
  readonly onRegistered?: (result: RegistrationResult) => void;
  /** Called after every failed Register, with `refused` when the gateway said no (as opposed to not answering). */
  readonly onFailed?: (error: grpc.ServiceError, refused: boolean) => void;
}

export interface RegistrationTlsOptions {
  /** PEM bundle of the CA certificate(s) that sign the plugin's serving certificate (not the key, not the leaf). */
  readonly ca: string | Uint8Array;
  /** The name to verify in the serving certificate when it does not name the target's host. */
  readonly serverName?: string;
}

export interface RegistrationResult {
  /** The lease the gateway granted, in seconds. */
  readonly leaseSeconds: number;
  /** `<configuration>/<webhook>` of the hooks the gateway now serves for this plugin. */
  readonly hooks: readonly string[];
}

export type RegistrationState = 'registering' | 'registered' | 'refused' | 'closed';

export interface GatewayRegistration {
  readonly state: RegistrationState;
  /** Resolves at the first accepted Register; rejects with RegistrationRefusedError if the gateway refuses it. */
  readonly ready: Promise<RegistrationResult>;
  /** The last accepted Register. */
  readonly last: RegistrationResult | undefined;
  /**
   * Stops renewing. With `deregister: true` the gateway removes the hooks (they stop being called,
   * whatever their failurePolicy); without, they stay and Fail hooks fail closed once the lease runs out.
   */
  close(options?: { readonly deregister?: boolean }): Promise<void>;
  /** Stops renewing and removes the hooks from the gateway; resolves with the hooks removed ([] when none was registered). */
  deregister(): Promise<readonly string[]>;
}

/**
 * The gateway refused the registration (invalid configuration, name conflict...): retrying as is will
 * not help. Not an HG_ERR_* error: its `code` is the gateway's gRPC status (docs/errors.md).
 */
export class RegistrationRefusedError extends Error {
  readonly code: grpc.status;
  constructor(code: grpc.status, details: string) {
    super(details);
    this.name = 'RegistrationRefusedError';
    this.code = code;
  }
}

/** Answers that say "your request is wrong", as opposed to "the gateway is not there right now". */
const REFUSALS: ReadonlySet<grpc.status> = new Set([
  grpc.status.INVALID_ARGUMENT,
  grpc.status.ALREADY_EXISTS,
  grpc.status.FAILED_PRECONDITION,
  grpc.status.PERMISSION_DENIED,
  grpc.status.UNIMPLEMENTED,
]);

const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  // A channel that never idles: leaving READY then means the gateway went away.
  'grpc.client_idle_timeout_ms': 2_147_483_647,
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 2_000,
};

export function registerWithGateway(options: RegisterWithGatewayOptions): GatewayRegistration {
  return new Registration(options);
}

class Registration implements GatewayRegistration {
  readonly ready: Promise<RegistrationResult>;
  readonly #options: RegisterWithGatewayOptions;
  readonly #logger: PluginLogger;
  readonly #client: RegistryClient;
  readonly #payload: Buffer[];
  readonly #callTimeoutMs: number;
  #state: RegistrationState = 'registering';
  #last: RegistrationResult | undefined;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> | undefined;
  #failures = 0;
  #watching = false;
  #settle: { resolve: (r: RegistrationResult) => void; reject: (e: Error) => void } | undefined;
  #lastProblem: string | undefined;

  constructor(options: RegisterWithGatewayOptions) {
    this.#options = options;
    this.#logger = resolveLogger(options.plugin, options.logger);
    this.#callTimeoutMs = options.callTimeoutMs ?? 5000;
    this.#payload = options.configurations.map(encodeConfiguration);
    this.#client = newRegistryClient(
      registryTarget(options.socket),
      grpc.credentials.createInsecure(),
      CHANNEL_OPTIONS,
    );
    this.ready = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    // A caller that never awaits `ready` must not get an unhandled rejection; the refusal is logged.
    this.ready.catch(() => undefined);
    this.#attemptNow();
  }

  get state(): RegistrationState {
    return this.#state;
  }

  get last(): RegistrationResult | undefined {
    return this.#last;
  }

  async close(options: { readonly deregister?: boolean } = {}): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    clearTimeout(this.#timer);
    await this.#inFlight;
    this.#settle?.reject(
      new Error(`registration of plugin ${JSON.stringify(this.#options.plugin)} closed before the gateway accepted it`),
    );
    this.#settle = undefined;
    if (options.deregister === true) {
      await this.#deregister().catch((error: grpc.ServiceError) => {
        this.#logger.warn(
          { plugin: this.#options.plugin, socket: this.#options.socket, problem: error.details ?? error.message },
          'could not deregister from the gateway; its hooks stay until deregistered (Registry.Deregister)',
        );
      });
    }
    this.#client.close();
  }

  async deregister(): Promise<readonly string[]> {
    if (this.#state === 'closed')
      throw new Error(`registration of plugin ${JSON.stringify(this.#options.plugin)} is closed`);
    // Stop renewing first, or a renewal could register the hooks again right after.
    this.#state = 'closed';
    clearTimeout(this.#timer);
    await this.#inFlight;
    this.#settle?.reject(
      new Error(
        `registration of plugin ${JSON.stringify(this.#options.plugin)} deregistered before the gateway accepted it`,
      ),
    );
    this.#settle = undefined;
    try {
      return await this.#deregister();
    } finally {
      this.#client.close();
    }
  }

  #attemptNow(): void {
    this.#schedule(0);
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    if (this.#state === 'closed') return;
    this.#timer = setTimeout(() => {
      this.#inFlight ??= this.#register().finally(() => (this.#inFlight = undefined));
    }, delayMs);
    this.#timer.unref();
  }

  async #register(): Promise<void> {
    const { plugin, target, leaseSeconds, tls } = this.#options;
    const outcome = await new Promise<{ error: grpc.ServiceError | null; reply: RegisterResponse__Output | undefined }>(
      (resolve) => {
        this.#client.Register(
          {
            plugin,
            target,
            configurations: this.#payload,
            leaseSeconds: leaseSeconds ?? 0,
            ...(tls === undefined ? {} : { tls: { caPem: Buffer.from(tls.ca), serverName: tls.serverName ?? '' } }),
          },
          { deadline: Date.now() + this.#callTimeoutMs },
          (error, reply) => resolve({ error, reply }),
        );
      },
    );
    if (this.#state === 'closed') return;
    if (outcome.error === null && outcome.reply !== undefined) return this.#accepted(outcome.reply);
    this.#failed(
      outcome.error ?? (Object.assign(new Error('empty answer'), { code: grpc.status.INTERNAL }) as grpc.ServiceError),
    );
  }

  #accepted(reply: RegisterResponse__Output): void {
    const result: RegistrationResult = { leaseSeconds: reply.leaseSeconds, hooks: reply.hooks };
    const recovered = this.#state !== 'registered' || this.#failures > 0;
    this.#state = 'registered';
    this.#last = result;
    this.#failures = 0;
    this.#lastProblem = undefined;
    if (recovered) {
      this.#logger.info(
        {
          plugin: this.#options.plugin,
          socket: this.#options.socket,
          hooks: result.hooks,
          leaseSeconds: result.leaseSeconds,
        },
        'registered with the gateway',
      );
    }
    this.#settle?.resolve(result);
    this.#settle = undefined;
    this.#options.onRegistered?.(result);
    // Renew at a third of the lease: two more tries fit before it runs out.
    this.#schedule(Math.max(1, (result.leaseSeconds * 1000) / 3));
    this.#watchConnection();
  }

  #failed(error: grpc.ServiceError): void {
    const plugin = this.#options.plugin;
    const socket = this.#options.socket;
    const problem = `${GRPC_STATUS_NAME[error.code] ?? error.code}: ${error.details ?? error.message}`;
    const firstReport = problem !== this.#lastProblem;
    this.#lastProblem = problem;
    this.#failures++;
    const refused = REFUSALS.has(error.code);
    this.#options.onFailed?.(error, refused);
    if (refused) {
      this.#state = 'refused';
      if (firstReport) {
        this.#logger.error(
          { plugin, socket, code: GRPC_STATUS_NAME[error.code] },
          `the gateway refused the registration; fix the plugin's webhook configurations or names. ${error.details}`,
        );
      }
      this.#settle?.reject(new RegistrationRefusedError(error.code, error.details));
      this.#settle = undefined;
      // The operator may resolve a conflict on the gateway side: try again, slowly.
      this.#schedule(backoffDelay(Number.MAX_SAFE_INTEGER, this.#options.retry ?? {}));
      return;
    }
    if (firstReport) {
      this.#logger.warn(
        { plugin, socket, problem },
        'cannot reach the gateway registry; retrying with backoff (is the gateway running, and may this user open its socket?)',
      );
    }
    this.#schedule(backoffDelay(this.#failures, this.#options.retry ?? {}));
  }

  /** A lost connection means the gateway restarted or stopped: register again at once, not at the next renewal. */
  #watchConnection(): void {
    if (this.#watching || this.#state === 'closed') return;
    const channel = this.#client.getChannel();
    const current = channel.getConnectivityState(false);
    if (current !== grpc.connectivityState.READY) return;
    this.#watching = true;
    channel.watchConnectivityState(current, Infinity, () => {
      this.#watching = false;
      if (this.#state === 'closed') return;
      this.#logger.info(
        { plugin: this.#options.plugin, socket: this.#options.socket },
        'connection to the gateway registry lost; registering again',
      );
      this.#schedule(backoffDelay(1, this.#options.retry ?? {}));
    });
  }

  /** Resolves with the hooks removed; NOT_FOUND (nothing registered) is not an error. */
  async #deregister(): Promise<readonly string[]> {
    const { plugin, socket } = this.#options;
    const hooks = await new Promise<readonly string[]>((resolve, reject) => {
      this.#client.Deregister({ plugin }, { deadline: Date.now() + this.#callTimeoutMs }, (error, reply) => {
        if (error === null) resolve(reply?.hooks ?? []);
        else if (error.code === grpc.status.NOT_FOUND) resolve([]);
        else reject(error);
      });
    });
    this.#logger.info({ plugin, socket, hooks }, 'deregistered from the gateway; its hooks are removed');
    return hooks;
  }
}

function encodeConfiguration(configuration: string | Uint8Array | object): Buffer {
  if (typeof configuration === 'string') return Buffer.from(configuration, 'utf8');
  if (configuration instanceof Uint8Array) return Buffer.from(configuration);
  return Buffer.from(JSON.stringify(configuration), 'utf8');
}
