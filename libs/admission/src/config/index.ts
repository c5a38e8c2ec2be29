// Public surface of config/: re-exports only.
export {
  FieldPath,
  root,
  required,
  invalid,
  notSupported,
  duplicate,
  forbidden,
  tooMany,
  tooLong,
  formatFieldError,
  formatInvalid,
  type FieldError,
  type FieldErrorType,
} from './field-path.js';
export {
  isDns1123Label,
  isDns1123Subdomain,
  isDns1035Label,
  isQualifiedName,
  isValidLabelValue,
  isSelectorOperator,
  validateFullyQualifiedName,
  validateLabelName,
  validateLabels,
  validateLabelSelector,
  validateLabelSelectorRequirement,
} from './names.js';
export { defaultConfiguration, defaultWebhook, VERSION_DEFAULTS, type VersionDefaults } from './defaults.js';
export { validateConfiguration, CONFIG_API_VERSIONS, CONFIG_KINDS, type ValidateOptions } from './validate.js';
export { parseWebhookConfiguration, formatConfigurationErrors } from './parse.js';
