/** What `hookgate serve` passes to the gateway runtime (the CLI turns flags and env into this). */
import type { LogLevel } from '@hookgate/observability';

export interface ServeOptions {
  readonly configPath: string;
  readonly host?: string;
  readonly port?: number;
  readonly metricsPort?: number;
  /** Plain http on the admission listener (tests, local use). */
  readonly insecureHttp?: boolean;
  /** Overrides `stateDir` (the self-managed certificate, registrations.json; the default registry socket moves with it). */
  readonly stateDir?: string;
  /** Overrides `logLevel`. */
  readonly logLevel?: LogLevel;
  /** Overrides `workers`. */
  readonly workers?: number;
}
