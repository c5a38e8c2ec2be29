/**
 * One benchmark plugin: an SDK plugin serving the no-op and the realistic hook of the hook slots
 * it is given (one slot per process in the main scenarios; all of them in the one-process
 * scenario) on a unix socket, exactly as a plugin author would write it.
 *
 *   node --import tsx plugin-main.ts --name bench-m0 --slots m0 --listen unix:///tmp/x/m0.sock
 *   node --import tsx plugin-main.ts --name bench-all --slots m0,m1,m2,v0,v1,v2 --listen unix:///tmp/x/all.sock
 */
import { parseArgs } from 'node:util';
import { definePlugin, servePlugin, type HookSpec } from '@hookgate/plugin-sdk';
import { benchHook, parseSlots, type BenchHook, type JsonObject } from '../hooks/bench-hooks.js';
import { announceReady, exitWithParent } from './exit-with-parent.js';

const { values } = parseArgs({
  options: { name: { type: 'string' }, slots: { type: 'string' }, listen: { type: 'string' } },
});
const slots = values.slots === undefined ? undefined : parseSlots(values.slots);
if (values.name === undefined || slots === undefined || values.listen === undefined) {
  process.stderr.write('usage: plugin-main.ts --name NAME --slots m0,v1,... --listen unix:///path.sock\n');
  process.exit(2);
}

/** The hook as a plugin author writes it. A no-op hook reads nothing, so the SDK parses nothing. */
function sdkHook(hook: BenchHook): HookSpec {
  if (hook.phase === 'mutating') {
    const mutate = hook.mutate;
    if (mutate === undefined) return { phase: 'mutating', mutate: () => undefined };
    // A realistic hook changes its copy and returns it: the SDK diffs.
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
  const validate = hook.validate;
  if (validate === undefined) return { phase: 'validating', validate: () => ({ allowed: true }) };
  return {
    phase: 'validating',
    validate: (req) => {
      const message = req.object === undefined ? undefined : validate(req.object as JsonObject);
      return message === undefined ? { allowed: true } : { allowed: false, message };
    },
  };
}

const hooks = slots.flatMap((slot) => [
  benchHook('noop', slot.phase, slot.index),
  benchHook('realistic', slot.phase, slot.index),
]);
const plugin = definePlugin({
  name: values.name,
  hooks: Object.fromEntries(hooks.map((h) => [h.name, sdkHook(h)])),
});
const server = await servePlugin(plugin, { listen: values.listen, logger: false, shutdownGraceMs: 2000 });
exitWithParent(() => server.shutdown(2000));
announceReady({ plugin: plugin.name });
