/** `hookgate serve`: hands the flags to the gateway runtime (flags override the configuration). */
import { serve } from '@hookgate/gateway/serve';
import type { LogLevel } from '@hookgate/observability';

/** The parsed `hookgate serve` flags (serve-flags.ts). */
export interface ServeFlags {
  config: string;
  host?: string;
  port?: number;
  metricsPort?: number;
  insecureHttp?: boolean;
  stateDir?: string;
  workers?: number;
  logLevel?: LogLevel;
}

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
