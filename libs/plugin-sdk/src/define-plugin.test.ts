import { describe, expect, it } from 'vitest';
import { HG_ERR_PLUGIN_DEFINITION_INVALID, isHookgateError } from '@hookgate/errors';
import { definePlugin, PluginDefinitionError } from './define-plugin.js';
import type { PluginSpec } from './types.js';

describe('definePlugin', () => {
  const invalid: { name: string; spec: unknown; problem: string }[] = [
    {
      name: 'no name',
      spec: { name: '', hooks: { h: { phase: 'validating', validate: () => ({ allowed: true }) } } },
      problem: 'name: must be a non-empty string',
    },
    { name: 'no hooks', spec: { name: 'p', hooks: {} }, problem: 'hooks: declare at least one hook' },
    {
      name: 'unknown phase',
      spec: { name: 'p', hooks: { h: { phase: 'audit', validate: () => ({ allowed: true }) } } },
      problem: 'hooks["h"]: phase must be "mutating" or "validating", got "audit"',
    },
    {
      name: 'mutating without mutate',
      spec: { name: 'p', hooks: { h: { phase: 'mutating', validate: () => ({ allowed: true }) } } },
      problem: 'hooks["h"]: a mutating hook needs mutate(request)',
    },
    {
      name: 'validating without validate',
      spec: { name: 'p', hooks: { h: { phase: 'validating' } } },
      problem: 'hooks["h"]: a validating hook needs validate(request)',
    },
    {
      name: 'reconcile not a function',
      spec: { name: 'p', hooks: { h: { phase: 'validating', validate: () => ({ allowed: true }) } }, reconcile: 1 },
      problem: 'reconcile: must be a function',
    },
    {
      name: 'resync without reconcileOrphan',
      spec: {
        name: 'p',
        hooks: { h: { phase: 'validating', validate: () => ({ allowed: true }) } },
        resync: { list: () => ({ effects: [] }) },
      },
      problem: 'resync.reconcileOrphan: must be a function',
    },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}`, () => {
      expect(() => definePlugin(c.spec as PluginSpec)).toThrow(PluginDefinitionError);
      expect(() => definePlugin(c.spec as PluginSpec)).toThrow(c.problem);
    });
  }

  it('throws the catalogued error, naming the plugin', () => {
    const error = (() => {
      try {
        definePlugin({ name: 'p', hooks: {} });
      } catch (e) {
        return e;
      }
    })();
    expect(isHookgateError(error, HG_ERR_PLUGIN_DEFINITION_INVALID.code)).toBe(true);
    expect((error as PluginDefinitionError).message).toBe('invalid plugin "p": hooks: declare at least one hook');
    expect((error as PluginDefinitionError).name).toBe('PluginDefinitionError');
  });

  it('reports every problem at once', () => {
    const spec = { name: 'p', hooks: { a: { phase: 'x' }, b: { phase: 'mutating' } } } as unknown as PluginSpec;
    expect(() => definePlugin(spec)).toThrow(/hooks\["a"\].*; hooks\["b"\]/);
  });

  it('returns a frozen plugin with the hooks by name', () => {
    const plugin = definePlugin({
      name: 'p',
      hooks: {
        'a.example.com': { phase: 'validating', validate: () => ({ allowed: true }) },
        'b.example.com': { phase: 'mutating', mutate: () => undefined },
      },
    });
    expect(Object.isFrozen(plugin)).toBe(true);
    expect([...plugin.hooks.keys()]).toEqual(['a.example.com', 'b.example.com']);
    expect(plugin.reconcile).toBeUndefined();
  });
});
