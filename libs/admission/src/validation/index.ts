// Public surface of validation/: re-exports only.
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
  unknownField,
  formatFieldError,
  formatFieldErrorShort,
  formatInvalid,
  type FieldError,
  type FieldErrorType,
} from './field-path.js';
export { FieldReader, type IntRange, type StringOptions } from './field-reader.js';
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
