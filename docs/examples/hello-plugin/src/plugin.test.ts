import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { admit, admitMessage, parseJson, serveOnUnixSocket } from '@hookgate/plugin-sdk/testing';
import { hasTeamLabel, NEEDS_TEAM, plugin, withDefaultOwner } from './plugin.js';

describe('the decisions, as plain functions', () => {
  const cases = [
    { name: 'a team label', labels: { team: 'payments' }, expected: true },
    { name: 'no labels', labels: undefined, expected: false },
    { name: 'an empty team label', labels: { team: '' }, expected: false },
  ];
  for (const c of cases) {
    it(c.name, () => expect(hasTeamLabel({ metadata: { labels: c.labels } })).toBe(c.expected));
  }

  it('an owner already set is kept', () => {
    const object = { metadata: { annotations: { 'example.com/owner': 'shop' } } };
    expect(withDefaultOwner(object)).toEqual(object);
  });
});

describe('the plugin over gRPC, as the gateway calls it', () => {
  it('patches in the owner, then refuses the missing team label', async () => {
    const { request } = JSON.parse(await readFile(new URL('../review.json', import.meta.url), 'utf8'));
    const served = await serveOnUnixSocket(plugin);
    try {
      const mutated = await admit(served.client, admitMessage('default-owner.hello.example.com', 'MUTATING', request));
      expect(parseJson(mutated.patch)).toEqual([
        { op: 'add', path: '/metadata/annotations', value: { 'example.com/owner': 'platform' } },
      ]);
      const validated = await admit(
        served.client,
        admitMessage('require-team.hello.example.com', 'VALIDATING', request),
      );
      expect(validated).toMatchObject({
        allowed: false,
        status: { code: 403, reason: 'Forbidden', message: NEEDS_TEAM },
      });
    } finally {
      await served.close();
    }
  });
});
