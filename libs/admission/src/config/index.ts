// Public surface of config/: re-exports only.
export { defaultConfiguration, defaultWebhook, VERSION_DEFAULTS, type VersionDefaults } from './defaults.js';
export {
  validateConfiguration,
  validateRule,
  CONFIG_API_VERSIONS,
  CONFIG_KINDS,
  type ValidateOptions,
} from './validate.js';
export { parseWebhookConfiguration, formatConfigurationErrors } from './parse.js';
export { compileHooks } from './hook.js';
