// Public surface of config/: loading a plugin's YAML configuration with field-path errors.
export { PluginConfigError } from './plugin-config-error.js';
// The one field reader of the repository (libs/config reads the gateway's configuration with it too).
export { FieldReader, type FieldPath } from '@hookgate/admission';
export { parseYaml } from './parse-yaml.js';
export { validQualifiedName, validLabelValue } from './kube-names.js';
export { loadPluginConfig, parsePluginConfig, type ReadPluginConfig } from './load-plugin-config.js';
