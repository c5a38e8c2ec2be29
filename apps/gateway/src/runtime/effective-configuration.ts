/** The configuration as served: the file's settings with the command-line overrides applied. */
import { applyServeFlags, type LoadedConfiguration } from '@hookgate/config';
import type { ServeOptions } from './serve-options.js';

export function applyServeOptions(loaded: LoadedConfiguration, options: ServeOptions): LoadedConfiguration {
  const flagged = applyServeFlags(loaded.gateway, {
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.metricsPort !== undefined ? { metricsPort: options.metricsPort } : {}),
  });
  const gateway = {
    ...flagged,
    admission: options.insecureHttp ? { ...flagged.admission, tls: { ...flagged.admission.tls, disabled: true } } : flagged.admission,
    ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
    ...(options.logLevel !== undefined ? { logLevel: options.logLevel } : {}),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
  };
  return { ...loaded, gateway };
}
