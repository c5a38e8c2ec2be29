import { HG_ERR_PLUGIN_DEFINITION_INVALID } from '@hookgate/errors';
import type { HookSpec, Plugin, PluginSpec } from './types.js';

/** A programming error in a plugin definition: thrown at startup, never on the request path. */
export class PluginDefinitionError extends HG_ERR_PLUGIN_DEFINITION_INVALID {
  override readonly name = 'PluginDefinitionError';
}

/**
 * Checks a plugin definition and freezes it. Throws a PluginDefinitionError naming every problem,
 * so a plugin with a typo fails at startup rather than on its first request.
 */
export function definePlugin(spec: PluginSpec): Plugin {
  const problems: string[] = [];
  if (typeof spec.name !== 'string' || spec.name.trim() === '') problems.push('name: must be a non-empty string');
  const hooks = new Map<string, HookSpec>();
  const entries = Object.entries(spec.hooks ?? {});
  if (entries.length === 0) problems.push('hooks: declare at least one hook');
  for (const [hookName, hook] of entries) {
    const problem = checkHook(hookName, hook);
    if (problem) problems.push(`hooks[${JSON.stringify(hookName)}]: ${problem}`);
    else hooks.set(hookName, hook);
  }
  if (spec.reconcile !== undefined && typeof spec.reconcile !== 'function')
    problems.push('reconcile: must be a function');
  if (spec.resync !== undefined) {
    const { resync } = spec;
    if (resync === null || typeof resync !== 'object') problems.push('resync: must be { list, reconcileOrphan }');
    else {
      if (typeof resync.list !== 'function') problems.push('resync.list: must be a function');
      if (typeof resync.reconcileOrphan !== 'function') problems.push('resync.reconcileOrphan: must be a function');
    }
  }
  if (problems.length > 0) {
    throw new PluginDefinitionError(String(JSON.stringify(spec.name)), problems.join('; '));
  }
  const resync =
    spec.resync === undefined
      ? undefined
      : Object.freeze({
          list: spec.resync.list.bind(spec.resync),
          reconcileOrphan: spec.resync.reconcileOrphan.bind(spec.resync),
        });
  return Object.freeze({ name: spec.name, hooks, reconcile: spec.reconcile?.bind(spec), resync });
}

function checkHook(name: string, hook: HookSpec): string | undefined {
  if (name.trim() === '') return 'the hook name must be the webhook name, not empty';
  if (hook === null || typeof hook !== 'object') return 'must be an object with phase and a handler';
  if (hook.phase === 'mutating')
    return typeof hook.mutate === 'function' ? undefined : 'a mutating hook needs mutate(request)';
  if (hook.phase === 'validating')
    return typeof hook.validate === 'function' ? undefined : 'a validating hook needs validate(request)';
  return `phase must be "mutating" or "validating", got ${JSON.stringify((hook as { phase?: unknown }).phase)}`;
}
