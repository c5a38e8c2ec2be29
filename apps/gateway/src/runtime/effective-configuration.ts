/** The configuration as served: the file's settings with the command-line overrides applied. */
import { resolve } from 'node:path';
import { applyServeFlags, type GatewayConfiguration, type LoadedConfiguration } from '@hookgate/config';
import type { ServeOptions } from './serve-options.js';

export function applyServeOptions(loaded: LoadedConfiguration, options: ServeOptions): LoadedConfiguration {
  const flagged = applyServeFlags(loaded.gateway, {
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.metricsPort !== undefined ? { metricsPort: options.metricsPort } : {}),
  });
  const gateway = {
    ...flagged,
    admission: options.insecureHttp
      ? { ...flagged.admission, tls: { ...flagged.admission.tls, disabled: true } }
      : flagged.admission,
    ...(options.stateDir !== undefined ? movedStateDir(flagged, options.stateDir) : {}),
    ...(options.logLevel !== undefined ? { logLevel: options.logLevel } : {}),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
  };
  return { ...loaded, gateway };
}

/**
 * `--state-dir` moves what lives under the state directory by default with it: the registry socket,
 * unless the file set it elsewhere. Two gateways with their own state directories then never fight
 * over one registry socket.
 */
function movedStateDir(
  gateway: GatewayConfiguration,
  stateDir: string,
): Pick<GatewayConfiguration, 'stateDir' | 'registry'> {
  const underOld = (file: string, name: string) => file === resolve(gateway.stateDir, name);
  return {
    stateDir,
    registry: underOld(gateway.registry.socket, 'registry.sock')
      ? { ...gateway.registry, socket: resolve(stateDir, 'registry.sock') }
      : gateway.registry,
  };
}
