/**
 * `hookgate.dev/v1alpha1` GatewayConfiguration: the gateway's own settings, component-config
 * style (fields at the top level, like KubeletConfiguration). These are the types after
 * defaulting; libs/config/README.md documents every field, its default and its rules.
 *
 * Relative file paths are resolved against the directory of the configuration (the file's
 * directory, or the configuration directory itself).
 */
import type { RuleWithOperations } from '@hookgate/admission';
import type { LogLevel } from '@hookgate/observability';

export const GATEWAY_API_VERSION = 'hookgate.dev/v1alpha1';
export const GATEWAY_KIND = 'GatewayConfiguration';

export type KubernetesMode = 'none' | 'kubeconfig' | 'inCluster';

export interface AdmissionTls {
  /** Plain http when true: for tests and local use only (the apiserver accepts only https). */
  readonly disabled: boolean;
  /** Operator-provided serving certificate (with its chain) and key; both or neither. Without them the gateway manages its own. */
  readonly certFile?: string;
  readonly keyFile?: string;
  /** When set, the apiserver must present a client certificate signed by this CA. */
  readonly clientCAFile?: string;
}

export interface AdmissionListener {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  readonly tls: AdmissionTls;
  /** When set, requests must carry `Authorization: Bearer <the file's content>`. */
  readonly bearerTokenFile?: string;
}

export interface MetricsListener {
  readonly host: string;
  readonly port: number;
}

export interface PluginTls {
  /** CA that signs the plugin's serving certificate; system roots when absent. */
  readonly caFile?: string;
  /** Client certificate and key for mutual TLS; both or neither. */
  readonly certFile?: string;
  readonly keyFile?: string;
  /** The name to verify in the plugin's certificate when it differs from the target's host. */
  readonly serverName?: string;
}

export interface PluginConfiguration {
  /** Referenced by `clientConfig.plugin` in webhook configurations. */
  readonly name: string;
  /** gRPC target: `unix:///absolute/path.sock` or `host:port` (`[::1]:7001` for IPv6). */
  readonly target: string;
  readonly tls?: PluginTls;
  /** Use the AdmitStream bidirectional stream: true/false, or absent to use it when the plugin offers it. */
  readonly stream?: boolean;
  /**
   * How `hookgate review` and `hookgate test` start the plugin when nothing answers at `target`:
   * program and arguments, run without a shell in the configuration's directory, with
   * `$(HOOKGATE_PLUGIN_TARGET)` replaced by the address to listen on. The gateway never reads it.
   */
  readonly command?: readonly string[];
}

export interface KubernetesAccess {
  /** none: static namespace labels; kubeconfig: a kubeconfig file; inCluster: the pod's service account. */
  readonly mode: KubernetesMode;
  /** mode kubeconfig only; absent means $KUBECONFIG, then ~/.kube/config. */
  readonly kubeconfig?: string;
}

export interface StaticNamespace {
  readonly name: string;
  /** The labels the namespace has; `kubernetes.io/metadata.name: <name>` is added as the apiserver does. */
  readonly labels: Readonly<Record<string, string>>;
}

export interface Timeouts {
  /** The gateway answers this long before the apiserver's `?timeout=` runs out. */
  readonly safetyMarginMs: number;
  /** The request budget when a request carries no `?timeout=` (curl, tests); the apiserver's default is 10. */
  readonly defaultRequestTimeoutSeconds: number;
}

export interface Audit {
  /**
   * Forward the inner hooks' `patch.webhook.admission.k8s.io/round_R_index_I` annotations (the
   * patches themselves, possibly Secret data) to the apiserver, which records them at Metadata
   * level under the gateway's name. Off by default: the apiserver keeps them at Request level.
   */
  readonly patchAnnotations: boolean;
}

export interface RegistryListener {
  readonly disabled: boolean;
  /** Unix socket of the Registry gRPC service; its file permissions are the authentication. */
  readonly socket: string;
  /**
   * The client certificate and key the gateway presents to plugins registered with TLS (for plugins
   * that require mTLS). The CA that verifies a plugin comes from its registration; no key ever does.
   */
  readonly clientTls?: RegistryClientTls;
}

export interface RegistryClientTls {
  readonly certFile: string;
  readonly keyFile: string;
}

/** Rules the gateway's registration reserves for hooks registered at run time (through the Registry). */
export interface ReservedRules {
  readonly type: 'Mutating' | 'Validating';
  readonly failurePolicy: 'Fail' | 'Ignore';
  readonly rules: readonly RuleWithOperations[];
}

/** How `hookgate print-webhooks` registers the gateway with the apiserver. */
export interface RegistrationSettings {
  /** Namespaces whose requests never go to the gateway (by `kubernetes.io/metadata.name`); runlevel 0/1 always. */
  readonly exemptNamespaces: readonly string[];
  /** Room for hooks registered at run time; the Registry refuses hooks outside the registration. */
  readonly reserve: readonly ReservedRules[];
}

/** Where side-effect jobs go: one BullMQ queue per plugin on this Redis. */
export interface RedisQueueSettings {
  /**
   * `redis://[user:password@]host:port[/db]`, `redis+sentinel://[user:password@]host:26379[,...]/<master>[/db]`
   * or `redis+cluster://[user:password@]host:port[,...]`; `rediss...` for TLS (@hookgate/queue/redis-url).
   */
  readonly url: string;
  /** Key prefix of every queue; `{hookgate}` (a Redis Cluster hash tag) by default. */
  readonly prefix: string;
  /** How long an add may wait for Redis before the job goes to the spool instead. */
  readonly addTimeoutMs: number;
  /** How long one connection attempt may take. */
  readonly connectTimeoutMs: number;
  /** How often Redis's `run_id` is checked (it is also checked on every reconnect). */
  readonly identityCheckSeconds: number;
}

/** The local spool: jobs Redis did not acknowledge wait here; acknowledged ones are kept for replay. */
export interface SpoolSettings {
  /** The spool's own directory (nothing else may live in it). */
  readonly dir: string;
  /** Cap on the spool's files; when full, side-effecting hooks fail by their failurePolicy. */
  readonly maxBytes: number;
  /** Jobs acknowledged this recently are replayed when Redis comes back with another run_id. */
  readonly replayWindowMinutes: number;
}

export interface GatewayConfiguration {
  readonly apiVersion: typeof GATEWAY_API_VERSION;
  readonly kind: typeof GATEWAY_KIND;
  readonly admission: AdmissionListener;
  readonly metrics: MetricsListener;
  /** The self-managed CA and certificate live here. */
  readonly stateDir: string;
  readonly plugins: readonly PluginConfiguration[];
  readonly kubernetes: KubernetesAccess;
  readonly namespaces: readonly StaticNamespace[];
  readonly timeouts: Timeouts;
  readonly audit: Audit;
  /** Gateway processes (node:cluster workers). */
  readonly workers: number;
  readonly registry: RegistryListener;
  readonly registration: RegistrationSettings;
  readonly logLevel: LogLevel;
  /** Absent: side effects are counted and logged, not queued. */
  readonly redis?: RedisQueueSettings;
  /** Set exactly when `redis` is (`spoolDir` defaults to `<stateDir>/spool`). */
  readonly spool?: SpoolSettings;
}

/** What defaulting depends on besides the document; injected so tests are deterministic. */
export interface DefaultingEnvironment {
  /** Relative paths in the document are resolved against this directory. */
  readonly configDir: string;
  /** The default stateDir `./.hookgate/state` is relative to the working directory. */
  readonly cwd: string;
  /** Running as root: stateDir defaults to /var/lib/hookgate. */
  readonly isRoot: boolean;
  /** Default for `workers`. */
  readonly cpus: number;
}

export const DEFAULTS = {
  admissionHost: '127.0.0.1',
  admissionPort: 8443,
  metricsHost: '127.0.0.1',
  metricsPort: 9443,
  rootStateDir: '/var/lib/hookgate',
  userStateDir: '.hookgate/state',
  safetyMarginMs: 500,
  defaultRequestTimeoutSeconds: 10,
  logLevel: 'info',
  /** Node heartbeats (kube-node-lease) and the control plane itself (kube-system) never wait for the gateway. */
  exemptNamespaces: ['kube-system', 'kube-node-lease'],
  redisAddTimeoutMs: 1_000,
  redisConnectTimeoutMs: 2_000,
  redisIdentityCheckSeconds: 5,
  spoolDirName: 'spool',
  // About 256,000 jobs of 1 KiB: a 30-minute Redis outage at 140 jobs/s.
  spoolMaxBytes: 256 * 1024 * 1024,
  // Longer than the controller's grace period and confirming read (10 s + 90 s) with room to spare.
  replayWindowMinutes: 10,
} as const;
