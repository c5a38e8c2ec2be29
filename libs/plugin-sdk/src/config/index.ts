// Public surface of config/: loading a plugin's YAML configuration with field-path errors.
export { PluginConfigError } from './plugin-config-error.js';
export { FieldReader, joinFieldPath } from './field-reader.js';
export { parseYaml } from './parse-yaml.js';
export { validQualifiedName, validLabelValue } from './kube-names.js';
export { loadPluginConfig, parsePluginConfig, type ReadPluginConfig } from './load-plugin-config.js';
