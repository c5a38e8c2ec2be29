import { describe, expect, it } from 'vitest';
import { staticNamespaces } from './static-namespaces.js';

describe('staticNamespaces', () => {
  const source = staticNamespaces([
    { name: 'team-a', labels: { env: 'prod' } },
    { name: 'bare' },
    { name: 'odd', labels: { 'kubernetes.io/metadata.name': 'odd' } },
  ]);
  const cases = [
    {
      name: 'listed namespace with labels',
      ns: 'team-a',
      want: { found: true, labels: { env: 'prod', 'kubernetes.io/metadata.name': 'team-a' } },
    },
    {
      name: 'listed namespace without labels',
      ns: 'bare',
      want: { found: true, labels: { 'kubernetes.io/metadata.name': 'bare' } },
    },
    {
      name: 'name label given explicitly',
      ns: 'odd',
      want: { found: true, labels: { 'kubernetes.io/metadata.name': 'odd' } },
    },
    { name: 'unlisted namespace', ns: 'missing', want: { found: false } },
  ];
  for (const c of cases) {
    it(`answers synchronously for a ${c.name}`, () => {
      expect(source.lookup(c.ns)).toMatchObject(c.want);
    });
  }

  it('gives CEL a Namespace object and is always ready', async () => {
    expect(source.lookup('team-a')).toMatchObject({
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { env: 'prod' } } },
    });
    expect(source.ready()).toBe(true);
    await expect(source.whenSynced()).resolves.toBeUndefined();
  });

  it('returns frozen results', () => {
    const result = source.lookup('team-a');
    expect(Object.isFrozen(result)).toBe(true);
    expect('labels' in result && Object.isFrozen(result.labels)).toBe(true);
  });
});

describe('staticNamespaces lookup counting', () => {
  it('reports each lookup as static, found or not found', () => {
    const seen: string[] = [];
    const source = staticNamespaces([{ name: 'team-a' }], (source, outcome) => seen.push(`${source} ${outcome}`));
    source.lookup('team-a');
    source.lookup('missing');
    expect(seen).toEqual(['static found', 'static not_found']);
  });
});
