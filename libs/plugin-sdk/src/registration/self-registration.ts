/**
 * servePlugin's `register` option on top of registerWithGateway: start/stop/deregister and a
 * state to show, with backoff, immediate re-registration after a gateway restart, and telling a
 * refusal (fix the plugin) from an unreachable gateway (wait).
 */
import * as grpc from '@grpc/grpc-js';
import type { PluginLogger } from '../logger.js';
import type { BackoffSettings } from './backoff.js';
import { registerWithGateway, type GatewayRegistration, type RegistrationTlsOptions } from './register-with-gateway.js';

export interface SelfRegistrationOptions {
  /** The gateway's registry socket: `unix:///run/hookgate/registry.sock` or an absolute path. */
  readonly registry: string;
  /** Mutating/ValidatingWebhookConfiguration documents (YAML or JSON) whose clientConfig.plugin is this plugin. */
  readonly configurations: readonly (string | Uint8Array | object)[];
  /** Requested lease (default 30 s); renewed at a third of the granted lease. */
  readonly leaseSeconds?: number;
  /** The target the gateway should call (default: where servePlugin listens). */
  readonly target?: string;
  /**
   * Required for a `host:port` target that is not a loopback address: the CA bundle (PEM) that
   * signs the certificate servePlugin's `tls` serves, and the server name when the certificate
   * does not name the target's host. See registerWithGateway.
   */
  readonly tls?: RegistrationTlsOptions;
  /** Retry pacing while the gateway is unreachable. */
  readonly retry?: BackoffSettings;
  /**
   * Deregister when the plugin shuts down gracefully, removing its hooks. Default false: the hooks
   * stay, and failurePolicy Fail hooks fail closed while the plugin is down or restarting.
   */
  readonly deregisterOnShutdown?: boolean;
}

export interface SelfRegistrationState {
  /** Registered at least once and the last attempt succeeded. */
  readonly registered: boolean;
  readonly hooks: readonly string[];
  readonly leaseSeconds: number;
  /** `UNAVAILABLE: ...`, `INVALID_ARGUMENT: ...` after a failed attempt. */
  readonly lastError: string | undefined;
}

export class SelfRegistration {
  readonly #plugin: string;
  readonly #target: string;
  readonly #options: SelfRegistrationOptions;
  readonly #logger: PluginLogger;
  #registration: GatewayRegistration | undefined;
  #state: SelfRegistrationState = { registered: false, hooks: [], leaseSeconds: 0, lastError: undefined };
  #firstAttempt: Promise<void> | undefined;

  constructor(plugin: string, target: string, options: SelfRegistrationOptions, logger: PluginLogger) {
    this.#plugin = plugin;
    this.#target = options.target ?? target;
    this.#options = options;
    this.#logger = logger;
  }

  get state(): SelfRegistrationState {
    return this.#state;
  }

  /** The underlying client, once started. */
  get registration(): GatewayRegistration | undefined {
    return this.#registration;
  }

  /** Registers now and keeps renewing; resolves after the first attempt, whatever its result. */
  start(): Promise<void> {
    this.#firstAttempt ??= new Promise<void>((attempted) => {
      this.#registration = registerWithGateway({
        socket: this.#options.registry,
        plugin: this.#plugin,
        target: this.#target,
        configurations: this.#options.configurations,
        leaseSeconds: this.#options.leaseSeconds ?? 30,
        ...(this.#options.tls === undefined ? {} : { tls: this.#options.tls }),
        ...(this.#options.retry === undefined ? {} : { retry: this.#options.retry }),
        logger: this.#logger,
        onRegistered: (result) => {
          this.#state = {
            registered: true,
            hooks: result.hooks,
            leaseSeconds: result.leaseSeconds,
            lastError: undefined,
          };
          attempted();
        },
        onFailed: (error) => {
          this.#state = {
            ...this.#state,
            registered: false,
            lastError: `${grpc.status[error.code] ?? error.code}: ${error.details || error.message}`,
          };
          attempted();
        },
      });
    });
    return this.#firstAttempt;
  }

  /** Stops renewing; deregisters only with `deregisterOnShutdown`. */
  stop(): Promise<void> {
    return this.#registration?.close({ deregister: this.#options.deregisterOnShutdown === true }) ?? Promise.resolve();
  }

  /** Removes this plugin's hooks from the gateway, then stops. */
  deregister(): Promise<readonly string[]> {
    return this.#registration?.deregister() ?? Promise.resolve([]);
  }
}
