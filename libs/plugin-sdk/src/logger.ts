/**
 * Plugins log in the schema of every Hookgate process (@hookgate/observability): JSON lines with
 * `level` as a label, ISO `time`, `pid`, `hostname`, and the plugin's name as `component`.
 */
import { createLogger, type Logger, type LogLevel } from '@hookgate/observability';

/** The subset of pino the SDK uses; pass your own pino logger, or anything with these methods. */
export interface PluginLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface PluginLoggerOptions {
  /** Default info. */
  readonly level?: LogLevel;
}

/** The logger servePlugin uses when given none: stdout, `component` set to the plugin's name. */
export function createPluginLogger(plugin: string, options: PluginLoggerOptions = {}): Logger {
  return createLogger({ component: plugin, ...(options.level !== undefined ? { level: options.level } : {}) });
}

const SILENT: PluginLogger = { info: () => {}, warn: () => {}, error: () => {} };

export function resolveLogger(plugin: string, logger: PluginLogger | false | undefined): PluginLogger {
  if (logger === false) return SILENT;
  return logger ?? createPluginLogger(plugin);
}
