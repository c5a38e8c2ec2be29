/**
 * A webhook configuration as loaded from YAML/JSON → a DefaultedConfiguration, or every problem
 * at once: shape and validation first (validate.ts), then per-version defaulting (defaults.ts).
 */
import { err, ok, type Result } from '../result.js';
import { defaultConfiguration } from './defaults.js';
import { formatInvalid, type FieldError } from '../validation/field-path.js';
import type { DefaultedConfiguration, WebhookConfiguration } from '../types/webhook-configuration.js';
import { validateConfiguration, type ValidateOptions } from './validate.js';

export function parseWebhookConfiguration(
  obj: unknown,
  opts: ValidateOptions = {},
): Result<DefaultedConfiguration, FieldError[]> {
  const errors = validateConfiguration(obj, opts);
  if (errors.length > 0) return err(errors);
  return ok(defaultConfiguration(obj as WebhookConfiguration));
}

/**
 * The apiserver's one-line rejection for a configuration, e.g.
 * `ValidatingWebhookConfiguration.admissionregistration.k8s.io "x" is invalid: [a, b]`.
 */
export function formatConfigurationErrors(obj: unknown, errors: readonly FieldError[]): string {
  const o = typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>) : {};
  const kind = typeof o['kind'] === 'string' && o['kind'] !== '' ? o['kind'] : 'WebhookConfiguration';
  const meta = o['metadata'];
  const name =
    typeof meta === 'object' && meta !== null && typeof (meta as Record<string, unknown>)['name'] === 'string'
      ? ((meta as Record<string, unknown>)['name'] as string)
      : '';
  return formatInvalid(`${kind}.admissionregistration.k8s.io`, name, errors);
}
