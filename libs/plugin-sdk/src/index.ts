/**
 * @hookgate/plugin-sdk: a Hookgate plugin in a few lines.
 *
 *   import { definePlugin, servePlugin } from '@hookgate/plugin-sdk';
 *
 *   const plugin = definePlugin({
 *     name: 'team-labels',
 *     hooks: {
 *       'team-label.example.com': {
 *         phase: 'mutating',
 *         mutate(req) {
 *           const obj = req.object;
 *           if (!obj) return;                                    // DELETE: nothing to change
 *           obj.metadata = { ...obj.metadata, labels: { team: 'core', ...obj.metadata?.labels } };
 *           return obj;                                          // the SDK computes the JSON Patch
 *         },
 *       },
 *       'no-latest.example.com': {
 *         phase: 'validating',
 *         validate: (req) => JSON.stringify(req.object).includes(':latest"')
 *           ? { allowed: false, message: 'images must be pinned, not :latest' }
 *           : { allowed: true },
 *       },
 *     },
 *   });
 *   await servePlugin(plugin, { listen: 'unix:///run/hookgate/team-labels.sock', handleSignals: true });
 *
 * Handler errors become hook errors (the gateway applies the hook's failurePolicy); they never
 * crash the process. The gateway is configured with `clientConfig: { plugin: team-labels }`.
 */
export { definePlugin, PluginDefinitionError } from './define-plugin.js';
export { servePlugin, type ServeOptions, type PluginServer } from './serve.js';
export { HookCallError } from './hook-call-error.js';
export { HealthState } from './health.js';
// Self-registration with the gateway's Registry: backoff, lease renewal, re-registration after a gateway restart.
export * from './registration/index.js';
export { createPluginLogger, type PluginLogger, type PluginLoggerOptions } from './logger.js';
export {
  PluginConfigError,
  FieldReader,
  type FieldPath,
  parseYaml,
  validQualifiedName,
  validLabelValue,
  loadPluginConfig,
  parsePluginConfig,
  type ReadPluginConfig,
} from './config/index.js';
export type {
  Plugin,
  PluginSpec,
  HookSpec,
  MutatingHookSpec,
  ValidatingHookSpec,
  HookRequest,
  KubeObject,
  ObjectMeta,
  MutateResult,
  ValidateResult,
  Allow,
  Deny,
  ExplicitPatch,
  SideEffectPayload,
  ReconcileRequest,
  ReconcileResult,
  ReconcileOutcome,
  AdmissionSummary,
  ResyncSpec,
  HeldEffect,
  HeldEffectsPage,
  HeldObjectRef,
  ListHeldRequest,
  OrphanRequest,
} from './types.js';
