/** `hookgate serve --host H --port P --metrics-port P`: flags override the configuration. */
import type { GatewayConfiguration } from './gateway-configuration.js';

export interface ServeFlags {
  readonly host?: string;
  readonly port?: number;
  readonly metricsPort?: number;
}

export function applyServeFlags(g: GatewayConfiguration, flags: ServeFlags): GatewayConfiguration {
  return {
    ...g,
    admission: {
      ...g.admission,
      ...(flags.host !== undefined ? { host: flags.host } : {}),
      ...(flags.port !== undefined ? { port: flags.port } : {}),
    },
    metrics: { ...g.metrics, ...(flags.metricsPort !== undefined ? { port: flags.metricsPort } : {}) },
  };
}
