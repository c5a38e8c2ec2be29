import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createLedgerStore, type LedgerStore } from './store.js';
import { deletePrefix, openTestRedis, uniquePrefix, type TestRedis } from '../test/redis.js';

const A = '/Ingress/shop/web';
const B = '/Ingress/other/web';

describe('ledger store (real Redis)', () => {
  let testRedis: TestRedis;
  let redis: Redis;
  let prefix: string;
  let store: LedgerStore;

  beforeAll(async () => {
    testRedis = await openTestRedis();
    redis = testRedis.redis;
  });
  afterAll(async () => {
    await testRedis.close();
  });
  beforeEach(() => {
    prefix = uniquePrefix();
    store = createLedgerStore(redis, { keyPrefix: prefix, pendingTtlMs: 60_000, clock: () => 1_000 });
  });
  afterEach(async () => {
    await deletePrefix(redis, prefix);
  });

  /** The reservation with its TTL reduced to whether it expires (pending) or not (confirmed). */
  async function inspect(key: string): Promise<unknown> {
    const reservation = await store.inspect(key);
    if (reservation === undefined) return undefined;
    const { ttlMs, ...rest } = reservation;
    return { ...rest, expires: ttlMs > 0 && ttlMs <= 60_000 };
  }

  it('claims a free key as pending with the token', async () => {
    expect(await store.claim(['hosts/a'], A, 't1', false)).toEqual({ ok: true });
    expect(await inspect('hosts/a')).toEqual({
      owner: A,
      state: 'pending',
      tokens: ['t1'],
      claimedAt: 1_000,
      expires: true,
    });
  });

  it('refuses a key held by another owner and writes nothing (all or none)', async () => {
    await store.claim(['hosts/b'], B, 't0', false);
    expect(await store.claim(['hosts/a', 'hosts/b'], A, 't1', false)).toEqual({ ok: false, index: 1, holder: B });
    expect(await inspect('hosts/a')).toBeUndefined();
  });

  it('checkOnly (dryRun) reports conflicts and writes nothing', async () => {
    expect(await store.claim(['hosts/a'], A, 't1', true)).toEqual({ ok: true });
    expect(await inspect('hosts/a')).toBeUndefined();
    await store.claim(['hosts/a'], B, 't2', false);
    expect(await store.claim(['hosts/a'], A, 't3', true)).toEqual({ ok: false, index: 0, holder: B });
  });

  it('claiming twice with the same token is idempotent', async () => {
    await store.claim(['hosts/a'], A, 't1', false);
    await store.claim(['hosts/a'], A, 't1', false);
    expect((await store.inspect('hosts/a'))?.tokens).toEqual(['t1']);
  });

  it('the same owner claiming again adds its token', async () => {
    await store.claim(['hosts/a'], A, 't1', false);
    await store.claim(['hosts/a'], A, 't2', false);
    expect((await store.inspect('hosts/a'))?.tokens).toEqual(['t1', 't2']);
  });

  const settleCases: {
    name: string;
    setup: (s: LedgerStore) => Promise<unknown>;
    outcome: 'PERSISTED' | 'NOT_PERSISTED';
    claim: { token: string; owner: string; identity?: string; restore: boolean };
    result: string;
    after: unknown;
  }[] = [
    {
      name: 'PERSISTED confirms and clears the token',
      setup: (s) => s.claim(['k'], A, 't1', false),
      outcome: 'PERSISTED',
      claim: { token: 't1', owner: A, identity: A, restore: true },
      result: 'confirmed',
      after: { owner: A, state: 'confirmed', tokens: [], claimedAt: 1_000, expires: false },
    },
    {
      name: 'PERSISTED gives a generateName claim its real identity',
      setup: (s) => s.claim(['k'], 'generated:t1', 't1', false),
      outcome: 'PERSISTED',
      claim: { token: 't1', owner: 'generated:t1', identity: '/Pod/shop/web-x7k2', restore: true },
      result: 'confirmed',
      after: { owner: '/Pod/shop/web-x7k2', state: 'confirmed', tokens: [], claimedAt: 1_000, expires: false },
    },
    {
      name: 'PERSISTED again is stale and changes nothing',
      setup: async (s) => {
        await s.claim(['k'], A, 't1', false);
        await s.settle('k', 'PERSISTED', { token: 't1', owner: A, identity: A, restore: true });
      },
      outcome: 'PERSISTED',
      claim: { token: 't1', owner: A, identity: A, restore: true },
      result: 'stale',
      after: { owner: A, state: 'confirmed', tokens: [], claimedAt: 1_000, expires: false },
    },
    {
      name: 'PERSISTED restores a vanished key when the object carries the value',
      setup: async () => undefined,
      outcome: 'PERSISTED',
      claim: { token: 't1', owner: A, identity: A, restore: true },
      result: 'restored',
      after: { owner: A, state: 'confirmed', tokens: [], claimedAt: 1_000, expires: false },
    },
    {
      name: 'PERSISTED does not restore when the object no longer carries the value',
      setup: async () => undefined,
      outcome: 'PERSISTED',
      claim: { token: 't1', owner: A, identity: A, restore: false },
      result: 'absent',
      after: undefined,
    },
    {
      name: 'PERSISTED leaves a key another owner took',
      setup: (s) => s.claim(['k'], B, 't9', false),
      outcome: 'PERSISTED',
      claim: { token: 't1', owner: A, identity: A, restore: true },
      result: 'taken',
      after: { owner: B, state: 'pending', tokens: ['t9'], claimedAt: 1_000, expires: true },
    },
    {
      name: 'NOT_PERSISTED releases a pending key held only by this admission',
      setup: (s) => s.claim(['k'], A, 't1', false),
      outcome: 'NOT_PERSISTED',
      claim: { token: 't1', owner: A, restore: false },
      result: 'released',
      after: undefined,
    },
    {
      name: 'NOT_PERSISTED keeps a key another admission of the owner still holds',
      setup: async (s) => {
        await s.claim(['k'], A, 't1', false);
        await s.claim(['k'], A, 't2', false);
      },
      outcome: 'NOT_PERSISTED',
      claim: { token: 't1', owner: A, restore: false },
      result: 'kept',
      after: { owner: A, state: 'pending', tokens: ['t2'], claimedAt: 1_000, expires: true },
    },
    {
      name: 'NOT_PERSISTED keeps a confirmed key (the object persisted by an earlier admission)',
      setup: async (s) => {
        await s.claim(['k'], A, 't1', false);
        await s.settle('k', 'PERSISTED', { token: 't1', owner: A, identity: A, restore: true });
        await s.claim(['k'], A, 't2', false);
      },
      outcome: 'NOT_PERSISTED',
      claim: { token: 't2', owner: A, restore: false },
      result: 'kept',
      after: { owner: A, state: 'confirmed', tokens: [], claimedAt: 1_000, expires: false },
    },
    {
      name: 'NOT_PERSISTED of a token that is not there (already settled) is stale',
      setup: (s) => s.claim(['k'], A, 't2', false),
      outcome: 'NOT_PERSISTED',
      claim: { token: 't1', owner: A, restore: false },
      result: 'stale',
      after: { owner: A, state: 'pending', tokens: ['t2'], claimedAt: 1_000, expires: true },
    },
    {
      name: 'NOT_PERSISTED never touches a key another owner holds',
      setup: (s) => s.claim(['k'], B, 't9', false),
      outcome: 'NOT_PERSISTED',
      claim: { token: 't1', owner: A, restore: false },
      result: 'taken',
      after: { owner: B, state: 'pending', tokens: ['t9'], claimedAt: 1_000, expires: true },
    },
    {
      name: 'NOT_PERSISTED of an absent key',
      setup: async () => undefined,
      outcome: 'NOT_PERSISTED',
      claim: { token: 't1', owner: A, restore: false },
      result: 'absent',
      after: undefined,
    },
  ];
  for (const c of settleCases) {
    it(`settle: ${c.name}`, async () => {
      await c.setup(store);
      expect(await store.settle('k', c.outcome, c.claim)).toBe(c.result);
      expect(await inspect('k')).toEqual(c.after);
    });
  }

  const releaseCases: {
    name: string;
    setup: (s: LedgerStore) => Promise<unknown>;
    owner: string;
    result: string;
    remains: boolean;
  }[] = [
    {
      name: 'a confirmed key of the owner is released',
      setup: async (s) => {
        await s.claim(['k'], A, 't1', false);
        await s.settle('k', 'PERSISTED', { token: 't1', owner: A, identity: A, restore: true });
      },
      owner: A,
      result: 'released',
      remains: false,
    },
    {
      name: 'a key with a pending admission of the owner is busy',
      setup: (s) => s.claim(['k'], A, 't1', false),
      owner: A,
      result: 'busy',
      remains: true,
    },
    {
      name: "another owner's key is left alone",
      setup: (s) => s.claim(['k'], B, 't1', false),
      owner: A,
      result: 'not-owner',
      remains: true,
    },
    { name: 'an absent key', setup: async () => undefined, owner: A, result: 'absent', remains: false },
  ];
  for (const c of releaseCases) {
    it(`release: ${c.name}`, async () => {
      await c.setup(store);
      expect(await store.release('k', c.owner)).toBe(c.result);
      expect((await store.inspect('k')) !== undefined).toBe(c.remains);
    });
  }

  it('concurrent claims of one value by two owners: exactly one wins', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.claim(['race'], `/Ingress/ns${i}/web`, `t${i}`, false)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  const REF = { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', namespace: 'shop', name: 'web' };

  it('lists the reservations that name their object, with the uid a PERSISTED settle recorded', async () => {
    let now = 1_000;
    const clocked = createLedgerStore(redis, { keyPrefix: prefix, pendingTtlMs: 60_000, clock: () => now });
    await clocked.claim(['hosts/a'], A, 't1', false, REF);
    await clocked.claim(['hosts/b'], B, 't2', false, { ...REF, namespace: 'other' });
    await clocked.claim(['hosts/legacy'], A, 't3', false);
    now = 2_000;
    await clocked.settle('hosts/a', 'PERSISTED', { token: 't1', owner: A, restore: false, uid: 'u-1' });
    const held = [];
    let cursor = '';
    do {
      const page = await clocked.listHeld(cursor, 1);
      held.push(...page.held);
      cursor = page.cursor;
    } while (cursor !== '0');
    expect(held.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: 'hosts/a', owner: A, ref: REF, uid: 'u-1', touchedAt: '2000' },
      { key: 'hosts/b', owner: B, ref: { ...REF, namespace: 'other' }, uid: undefined, touchedAt: '1000' },
    ]);
  });

  it('releases an orphan only while it is what was listed: owner and touchedAt unchanged', async () => {
    let now = 1_000;
    const clocked = createLedgerStore(redis, { keyPrefix: prefix, pendingTtlMs: 60_000, clock: () => now });
    await clocked.claim(['hosts/a'], A, 't1', false, REF);
    await clocked.claim(['hosts/b'], A, 't2', false, REF);
    now = 1_500;
    // Claimed again after the listing (touchedAt 1000): kept.
    await clocked.claim(['hosts/b'], A, 't3', false, REF);
    expect(await clocked.releaseOrphan('hosts/b', A, '1000')).toBe('changed');
    expect(await clocked.releaseOrphan('hosts/a', B, '1000')).toBe('not-owner');
    expect(await clocked.releaseOrphan('hosts/a', A, '1000')).toBe('released');
    // At least once: the second call changes nothing.
    expect(await clocked.releaseOrphan('hosts/a', A, '1000')).toBe('absent');
    expect(await clocked.inspect('hosts/a')).toBeUndefined();
    expect(await clocked.inspect('hosts/b')).toMatchObject({ owner: A, tokens: ['t2', 't3'] });
  });
});
