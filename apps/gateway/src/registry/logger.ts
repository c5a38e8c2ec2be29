/** The subset of pino the registry logs with: pass `componentLogger(log, 'registry')` (@hookgate/observability). */
export interface RegistryLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const SILENT_LOGGER: RegistryLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
