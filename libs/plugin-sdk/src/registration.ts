/**
 * Optional self-registration with the gateway's Registry (its unix socket), renewed before the
 * lease runs out. Stopping does not deregister: a plugin that restarts keeps its hooks, and a hook
 * with failurePolicy Fail keeps failing closed while its plugin is away. Deregister on purpose.
 */
import * as grpc from '@grpc/grpc-js';
import { newRegistryClient, type RegistryClient, type RegisterResponse__Output } from '@hookgate/proto';
import { describeError } from './hook-call-error.js';
import type { PluginLogger } from './logger.js';

export interface RegistrationOptions {
  /** The gateway's registry socket, e.g. `unix:///run/hookgate/registry.sock`. */
  readonly registry: string;
  /** Mutating/ValidatingWebhookConfiguration documents (YAML or JSON) whose clientConfig.plugin is this plugin. */
  readonly configurations: readonly (string | Uint8Array)[];
  /** Requested lease (default 30 s); renewed at a third of the granted lease. */
  readonly leaseSeconds?: number;
  /** The target the gateway should call (default: where servePlugin listens). */
  readonly target?: string;
}

export interface RegistrationState {
  /** Registered at least once and the last renewal succeeded. */
  readonly registered: boolean;
  readonly hooks: readonly string[];
  readonly leaseSeconds: number;
  readonly lastError: string | undefined;
}

export class Registration {
  readonly #client: RegistryClient;
  readonly #plugin: string;
  readonly #target: string;
  readonly #options: RegistrationOptions;
  readonly #logger: PluginLogger;
  #state: RegistrationState = { registered: false, hooks: [], leaseSeconds: 0, lastError: undefined };
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #firstAttempt: Promise<void> | undefined;

  constructor(plugin: string, target: string, options: RegistrationOptions, logger: PluginLogger) {
    this.#plugin = plugin;
    this.#target = options.target ?? target;
    this.#options = options;
    this.#logger = logger;
    this.#client = newRegistryClient(options.registry, grpc.credentials.createInsecure());
  }

  get state(): RegistrationState {
    return this.#state;
  }

  /** Registers now and keeps renewing; resolves after the first attempt, whatever its result. */
  start(): Promise<void> {
    this.#firstAttempt ??= this.#renew();
    return this.#firstAttempt;
  }

  /** Stops renewing (the registration stays until its lease, or forever for failurePolicy Fail hooks). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#client.close();
  }

  /** Removes this plugin's hooks from the gateway, then stops. */
  async deregister(): Promise<readonly string[]> {
    clearTimeout(this.#timer);
    this.#stopped = true;
    try {
      return await new Promise<readonly string[]>((resolve, reject) => {
        this.#client.Deregister({ plugin: this.#plugin }, { deadline: Date.now() + 5000 }, (error, reply) => (error ? reject(error) : resolve(reply!.hooks)));
      });
    } finally {
      this.#client.close();
    }
  }

  async #renew(): Promise<void> {
    if (this.#stopped) return;
    let retryInMs: number;
    try {
      const reply = await this.#register();
      const lease = reply.leaseSeconds > 0 ? reply.leaseSeconds : (this.#options.leaseSeconds ?? 30);
      if (!this.#state.registered) this.#logger.info({ plugin: this.#plugin, hooks: reply.hooks, leaseSeconds: lease }, 'registered with the gateway');
      this.#state = { registered: true, hooks: reply.hooks, leaseSeconds: lease, lastError: undefined };
      retryInMs = Math.max(1000, (lease * 1000) / 3);
    } catch (error) {
      const text = describeError(error);
      this.#logger.warn({ plugin: this.#plugin, registry: this.#options.registry }, `registration with the gateway failed, retrying: ${text}`);
      this.#state = { ...this.#state, registered: false, lastError: text };
      retryInMs = 1000;
    }
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#renew(), retryInMs);
    this.#timer.unref();
  }

  #register(): Promise<RegisterResponse__Output> {
    return new Promise((resolve, reject) => {
      this.#client.Register(
        {
          plugin: this.#plugin,
          target: this.#target,
          configurations: this.#options.configurations.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c))),
          leaseSeconds: this.#options.leaseSeconds ?? 30,
        },
        { deadline: Date.now() + 5000 },
        (error, reply) => {
          if (error) reject(new Error(`${grpc.status[error.code] ?? error.code}: ${error.details || error.message}`));
          else resolve(reply!);
        },
      );
    });
  }
}
