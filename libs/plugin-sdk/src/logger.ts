import { pino } from 'pino';

/** The subset of pino the SDK uses; pass your own pino logger, or anything with these methods. */
export interface PluginLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const SILENT: PluginLogger = { info: () => {}, warn: () => {}, error: () => {} };

export function resolveLogger(plugin: string, logger: PluginLogger | false | undefined): PluginLogger {
  if (logger === false) return SILENT;
  return logger ?? pino({ name: plugin });
}
