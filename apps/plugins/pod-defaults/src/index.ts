/** pod-defaults plugin: idempotent defaults for pods. See README.md. */
export { buildPodDefaultsPlugin, PLUGIN_NAME, DEFAULT_HOOK, type PodDefaultsPluginOptions } from './plugin.js';
export { parsePodDefaultsConfig, loadPodDefaultsConfig } from './config.js';
export { PluginConfigError } from '@hookgate/plugin-sdk';
export * from './decide.js';
