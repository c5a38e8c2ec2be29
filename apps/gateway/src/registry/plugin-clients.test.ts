import { describe, expect, it } from 'vitest';
import { reconcilePluginClients } from './plugin-clients.js';
import type { PluginTarget } from './types.js';
import { RecordingClient } from './test/fixtures.js';

const create = (p: PluginTarget) => new RecordingClient(p.name, p.target);

describe('reconcilePluginClients', () => {
  const before: PluginTarget[] = [
    { name: 'quota', target: '127.0.0.1:7001', source: 'static' },
    { name: 'labels', target: 'unix:///run/labels.sock', source: 'registered', registeredAt: 1000 },
    { name: 'audit', target: 'unix:///run/audit.sock', source: 'registered', registeredAt: 1000 },
  ];
  const cases: { name: string; after: PluginTarget[]; kept: string[]; retired: string[] }[] = [
    { name: 'nothing changed: every channel kept', after: before, kept: ['quota', 'labels', 'audit'], retired: [] },
    {
      name: 'a registered plugin moved: new client, the old one retired',
      after: [before[0]!, { ...before[1]!, target: 'unix:///run/labels-2.sock', registeredAt: 2000 }, before[2]!],
      kept: ['quota', 'audit'],
      retired: ['labels'],
    },
    {
      name: 'a registered plugin came back after its lease ran out: a fresh client on the same target',
      after: [before[0]!, { ...before[1]!, registeredAt: 5000 }, before[2]!],
      kept: ['quota', 'audit'],
      retired: ['labels'],
    },
    {
      name: 'a plugin deregistered: its client retired',
      after: [before[0]!, before[1]!],
      kept: ['quota', 'labels'],
      retired: ['audit'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const first = reconcilePluginClients(new Map(), before, create);
      const second = reconcilePluginClients(first.clients, c.after, create);
      expect([...second.clients.keys()].sort()).toEqual(c.after.map((p) => p.name).sort());
      expect(
        c.after.filter((p) => second.clients.get(p.name) === first.clients.get(p.name)).map((p) => p.name),
      ).toEqual(c.kept);
      expect(second.retired.map((r) => r.name)).toEqual(c.retired);
      expect(second.retired.every((r) => r.closed === false)).toBe(true);
    });
  }
});
