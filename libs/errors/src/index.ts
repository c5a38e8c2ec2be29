/**
 * @hookgate/errors: the one catalogue of HG_ERR_* codes and the one shape of a Hookgate error.
 * A leaf library (no dependencies) that every Hookgate package but libs/admission may import;
 * libs/admission throws no coded errors (its errors are values: FieldError, HookFailure, Status).
 *
 *   import { HG_ERR_PLUGIN_CONFIG_INVALID, isHookgateError } from '@hookgate/errors';
 *
 *   export class PluginConfigError extends HG_ERR_PLUGIN_CONFIG_INVALID { ... }   // keeps its own fields
 *   throw new HG_ERR_LEDGER_REDIS_UNREACHABLE(url, source, detail, { cause });     // one string per %s
 *   if (isHookgateError(error, HG_ERR_PLUGIN_CONFIG_INVALID.code)) ...             // code, not instanceof
 */
export * from './catalogue.js';
export { defineError } from './define-error.js';
export type { CauseOption, ErrorDefinition, ErrorEntry, TemplateArgs } from './define-error.js';
export { HookgateError, isHookgateError } from './hookgate-error.js';
export type { HookgateErrorCode } from './hookgate-error.js';
export { renderErrorDocs } from './render-docs.js';
