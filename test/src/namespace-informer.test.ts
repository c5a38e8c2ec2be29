/** The gateway's namespace informer against a real-HTTP fake apiserver. */
import { KubeConfig } from '@kubernetes/client-node';
import { informerNamespaces } from '@hookgate/gateway/namespaces';
import type { NamespaceSource } from '@hookgate/gateway/namespaces';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeApiServer } from './fake-apiserver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(
  options: { token?: string; failList?: boolean; namespaces?: Record<string, Record<string, string>> } = {},
) {
  const api = await FakeApiServer.start({ token: options.token });
  closers.push(() => api.close());
  for (const [name, labels] of Object.entries(options.namespaces ?? {})) api.addNamespace(name, labels);
  if (options.failList) api.failRequests({ path: '/api/v1/namespaces', status: 503, watch: false });
  const kc = new KubeConfig();
  kc.loadFromFile(await api.writeKubeconfig());
  const lookups: string[] = [];
  const source = informerNamespaces(kc, {
    restartBackoffMs: { initial: 20, max: 100 },
    onLookup: (s, o) => lookups.push(`${s}:${o}`),
  });
  closers.push(() => source.close());
  return { api, source, lookups };
}

/** Waits (bounded) until the lookup answers synchronously with the wanted shape. */
async function untilCached(
  source: NamespaceSource,
  name: string,
  check: (r: ReturnType<NamespaceSource['lookup']>) => boolean,
) {
  for (let i = 0; i < 200; i++) {
    const r = source.lookup(name);
    if (!(r instanceof Promise) && check(r)) return r;
    if (r instanceof Promise) await r;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`namespace ${name} never reached the expected state in the cache`);
}

const labelsOf = (r: unknown) => (r as { labels?: Record<string, string> }).labels;

describe('informerNamespaces', () => {
  it('lists, becomes ready and answers synchronously from the cache', async () => {
    const { source, lookups } = await setup({ namespaces: { 'team-a': { env: 'prod' } } });
    expect(source.ready()).toBe(false);
    await source.whenSynced();
    expect(source.ready()).toBe(true);
    const result = source.lookup('team-a');
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toMatchObject({ found: true, labels: { env: 'prod', 'kubernetes.io/metadata.name': 'team-a' } });
    expect(result).toMatchObject({
      object: { kind: 'Namespace', metadata: { name: 'team-a' }, status: { phase: 'Active' } },
    });
    expect(lookups).toEqual(['cache:found']);
  });

  it('follows ADDED, MODIFIED and DELETED events', async () => {
    const { api, source } = await setup();
    await source.whenSynced();
    api.addNamespace('late', { tier: 'one' });
    await untilCached(source, 'late', (r) => labelsOf(r)?.tier === 'one');
    api.setNamespaceLabels('late', { tier: 'two' });
    await untilCached(source, 'late', (r) => labelsOf(r)?.tier === 'two');
    api.deleteNamespace('late');
    // Gone from the cache: the miss goes to a live GET, which answers 404.
    for (let i = 0; i < 200; i++) {
      const r = source.lookup('late');
      if (r instanceof Promise) {
        expect(await r).toEqual({ found: false });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('deleted namespace stayed in the cache');
  });

  const liveCases = [
    {
      name: 'existing namespace',
      ns: 'team-a',
      failGet: false,
      want: { found: true, labels: { env: 'prod', 'kubernetes.io/metadata.name': 'team-a' } },
      counted: 'live:found',
    },
    { name: 'missing namespace (404)', ns: 'nope', failGet: false, want: { found: false }, counted: 'live:not_found' },
    {
      name: 'apiserver error',
      ns: 'team-a',
      failGet: true,
      want: { error: 'reading namespace "team-a" from the apiserver failed: HTTP 500: injected failure 500' },
      counted: 'live:error',
    },
  ];
  for (const c of liveCases) {
    it(`falls back to a live GET before sync: ${c.name}`, async () => {
      const { api, source, lookups } = await setup({ failList: true, namespaces: { 'team-a': { env: 'prod' } } });
      if (c.failGet) api.failRequests({ path: `/api/v1/namespaces/${c.ns}`, status: 500 });
      const pending = source.lookup(c.ns);
      expect(pending).toBeInstanceOf(Promise);
      expect(await pending).toMatchObject(c.want);
      expect(lookups).toEqual([c.counted]);
      expect(source.ready()).toBe(false);
    });
  }

  it('shares one live GET between concurrent lookups of the same namespace', async () => {
    const { api, source } = await setup({ failList: true, namespaces: { 'team-a': {} } });
    const results = await Promise.all([source.lookup('team-a'), source.lookup('team-a'), source.lookup('team-a')]);
    expect(results.every((r) => 'found' in r && r.found)).toBe(true);
    expect(api.requests.filter((r) => r.path === '/api/v1/namespaces/team-a')).toHaveLength(1);
  });

  it('restarts after failed lists and syncs once the apiserver recovers', async () => {
    const { api, source } = await setup({ failList: true, namespaces: { 'team-a': {} } });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(source.ready()).toBe(false);
    api.clearFailures();
    await source.whenSynced();
    expect(source.lookup('team-a')).toMatchObject({ found: true });
  });

  it('resumes after the watch is dropped and re-lists after 410 Gone', async () => {
    const { api, source } = await setup({ namespaces: { a: {} } });
    await source.whenSynced();
    await untilOpenWatch(api);
    api.dropWatches();
    api.addNamespace('after-drop', { n: '1' });
    await untilCached(source, 'after-drop', (r) => labelsOf(r)?.n === '1');
    await untilOpenWatch(api);
    const listsBefore = api.requests.filter(
      (r) => r.path === '/api/v1/namespaces' && r.query.watch === undefined,
    ).length;
    // Synchronous, so before the informer can reconnect: it resumes from a compacted resourceVersion.
    api.dropWatches();
    api.addNamespace('after-compaction', { n: '2' });
    api.store.compact();
    await untilCached(source, 'after-compaction', (r) => labelsOf(r)?.n === '2');
    const listsAfter = api.requests.filter(
      (r) => r.path === '/api/v1/namespaces' && r.query.watch === undefined,
    ).length;
    expect(listsAfter).toBe(listsBefore + 1);
  });

  it('authenticates with the kubeconfig token', async () => {
    const { source } = await setup({ token: 'hunter2', namespaces: { a: {} } });
    await source.whenSynced();
    expect(source.lookup('a')).toMatchObject({ found: true });
  });
});

async function untilOpenWatch(api: FakeApiServer) {
  for (let i = 0; i < 200 && api.openWatches === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (api.openWatches === 0) throw new Error('the informer never opened a watch');
}
