/**
 * resyncPlugin against real SDK plugins on unix sockets through the real PluginClient, with an
 * in-memory apiserver read (the one faked part, as in process-job.test.ts): which held effects are
 * left alone, kept, or handed back, and how a run that cannot list or read is reported.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPluginClient, type PluginClient } from '@hookgate/plugin-client';
import {
  definePlugin,
  servePlugin,
  type HeldEffect,
  type OrphanRequest,
  type PluginServer,
} from '@hookgate/plugin-sdk';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import type { ObservedObject } from './decide-persistence.js';
import type { ObjectRef, ReadObject } from './object-reader.js';
import { resyncPlugin, type ResyncDeps } from './resync.js';

const NOW = 1_764_143_540_000;
const held = (name: string, sinceMs: number, uid?: string): HeldEffect => ({
  hook: 'claims.example.com',
  sideEffect: { kind: 'claim', key: `shop/${name}`, payload: { name } },
  object: { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'shop', name, ...(uid ? { uid } : {}) },
  sinceMs,
});
const HELD = [
  held('young', NOW - 1_000),
  held('there', NOW - 600_000, 'u-there'),
  held('there-no-uid', NOW - 600_000),
  held('gone', NOW - 600_000),
  held('replaced', NOW - 600_000, 'u-old'),
  held('busy', NOW - 600_000),
  held('forbidden', NOW - 600_000),
];
const orphans: OrphanRequest[] = [];

const holder = definePlugin({
  name: 'holder',
  hooks: { 'claims.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
  resync: {
    // Three per page, whatever was asked: the controller follows the token.
    list: ({ pageToken }) => {
      const start = Number(pageToken || '0');
      return { effects: HELD.slice(start, start + 3), nextPageToken: start + 3 < HELD.length ? String(start + 3) : '' };
    },
    reconcileOrphan: (request) => {
      orphans.push(request);
      return request.held.object.name === 'busy' ? { done: false, retryAfterMs: 1_000 } : { done: true };
    },
  },
});
const plain = definePlugin({
  name: 'plain',
  hooks: { 'claims.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
});

const stored = (uid: string): ObservedObject => ({ uid, name: 'x', resourceVersion: '1' });
const cluster: Record<string, ObservedObject | 'absent' | 'forbidden'> = {
  there: stored('u-there'),
  'there-no-uid': stored('u-any'),
  gone: 'absent',
  replaced: stored('u-new'),
  busy: 'absent',
  forbidden: 'forbidden',
};
const reads: string[] = [];
const readObject: ReadObject = async (ref: ObjectRef) => {
  reads.push(ref.name);
  const found = cluster[ref.name];
  if (found === 'forbidden') throw new Error('HTTP 403 Forbidden');
  return found ?? 'absent';
};

let tmp: TempDir;
let servers: PluginServer[] = [];
let clients: Map<string, PluginClient>;

beforeAll(async () => {
  tmp = await tempDir('hookgate-resync-');
  servers = await Promise.all(
    [holder, plain].map((p) =>
      servePlugin(p, { listen: `unix://${path.join(tmp.dir, `${p.name}.sock`)}`, logger: false }),
    ),
  );
  clients = new Map(servers.map((s) => [s.plugin.name, createPluginClient(s.plugin.name, s.target)]));
});
afterAll(async () => {
  for (const client of clients?.values() ?? []) client.close();
  await Promise.all(servers.map((s) => s.shutdown(200)));
  await tmp?.cleanup();
});

function deps(overrides: Partial<ResyncDeps> = {}): ResyncDeps {
  const options = () => ({ deadline: Date.now() + 2_000 });
  return {
    listHeld: (plugin, request) => clients.get(plugin)!.listHeldEffects(request, options()),
    reconcileOrphan: (plugin, request) => clients.get(plugin)!.reconcileOrphan(request, options()),
    readObject,
    now: () => NOW,
    minAgeMs: 100_000,
    pageSize: 2,
    ...overrides,
  };
}

describe('resyncPlugin', () => {
  it('leaves young effects alone, keeps those whose object is there, hands back the absent and the replaced', async () => {
    orphans.length = 0;
    reads.length = 0;
    const result = await resyncPlugin('holder', deps());
    expect(result).toMatchObject({
      result: 'partial',
      listed: 7,
      young: 1,
      kept: 2,
      reconciled: 2,
      pending: 1,
      failed: 1,
    });
    expect(reads).not.toContain('young');
    expect(orphans.map((o) => [o.held.object.name, o.reason, o.observedUid])).toEqual([
      ['gone', 'absent', ''],
      ['replaced', 'replaced', 'u-new'],
      ['busy', 'absent', ''],
    ]);
    expect(JSON.parse(orphans[0]!.held.sideEffect.payload.toString())).toEqual({ name: 'gone' });
    expect(result.result === 'partial' && result.failures).toEqual([
      'claim "shop/forbidden": reading deployments.apps shop/forbidden failed: HTTP 403 Forbidden',
    ]);
  });

  it('a plugin without resync is unimplemented; an unreachable one is unavailable', async () => {
    expect(await resyncPlugin('plain', deps())).toEqual({ result: 'unimplemented' });
    const unreachable = createPluginClient('gone', `unix://${path.join(tmp.dir, 'nobody.sock')}`);
    try {
      const result = await resyncPlugin(
        'gone',
        deps({ listHeld: (_p, request) => unreachable.listHeldEffects(request, { deadline: Date.now() + 1_000 }) }),
      );
      expect(result).toMatchObject({ result: 'unavailable', listed: 0 });
      expect(result.result === 'unavailable' && result.reason).toMatch(/^listing held effects: /);
    } finally {
      unreachable.close();
    }
  });

  it('stops between effects when the controller stops', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await resyncPlugin('holder', deps({ signal: stop.signal }))).toMatchObject({ result: 'partial', listed: 0 });
  });
});
