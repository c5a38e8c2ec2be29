import { HG_ERR_PLUGIN_CONFIG_INVALID, isHookgateError } from '@hookgate/errors';
import { describe, expect, it } from 'vitest';
import { PluginConfigError } from './plugin-config-error.js';

describe('PluginConfigError', () => {
  it('is a Hookgate error of the catalogue, with its own fields', () => {
    const error = new PluginConfigError('demo', 'demo.yaml', ['a: Required value']);
    expect(isHookgateError(error, HG_ERR_PLUGIN_CONFIG_INVALID.code)).toBe(true);
    expect({
      name: error.name,
      code: error.code,
      message: error.message,
      remedy: error.remedy,
      plugin: error.plugin,
      source: error.source,
      problems: error.problems,
    }).toEqual({
      name: 'PluginConfigError',
      code: 'HG_ERR_PLUGIN_CONFIG_INVALID',
      message: 'demo: invalid configuration in demo.yaml:\n  - a: Required value',
      remedy: HG_ERR_PLUGIN_CONFIG_INVALID.remedy,
      plugin: 'demo',
      source: 'demo.yaml',
      problems: ['a: Required value'],
    });
  });
});
