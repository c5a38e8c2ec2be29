/** required-labels plugin: labels objects must carry, per kind and namespace. See README.md. */
export { buildRequiredLabelsPlugin, PLUGIN_NAME, DEFAULT_HOOK, type RequiredLabelsPluginOptions } from './plugin.js';
export { parseRequiredLabelsConfig, loadRequiredLabelsConfig } from './config.js';
export { PluginConfigError } from '@hookgate/plugin-sdk';
export { matchesSelector } from './label-selector.js';
export type { LabelSelector } from '@hookgate/admission';
export * from './decide.js';
