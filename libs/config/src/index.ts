/**
 * @hookgate/config: `hookgate serve --config PATH`. Loads one multi-document YAML file or a
 * directory of them (one GatewayConfiguration plus webhook configurations), checks everything at
 * once, and keeps the last good configuration across hot reloads.
 *
 *   const result = await loadConfiguration('/etc/hookgate');
 *   if (!result.ok) for (const e of result.error) console.error(formatConfigError(e));
 *
 *   const opened = await ConfigurationHolder.open(path, { prepare });   // prepare: compile hooks
 *   const watch = await watchConfiguration(path, () => void holder.reload());
 *   const unhook = reloadOnSighup(() => void holder.reload());
 */
export * from './gateway-configuration.js';
export { formatConfigError } from './config-error.js';
export type { ConfigError, ConfigRule } from './config-error.js';
export { loadConfiguration } from './load-configuration.js';
export type { ConfigSource, LoadOptions, LoadedConfiguration } from './load-configuration.js';
export { parseGatewayConfiguration } from './parse-gateway-configuration.js';
export { loadPluginTls, readClientTls, readPluginList, targetProblem } from './plugin-list.js';
export type { PathReader, PluginListOptions } from './plugin-list.js';
export { ConfigurationHolder } from './configuration-holder.js';
export type { ConfigurationSnapshot, HolderOptions, Prepare, ReloadOutcome } from './configuration-holder.js';
export { watchConfiguration, reloadOnSighup } from './watch-configuration.js';
export type { ConfigurationWatch, WatchOptions } from './watch-configuration.js';
export { applyServeFlags } from './serve-flags.js';
export type { ServeFlags } from './serve-flags.js';
export { referencedFiles } from './check-files.js';
export { isLoopbackTarget, mayCallInPlaintext } from './plaintext-targets.js';
