/** `hookgate serve`: hands the flags to the gateway runtime (flags override the configuration). */
import { serve } from '@hookgate/gateway/serve';
import type { ServeFlags } from '../main.js';

export function serveCommand(flags: ServeFlags): Promise<number> {
  return serve({
    configPath: flags.config,
    ...(flags.host !== undefined ? { host: flags.host } : {}),
    ...(flags.port !== undefined ? { port: flags.port } : {}),
    ...(flags.metricsPort !== undefined ? { metricsPort: flags.metricsPort } : {}),
    ...(flags.insecureHttp ? { insecureHttp: true } : {}),
    ...(flags.stateDir !== undefined ? { stateDir: flags.stateDir } : {}),
    ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
    ...(flags.logLevel !== undefined ? { logLevel: flags.logLevel } : {}),
  });
}
