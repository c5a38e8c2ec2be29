/**
 * The registry as the gateway runs it: the store's saved state restored, the gRPC server on the
 * unix socket, the lease sweeper, change logging and persistence. Run it in ONE process (the
 * primary when the gateway uses node:cluster) and send snapshots to the workers.
 */
import { loadRegistrations, RegistrationFileWriter } from './registration-file.js';
import { startLeaseSweeper } from './lease-sweeper.js';
import { SILENT_LOGGER, type RegistryLogger } from './logger.js';
import type { RegistrationStore } from './registration-store.js';
import { startRegistryServer } from './registry-server.js';
import type { RefusalListener } from './registry-service.js';
import type { SocketMode } from './registry-socket.js';
import type { RegistryChange } from './types.js';

export interface StartRegistryOptions {
  readonly store: RegistrationStore;
  /** GatewayConfiguration `registry.socket`. */
  readonly socket: string;
  readonly mode?: SocketMode;
  /** Where registrations are kept across restarts, e.g. `<stateDir>/registrations.json`. None: memory only. */
  readonly stateFile?: string;
  readonly logger?: RegistryLogger;
  /** The store's clock, for the sweeper. Date.now by default. */
  readonly now?: () => number;
  /** Every refused Register/Deregister, e.g. for a metric (they are logged already). */
  readonly onRefused?: RefusalListener;
}

export interface RunningRegistry {
  readonly socket: string;
  /** Stops the server and the sweeper and writes the last state. The store keeps its content. */
  close(): Promise<void>;
}

export async function startRegistry(options: StartRegistryOptions): Promise<RunningRegistry> {
  const { store } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  let writer: RegistrationFileWriter | undefined;
  if (options.stateFile !== undefined) {
    const stateFile = options.stateFile;
    const { restored, dropped } = store.restore(await loadRegistrations(stateFile));
    for (const { plugin, reason } of dropped)
      logger.error({ plugin, stateFile }, `saved registration not restored: ${reason}`);
    if (restored.length > 0)
      logger.info(
        { plugins: restored, stateFile },
        'registrations restored; their plugins renew or their leases run out',
      );
    writer = new RegistrationFileWriter(stateFile, (error) =>
      logger.error({ stateFile, err: error }, 'could not save registrations; they will not survive a gateway restart'),
    );
    writer.save(store.snapshot());
  }
  const unsubscribe = store.onChange((change) => {
    logChange(change, logger);
    writer?.save(change.snapshot);
  });
  const sweeper = startLeaseSweeper(store, options.now);
  let server;
  try {
    server = await startRegistryServer({
      socket: options.socket,
      store,
      logger,
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.onRefused === undefined ? {} : { onRefused: options.onRefused }),
    });
  } catch (error) {
    sweeper.stop();
    unsubscribe();
    await writer?.flush();
    throw error;
  }
  return {
    socket: server.socket,
    async close() {
      await server.close();
      sweeper.stop();
      unsubscribe();
      await writer?.flush();
    },
  };
}

function logChange(change: RegistryChange, logger: RegistryLogger): void {
  if (change.reason !== 'expire' || change.plugin === undefined) return;
  const registration = change.snapshot.registrations.find((r) => r.plugin === change.plugin);
  const failClosed =
    registration === undefined ? [] : registration.served.flatMap((c) => c.webhooks.map((w) => `${c.name}/${w.name}`));
  if (failClosed.length === 0) {
    logger.warn(
      { plugin: change.plugin },
      'plugin lease expired; it had no failurePolicy Fail hook, so its registration is removed',
    );
  } else {
    logger.warn(
      { plugin: change.plugin, failClosed },
      'plugin lease expired; its failurePolicy Fail hooks now fail closed until it registers again or is deregistered on purpose, its Ignore hooks are removed',
    );
  }
}
