import { describe, expect, it } from 'vitest';
import { createGatewayMetrics, createMetricsRegistry } from '@hookgate/observability';
import { PluginSet } from './plugin-set.js';

describe('PluginSet', () => {
  it('keeps a plugin whose settings did not change, replaces a changed one, and drops a removed one', async () => {
    const registry = createMetricsRegistry();
    const set = new PluginSet(createGatewayMetrics(registry));
    try {
      const first = set.sync([
        { name: 'a', target: '127.0.0.1:1' },
        { name: 'b', target: '127.0.0.1:2' },
      ]);
      const second = set.sync([
        { name: 'a', target: '127.0.0.1:1' },
        { name: 'b', target: '127.0.0.1:3' },
        { name: 'c', target: '127.0.0.1:4', stream: false },
      ]);
      expect(second.get('a')).toBe(first.get('a'));
      expect(second.get('b')).not.toBe(first.get('b'));
      expect(second.get('b')?.target).toBe('127.0.0.1:3');
      const third = set.sync([{ name: 'c', target: '127.0.0.1:4', stream: false }]);
      expect([...third.keys()]).toEqual(['c']);
      const text = await registry.metrics();
      expect(text).toContain('hookgate_plugin_circuit_state{plugin="c",state="closed"} 1');
      expect(text).not.toContain('plugin="a"');
    } finally {
      set.close();
    }
  });
});
