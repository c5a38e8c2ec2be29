/**
 * The Registry as the cluster primary runs it: one RegistrationStore, the gRPC service on
 * `registry.socket`, persistence to `<stateDir>/registrations.json`, and a snapshot for the
 * workers after every change. Workers never see the store: they merge the snapshots they receive
 * with the configuration (worker-state.ts).
 *
 * A configuration reload whose static side takes a name a registration holds is refused like an
 * invalid file (the last good configuration stays, the reload metric says so): `checkStatic` turns
 * the store's refusal into configuration errors for ConfigurationHolder's prepare step.
 */
import { join } from 'node:path';
import { ok, type Result } from '@hookgate/admission';
import type { ConfigError, LoadedConfiguration } from '@hookgate/config';
import { componentLogger, type Logger } from '@hookgate/observability';
import type { Registry } from 'prom-client';
import {
  RegistrationStore,
  startRegistry,
  type RegistryChange,
  type RegistrySnapshot,
  type RunningRegistry,
} from '../registry/index.js';
import { hooksOutsideRegistration } from '../registration/index.js';
import { createRegistryMetrics } from './registry-metrics.js';
import { NO_REGISTRATIONS, staticSourcesOf } from './registry-sources.js';

export interface PrimaryRegistry {
  /** The snapshot workers must serve now. */
  snapshot(): RegistrySnapshot;
  /** Accepts a new configuration's static side, or says which registrations it conflicts with. */
  checkStatic(configuration: LoadedConfiguration, configPath: string): Result<void, ConfigError[]>;
  /** Called after every change (renewals included: workers need the new lease ends). */
  onChange(listener: (change: RegistryChange) => void): void;
  close(): Promise<void>;
}

/** The registry file name under stateDir. */
export const REGISTRATIONS_FILE = 'registrations.json';

/**
 * Starts the Registry for `configuration` (already validated). Rejects when the socket cannot be
 * served (another gateway on it, a path that is not a socket): the caller refuses to start.
 */
export async function openPrimaryRegistry(
  configuration: LoadedConfiguration,
  log: Logger,
  metricsRegistry: Registry,
): Promise<PrimaryRegistry> {
  const gateway = configuration.gateway;
  const metrics = createRegistryMetrics(metricsRegistry);
  if (gateway.registry.disabled) {
    log.info({}, 'registry disabled (registry.disabled): only statically configured plugins are served');
    metrics.snapshot(NO_REGISTRATIONS);
    return {
      snapshot: () => NO_REGISTRATIONS,
      checkStatic: () => ok(undefined),
      onChange: () => undefined,
      close: async () => undefined,
    };
  }

  // What print-webhooks registers follows the static configuration (and registration.reserve):
  // registered hooks are checked against the one being served now.
  let registered: LoadedConfiguration = configuration;
  // Registrations are validated as static files are: http:// loopback URLs included.
  const store = new RegistrationStore({
    static: staticSourcesOf(configuration),
    allowHttpLoopback: true,
    outsideRegistration: (configurations) => hooksOutsideRegistration(configurations, registered),
  });
  const registryLog = componentLogger(log, 'registry');
  const running: RunningRegistry = await startRegistry({
    store,
    socket: gateway.registry.socket,
    stateFile: join(gateway.stateDir, REGISTRATIONS_FILE),
    logger: registryLog,
    onRefused: (operation, refusal) => metrics.refused(operation, refusal),
  });
  metrics.snapshot(store.snapshot());
  store.onChange((change) => metrics.snapshot(change.snapshot));

  return {
    snapshot: () => store.snapshot(),
    checkStatic(next, configPath) {
      const accepted = store.replaceStatic(staticSourcesOf(next));
      if (accepted.ok) {
        registered = next;
        return ok(undefined);
      }
      // The primary logs these like any other reason to refuse a reload, one line per problem.
      return { ok: false, error: accepted.error.problems.map((problem) => conflictError(problem, next, configPath)) };
    },
    onChange(listener) {
      store.onChange(listener);
    },
    close: () => running.close(),
  };
}

/** A conflict as a configuration error, placed in the file and document of the static configuration it names when there is one. */
function conflictError(problem: string, configuration: LoadedConfiguration, configPath: string): ConfigError {
  const source = configuration.sources.find((s) =>
    problem.includes(`${s.kind} ${JSON.stringify(s.name)} in the static configuration`),
  );
  const where =
    source === undefined
      ? { file: configPath, document: 0 }
      : { file: source.file, document: source.document, object: `${source.kind} ${JSON.stringify(source.name)}` };
  return { ...where, field: '', rule: 'FieldValueDuplicate', message: problem };
}
