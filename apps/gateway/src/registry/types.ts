/**
 * The registry's data: what a plugin registered, what the gateway serves from it, and why a
 * registration was refused. Plain, JSON-serialisable data, so that a snapshot can cross to the
 * gateway's cluster workers and be written to the state directory.
 */
import type { DefaultedConfiguration } from '@hookgate/admission';

/** What a plugin sends in Registry.Register, decoded. */
export interface RegisterInput {
  /** The name webhooks reference as `clientConfig.plugin`. */
  readonly plugin: string;
  /** `unix:///abs/path.sock` or `host:port`. */
  readonly target: string;
  /** Webhook configuration documents: YAML (possibly multi-document) or JSON, one entry per payload. */
  readonly configurations: readonly (string | Uint8Array)[];
  /** Requested lease; 0 or absent means the store's default. */
  readonly leaseSeconds?: number;
  /** How callers verify the plugin's serving certificate on a `host:port` target (RegisterRequest.tls). */
  readonly tls?: { readonly caPem: string | Uint8Array; readonly serverName?: string };
}

/**
 * A registration's TLS, as accepted: public material only. The client certificate a caller presents
 * (mTLS) is the caller's own setting (the gateway's `registry.clientTls`), never a registration's.
 */
export interface RegisteredTls {
  /** PEM bundle of the CA certificate(s) that sign the plugin's serving certificate. */
  readonly ca: string;
  /** The name verified in the plugin's certificate instead of the target's host. */
  readonly serverName?: string;
}

/** One accepted registration as the store keeps it. */
export interface Registration {
  readonly plugin: string;
  readonly target: string;
  /** Absent: plaintext (a unix socket or a loopback address). */
  readonly tls?: RegisteredTls;
  /** Validated and defaulted, exactly as a static file would give them. */
  readonly configurations: readonly DefaultedConfiguration[];
  readonly leaseSeconds: number;
  /** Clock ms of the Register that started this registration: the first, or one that changed it or came after the lease ran out. Renewals keep it. */
  readonly registeredAt: number;
  /** Clock ms of the last Register (first or renewal). */
  readonly renewedAt: number;
  /** Clock ms when the lease runs out unless renewed. */
  readonly expiresAt: number;
}

/** How a registration's hooks are served right now. */
export type LeaseState = 'active' | 'expired';

/** A registration as the gateway serves it: after a lease expiry only its Fail hooks remain. */
export interface ServedRegistration extends Registration {
  readonly lease: LeaseState;
  /**
   * The configurations served: all of them while the lease is active; after expiry, each
   * configuration keeps only its failurePolicy Fail webhooks (and is left out when none remain).
   */
  readonly served: readonly DefaultedConfiguration[];
}

/**
 * Everything the gateway needs from the registry, as plain data. `generation` changes whenever
 * the served hooks or targets change; a renewal only moves `expiresAt` and keeps it.
 */
export interface RegistrySnapshot {
  readonly generation: number;
  readonly registrations: readonly ServedRegistration[];
}

/** A plugin the gateway calls, and where its hooks come from. */
export interface PluginTarget {
  readonly name: string;
  readonly target: string;
  readonly source: 'static' | 'registered';
  /** Registered plugins: when the registration started (a new value means: connect afresh). */
  readonly registeredAt?: number;
  /** Registered plugins: the TLS they registered with. */
  readonly tls?: RegisteredTls;
}

/** The statically configured side, which registrations must not collide with. */
export interface StaticSources {
  /** Plugins declared under `plugins:` in the GatewayConfiguration. */
  readonly plugins: readonly { readonly name: string; readonly target: string }[];
  /** Webhook configurations loaded from the configuration files. */
  readonly configurations: readonly DefaultedConfiguration[];
}

export interface RegisterOutcome {
  readonly plugin: string;
  readonly leaseSeconds: number;
  /** `<configuration>/<webhook>` for every webhook now served for this plugin. */
  readonly hooks: readonly string[];
  /** new: first registration; replaced: content or target changed; renewed: same content, lease extended. */
  readonly change: 'new' | 'replaced' | 'renewed';
  readonly generation: number;
}

export interface DeregisterOutcome {
  readonly plugin: string;
  /** `<configuration>/<webhook>` of every webhook removed. */
  readonly hooks: readonly string[];
  readonly generation: number;
}

/**
 * Why the registry said no. `invalid`: the request itself (every problem listed); `conflict`: a
 * name another source already uses (both sources named); `not-found`: deregistering an unknown
 * plugin; `static`: the plugin is declared in the GatewayConfiguration.
 */
export interface RegistryRefusal {
  readonly kind: 'invalid' | 'conflict' | 'not-found' | 'static' | 'outside-registration';
  /** One line per problem, each complete on its own. */
  readonly problems: readonly string[];
  /** The whole refusal as one text: a headline and the problems, one per line. */
  readonly message: string;
}

/** Emitted after every change of the snapshot (registrations, renewals, expiries, static reloads). */
export interface RegistryChange {
  readonly snapshot: RegistrySnapshot;
  /** False for a pure renewal: hooks and targets are what they were, only a lease moved. */
  readonly hooksChanged: boolean;
  readonly reason: 'register' | 'renew' | 'deregister' | 'expire' | 'static' | 'restore';
  readonly plugin?: string;
}
