/** pod-defaults as a Hookgate plugin: one mutating hook over decidePodDefaults. */
import { definePlugin, type HookRequest, type KubeObject, type Plugin } from '@hookgate/plugin-sdk';
import type { JsonValue } from '@hookgate/admission';
import { decidePodDefaults, type PodDefaults } from './decide.js';

export const PLUGIN_NAME = 'pod-defaults';
export const DEFAULT_HOOK = 'pod-defaults.hookgate.dev';
/** Audit annotations are bounded: an operator needs to see what was defaulted, not a novel. */
const MAX_AUDIT_VALUE = 1024;

export interface PodDefaultsPluginOptions {
  defaults: PodDefaults;
  /** The webhook name in the gateway's configuration. */
  hook?: string;
}

export function buildPodDefaultsPlugin({ defaults, hook = DEFAULT_HOOK }: PodDefaultsPluginOptions): Plugin {
  return definePlugin({
    name: PLUGIN_NAME,
    hooks: {
      [hook]: {
        phase: 'mutating',
        mutate(request: HookRequest) {
          const result = decidePodDefaults(
            {
              operation: request.operation,
              kind: request.kind,
              subResource: request.subResource,
              namespace: request.namespace,
              object: request.object as JsonValue | undefined,
            },
            defaults,
          );
          // Nothing absent, nothing to do: the answer to a reinvocation after our own change.
          if (result.changes.length === 0) return undefined;
          const fields = result.changes.join(',');
          request.annotate(
            'defaulted',
            fields.length > MAX_AUDIT_VALUE ? `${fields.slice(0, MAX_AUDIT_VALUE - 3)}...` : fields,
          );
          return result.pod as KubeObject;
        },
      },
    },
  });
}
