import { describe, expect, it, vi } from 'vitest';
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
      expect(text).toContain('hookgate_plugin_circuit_state{plugin="c",state="closed",worker="0"} 1');
      expect(text).not.toContain('plugin="a"');
    } finally {
      set.close();
    }
  });
});

describe('PluginSet: registered plugins with TLS', () => {
  it('connects afresh when the registered CA or server name changes, and keeps the client otherwise', () => {
    const set = new PluginSet(createGatewayMetrics(createMetricsRegistry()));
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const spec = { name: 'r', target: 'localhost:7443', registeredAt: 1, registeredTls: { ca, serverName: 'r' } };
    try {
      const first = set.sync([spec]);
      expect(set.sync([spec]).get('r')).toBe(first.get('r'));
      const otherCa = set.sync([{ ...spec, registeredTls: { ca: ca.replace('MIIB', 'MIIC'), serverName: 'r' } }]);
      expect(otherCa.get('r')).not.toBe(first.get('r'));
      const otherName = set.sync([{ ...spec, registeredTls: { ca: ca.replace('MIIB', 'MIIC'), serverName: 's' } }]);
      expect(otherName.get('r')).not.toBe(otherCa.get('r'));
    } finally {
      set.close();
    }
  });
});

describe('PluginSet: retiring clients', () => {
  it('closes the client of a removed or replaced plugin after the grace period, not at once', async () => {
    const set = new PluginSet(createGatewayMetrics(createMetricsRegistry()), undefined, { retireAfterMs: 50 });
    try {
      const first = set.sync([
        { name: 'gone', target: '127.0.0.1:1' },
        { name: 'moved', target: '127.0.0.1:2' },
        { name: 'kept', target: '127.0.0.1:3' },
      ]);
      set.sync([
        { name: 'moved', target: '127.0.0.1:4' },
        { name: 'kept', target: '127.0.0.1:3' },
      ]);
      const connectivity = (name: string) => first.get(name)!.status().connectivity;
      expect([connectivity('gone'), connectivity('moved')]).not.toContain('SHUTDOWN');
      await vi.waitFor(() => expect([connectivity('gone'), connectivity('moved')]).toEqual(['SHUTDOWN', 'SHUTDOWN']), {
        timeout: 2000,
        interval: 10,
      });
      expect(connectivity('kept')).not.toBe('SHUTDOWN');
    } finally {
      set.close();
    }
  });
});

describe('PluginSet: circuit transitions in the log', () => {
  it('warns when a plugin circuit opens, naming the plugin and what to check', async () => {
    const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
    const log = {
      warn: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', fields, msg }),
      info: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'info', fields, msg }),
    };
    const set = new PluginSet(createGatewayMetrics(createMetricsRegistry()), log as never);
    try {
      const client = set
        .sync([{ name: 'gone', target: 'unix:///nonexistent/hookgate-test-gone.sock', stream: false }])
        .get('gone')!;
      const threshold = 5; // the default failureThreshold
      for (let i = 0; i < threshold; i++) {
        await client.admit(() => ({}) as never, 2000, new AbortController().signal);
      }
      expect(client.breaker?.state).toBe('open');
      const opened = lines.find((l) => l.msg.startsWith('plugin circuit opened'));
      expect(opened).toMatchObject({ level: 'warn', fields: { plugin: 'gone', failures: threshold } });
    } finally {
      set.close();
    }
  });
});
