/**
 * One benchmark plugin: an SDK plugin serving the no-op and the realistic hook of one phase and
 * index on a unix socket, exactly as a plugin author would write it.
 *
 *   node --import tsx plugin-main.ts --phase mutating --index 0 --listen unix:///tmp/x/m0.sock
 */
import { parseArgs } from 'node:util';
import { definePlugin, servePlugin, type HookSpec } from '@hookgate/plugin-sdk';
import { benchHook, pluginName, type BenchHook, type HookPhase, type JsonObject } from '../hooks/bench-hooks.js';
import { announceReady, exitWithParent } from './exit-with-parent.js';

const { values } = parseArgs({
  options: { phase: { type: 'string' }, index: { type: 'string' }, listen: { type: 'string' } },
});
const phase = values.phase as HookPhase;
const index = Number(values.index);
if ((phase !== 'mutating' && phase !== 'validating') || !Number.isInteger(index) || values.listen === undefined) {
  process.stderr.write('usage: plugin-main.ts --phase mutating|validating --index N --listen unix:///path.sock\n');
  process.exit(2);
}

function sdkHook(hook: BenchHook): HookSpec {
  if (hook.phase === 'mutating') {
    const mutate = hook.mutate;
    // A no-op answers nothing (no diff); a realistic hook changes its copy and returns it: the SDK diffs.
    if (mutate === undefined) return { phase: 'mutating', mutate: () => undefined };
    return {
      phase: 'mutating',
      mutate: (req) => {
        const object = req.object as JsonObject | undefined;
        if (object === undefined) return undefined;
        mutate(object);
        return object;
      },
    };
  }
  const validate = hook.validate ?? (() => undefined);
  return {
    phase: 'validating',
    validate: (req) => {
      const message = req.object === undefined ? undefined : validate(req.object as JsonObject);
      return message === undefined ? { allowed: true } : { allowed: false, message };
    },
  };
}

const hooks = [benchHook('noop', phase, index), benchHook('realistic', phase, index)];
const plugin = definePlugin({
  name: pluginName(phase, index),
  hooks: Object.fromEntries(hooks.map((h) => [h.name, sdkHook(h)])),
});
const server = await servePlugin(plugin, { listen: values.listen, logger: false, shutdownGraceMs: 2000 });
exitWithParent(() => server.shutdown(2000));
announceReady({ plugin: plugin.name });
