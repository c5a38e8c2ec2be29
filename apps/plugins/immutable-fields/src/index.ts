/** immutable-fields plugin: fields that cannot be changed once set. See README.md. */
export { buildImmutableFieldsPlugin, PLUGIN_NAME, DEFAULT_HOOK, type ImmutableFieldsPluginOptions } from './plugin.js';
export { parseImmutableFieldsConfig, loadImmutableFieldsConfig } from './config.js';
export { PluginConfigError } from '@hookgate/plugin-sdk';
export { parseFieldPath, type FieldPath, type PathSegment } from './field-path.js';
export * from './decide.js';
