/** immutable-fields as a Hookgate plugin: one validating hook over decideImmutableFields. */
import { definePlugin, type HookRequest, type Plugin, type ValidateResult } from '@hookgate/plugin-sdk';
import type { JsonValue } from '@hookgate/admission';
import { decideImmutableFields, type ImmutablePolicy } from './decide.js';

export const PLUGIN_NAME = 'immutable-fields';
export const DEFAULT_HOOK = 'immutable-fields.hookgate.dev';

export interface ImmutableFieldsPluginOptions {
  policy: ImmutablePolicy;
  /** The webhook name in the gateway's configuration. */
  hook?: string;
}

export function buildImmutableFieldsPlugin({ policy, hook = DEFAULT_HOOK }: ImmutableFieldsPluginOptions): Plugin {
  return definePlugin({
    name: PLUGIN_NAME,
    hooks: { [hook]: { phase: 'validating', validate: (request: HookRequest) => validateUnchanged(request, policy) } },
  });
}

function validateUnchanged(request: HookRequest, policy: ImmutablePolicy): ValidateResult {
  const { operation, kind, resource, subResource, name, namespace } = request;
  const objects = {
    object: request.object as JsonValue | undefined,
    oldObject: request.oldObject as JsonValue | undefined,
  };
  const decision = decideImmutableFields(
    { operation, kind, resource, subResource, name, namespace, ...objects },
    policy,
  );
  // Only the denial goes on the wire; `changes` is for callers of the pure decision.
  return decision.allowed
    ? { allowed: true }
    : { allowed: false, code: decision.code, reason: decision.reason, message: decision.message };
}
