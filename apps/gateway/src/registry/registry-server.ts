/**
 * The Registry gRPC service on the gateway's unix socket, and nowhere else: whoever can open the
 * socket file may register hooks, so its mode (0600 or 0660) is the authentication.
 */
import * as grpc from '@grpc/grpc-js';
import { RegistryService } from '@hookgate/proto';
import { SILENT_LOGGER, type RegistryLogger } from './logger.js';
import type { RegistrationStore } from './registration-store.js';
import { registryHandlers, type RefusalListener } from './registry-service.js';
import { bindRegistrySocket, claimSocketPath, releaseSocketPath, type SocketMode } from './registry-socket.js';

export interface RegistryServerOptions {
  /** Absolute path of the unix socket (GatewayConfiguration `registry.socket`). */
  readonly socket: string;
  readonly store: RegistrationStore;
  /** Default 0o600. */
  readonly mode?: SocketMode;
  readonly logger?: RegistryLogger;
  /** How long close() lets calls in flight finish before cutting them. Default 2 s. */
  readonly shutdownGraceMs?: number;
  /** Every refused Register/Deregister, e.g. for a metric. */
  readonly onRefused?: RefusalListener;
}

export interface RegistryServer {
  readonly socket: string;
  /** Stops serving and removes the socket file. Idempotent. */
  close(): Promise<void>;
}

export async function startRegistryServer(options: RegistryServerOptions): Promise<RegistryServer> {
  const logger = options.logger ?? SILENT_LOGGER;
  const mode = options.mode ?? 0o600;
  await claimSocketPath(options.socket);
  const server = new grpc.Server();
  server.addService(RegistryService, registryHandlers(options.store, logger, options.onRefused));
  let inode: number;
  try {
    inode = await bindRegistrySocket(server, options.socket, mode);
  } catch (error) {
    server.forceShutdown();
    throw error;
  }
  logger.info({ socket: options.socket, mode: `0${mode.toString(8)}` }, 'registry serving');

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, options.shutdownGraceMs ?? 2000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await releaseSocketPath(options.socket, inode);
    })();
    return closing;
  };
  return { socket: options.socket, close };
}
