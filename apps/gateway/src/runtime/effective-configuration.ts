/** The configuration as served: the file's settings with the command-line overrides applied. */
import { resolve } from 'node:path';
import { DEFAULTS, applyServeFlags, type GatewayConfiguration, type LoadedConfiguration } from '@hookgate/config';
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
 * `--state-dir` moves what lives under the state directory by default with it: the registry socket
 * and the spool, unless the file set them elsewhere. Two gateways with their own state directories
 * then never fight over one registry socket or spool.
 */
function movedStateDir(
  gateway: GatewayConfiguration,
  stateDir: string,
): Pick<GatewayConfiguration, 'stateDir' | 'registry' | 'spool'> {
  const underOld = (file: string, name: string) => file === resolve(gateway.stateDir, name);
  const spool = gateway.spool;
  return {
    stateDir,
    registry: underOld(gateway.registry.socket, 'registry.sock')
      ? { ...gateway.registry, socket: resolve(stateDir, 'registry.sock') }
      : gateway.registry,
    ...(spool === undefined
      ? {}
      : {
          spool: underOld(spool.dir, DEFAULTS.spoolDirName)
            ? { ...spool, dir: resolve(stateDir, DEFAULTS.spoolDirName) }
            : spool,
        }),
  };
}
