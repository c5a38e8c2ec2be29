import { afterAll, describe, expect, it } from 'vitest';
import { ClientPools } from './client-pools.js';

describe('ClientPools', () => {
  const pools = new ClientPools({ connections: 1, keepAliveTimeoutMs: 1000 });
  afterAll(() => pools.close());

  it('keeps one pool per origin, server name and CA bundle', () => {
    const a = pools.poolFor('https://10.96.0.10:443', 'hooks.policy.svc', '');
    const b = pools.poolFor('https://10.96.0.10:443', 'hooks.policy.svc', '');
    const other = pools.poolFor('https://10.96.0.10:443', 'other.policy.svc', '');
    expect(a.ok && b.ok && a.pool === b.pool).toBe(true);
    expect(a.ok && other.ok && a.pool !== other.pool).toBe(true);
  });

  it('drops the pool of an address no longer used: the next call gets a new one', async () => {
    const first = pools.poolFor('https://10.96.0.11:443', 'moved.policy.svc', '');
    if (!first.ok) throw new Error(first.error);
    pools.drop('https://10.96.0.11:443', 'moved.policy.svc', '');
    await expect.poll(() => first.pool.closed, { timeout: 5000 }).toBe(true);
    const second = pools.poolFor('https://10.96.0.11:443', 'moved.policy.svc', '');
    expect(second.ok && second.pool !== first.pool).toBe(true);
  });
});
