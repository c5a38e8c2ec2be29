/** required-labels as a Hookgate plugin: one validating hook over decideRequiredLabels. */
import { definePlugin, type HookRequest, type Plugin, type ValidateResult } from '@hookgate/plugin-sdk';
import type { JsonValue } from '@hookgate/admission';
import { decideRequiredLabels, type RequiredLabelsPolicy } from './decide.js';

export const PLUGIN_NAME = 'required-labels';
export const DEFAULT_HOOK = 'required-labels.hookgate.dev';

export interface RequiredLabelsPluginOptions {
  policy: RequiredLabelsPolicy;
  /** The webhook name in the gateway's configuration. */
  hook?: string;
}

export function buildRequiredLabelsPlugin({ policy, hook = DEFAULT_HOOK }: RequiredLabelsPluginOptions): Plugin {
  return definePlugin({
    name: PLUGIN_NAME,
    hooks: { [hook]: { phase: 'validating', validate: (request: HookRequest) => validateLabels(request, policy) } },
  });
}

function validateLabels(request: HookRequest, policy: RequiredLabelsPolicy): ValidateResult {
  const { operation, kind, resource, subResource, namespace, name } = request;
  const decision = decideRequiredLabels(
    { operation, kind, resource, subResource, namespace, name, object: request.object as JsonValue | undefined },
    policy,
  );
  // Only the denial goes on the wire; `problems` is for callers of the pure decision.
  return decision.allowed
    ? { allowed: true }
    : { allowed: false, code: decision.code, reason: decision.reason, message: decision.message };
}
