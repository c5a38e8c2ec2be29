/**
 * Resync handlers over gRPC on a real unix socket (serveOnUnixSocket): ListHeldEffects pages and
 * encodes payloads as reportSideEffect does, ReconcileOrphan decodes and answers like Reconcile,
 * and a plugin without resync answers UNIMPLEMENTED to both. Handler bugs are gRPC statuses.
 */
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReconcileOrphanRequest } from '@hookgate/proto';
import { definePlugin } from './define-plugin.js';
import { listHeldEffects, parseJson, reconcileOrphan, serveOnUnixSocket, type ServedPlugin } from './testing/index.js';
import type { HeldEffect, OrphanRequest } from './types.js';

const HELD: HeldEffect[] = [1, 2, 3].map((i) => ({
  hook: 'claims.example.com',
  sideEffect: { kind: 'claim', key: `k${i}`, payload: { owner: `o${i}` } },
  object: {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    namespace: 'shop',
    name: `web-${i}`,
    ...(i === 1 ? { uid: 'u-1' } : {}),
  },
  sinceMs: 1_000 + i,
}));
const orphans: OrphanRequest[] = [];

const withResync = definePlugin({
  name: 'holder',
  hooks: { 'claims.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
  resync: {
    list({ pageToken, pageSize }) {
      const start = pageToken === '' ? 0 : Number(pageToken);
      const next = start + pageSize;
      return { effects: HELD.slice(start, next), ...(next < HELD.length ? { nextPageToken: String(next) } : {}) };
    },
    reconcileOrphan(request) {
      orphans.push(request);
      if (request.held.sideEffect.key === 'broken') throw new Error('store unreachable');
      if (request.held.sideEffect.key === 'wrong') return { finished: true } as never;
      return request.reason === 'replaced' ? { done: false, retryAfterMs: 500.4 } : undefined;
    },
  },
});
const withoutResync = definePlugin({
  name: 'plain',
  hooks: { 'claims.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
});

let holder: ServedPlugin;
let plain: ServedPlugin;
beforeAll(async () => {
  holder = await serveOnUnixSocket(withResync);
  plain = await serveOnUnixSocket(withoutResync);
});
afterAll(async () => {
  await holder?.close();
  await plain?.close();
});

const orphan = (key: string, reason = 'absent'): ReconcileOrphanRequest => ({
  held: {
    hook: 'claims.example.com',
    sideEffect: { kind: 'claim', key, payload: Buffer.from('{"owner":"o1"}') },
    object: { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'shop', name: 'web-1', uid: 'u-1' },
    sinceMs: 1_001,
  },
  reason,
  observedUid: reason === 'replaced' ? 'u-2' : '',
});

describe('ListHeldEffects', () => {
  it('pages through what the plugin holds, payloads encoded as JSON bytes', async () => {
    const first = await listHeldEffects(holder.client, { pageToken: '', pageSize: 2 });
    expect(first.nextPageToken).toBe('2');
    expect(first.effects.map((e) => [e.sideEffect?.key, e.object?.name, e.object?.uid, e.sinceMs])).toEqual([
      ['k1', 'web-1', 'u-1', 1_001],
      ['k2', 'web-2', '', 1_002],
    ]);
    expect(parseJson(first.effects[0]!.sideEffect!.payload)).toEqual({ owner: 'o1' });
    const last = await listHeldEffects(holder.client, { pageToken: '2', pageSize: 2 });
    expect([last.effects.map((e) => e.sideEffect?.key), last.nextPageToken]).toEqual([['k3'], '']);
  });

  it('a plugin without resync handlers answers UNIMPLEMENTED', async () => {
    await expect(listHeldEffects(plain.client, { pageToken: '', pageSize: 10 })).rejects.toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
    });
    await expect(reconcileOrphan(plain.client, orphan('k1'))).rejects.toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
    });
  });
});

describe('ReconcileOrphan', () => {
  it('hands the handler the held effect as listed and answers its result', async () => {
    expect(await reconcileOrphan(holder.client, orphan('k1'))).toMatchObject({ done: true });
    expect(orphans.at(-1)).toMatchObject({
      reason: 'absent',
      observedUid: '',
      held: { object: { name: 'web-1', uid: 'u-1' }, sideEffect: { key: 'k1' } },
    });
    expect(parseJson(orphans.at(-1)!.held.sideEffect.payload)).toEqual({ owner: 'o1' });
    expect(await reconcileOrphan(holder.client, orphan('k1', 'replaced'))).toMatchObject({
      done: false,
      retryAfterMs: 500,
    });
  });

  it('a handler that throws or answers nonsense, and a request without a known reason, are gRPC errors', async () => {
    await expect(reconcileOrphan(holder.client, orphan('broken'))).rejects.toMatchObject({
      code: grpc.status.INTERNAL,
      details: expect.stringContaining('store unreachable'),
    });
    await expect(reconcileOrphan(holder.client, orphan('wrong'))).rejects.toMatchObject({
      code: grpc.status.INTERNAL,
      details: expect.stringContaining('must return { done, message?, retryAfterMs? }'),
    });
    await expect(reconcileOrphan(holder.client, orphan('k1', 'vanished'))).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: expect.stringContaining('expected absent or replaced'),
    });
  });
});
