/**
 * @hookgate/kubernetes against the real-HTTP fake apiserver: get and list of any resource by
 * group/version/resource (core, named groups, custom resources), selectors, NotFound and other
 * errors, bearer-token auth from the kubeconfig, metadata-only reads (and their fallback to a
 * whole object from a server that only speaks application/json), and the generic informer
 * following changes.
 */
import { createServer } from 'node:http';
import {
  isKubernetesApiError,
  isNotFound,
  loadKubeConfig,
  resourceClient,
  startInformer,
  type KubernetesObject,
  type ResourceClient,
} from '@hookgate/kubernetes';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeApiServer } from './fake-apiserver.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };
const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets' };

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(options: { token?: string } = {}): Promise<{ api: FakeApiServer; client: ResourceClient }> {
  const api = await FakeApiServer.start(options);
  closers.push(() => api.close());
  api.addNamespace('shop', { env: 'prod' });
  api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop', labels: { app: 'web' } } });
  api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db-0', namespace: 'shop', labels: { app: 'db' } } });
  api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'lab', labels: { app: 'web' } } });
  api.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { replicas: 3 },
  });
  api.registerResource({ ...WIDGETS, kind: 'Widget', namespaced: false });
  api.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'gear' }, spec: { teeth: 12 } });
  const kubeConfig = loadKubeConfig({ mode: 'kubeconfig', kubeconfig: await api.writeKubeconfig() });
  return { api, client: resourceClient(kubeConfig) };
}

/** namespace/name of each item, sorted (the fake apiserver lists in key order, as etcd does). */
const names = (list: { items: readonly KubernetesObject[] }) =>
  list.items.map((o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`).sort();

describe('resourceClient', () => {
  const gets = [
    {
      name: 'a namespaced core object',
      ref: PODS,
      object: 'web-0',
      namespace: 'shop',
      want: { kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop' } },
    },
    {
      name: 'a cluster-scoped core object',
      ref: NAMESPACES,
      object: 'shop',
      want: { kind: 'Namespace', metadata: { name: 'shop', labels: { env: 'prod' } } },
    },
    {
      name: 'an object of a named group',
      ref: DEPLOYMENTS,
      object: 'web',
      namespace: 'shop',
      want: { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 3 } },
    },
    {
      name: 'a custom resource',
      ref: WIDGETS,
      object: 'gear',
      want: { apiVersion: 'example.com/v1', kind: 'Widget', spec: { teeth: 12 } },
    },
  ];
  for (const c of gets) {
    it(`gets ${c.name}`, async () => {
      const { client } = await setup();
      expect(
        await client.get(c.ref, c.object, c.namespace === undefined ? {} : { namespace: c.namespace }),
      ).toMatchObject(c.want);
    });
  }

  const lists = [
    { name: 'one namespace', ref: PODS, options: { namespace: 'shop' }, want: ['shop/db-0', 'shop/web-0'] },
    { name: 'all namespaces', ref: PODS, options: {}, want: ['lab/web-0', 'shop/db-0', 'shop/web-0'] },
    { name: 'a label selector', ref: PODS, options: { labelSelector: 'app=web' }, want: ['lab/web-0', 'shop/web-0'] },
    {
      name: 'a field selector',
      ref: PODS,
      options: { fieldSelector: 'metadata.namespace=lab' },
      want: ['lab/web-0'],
    },
    { name: 'a named group', ref: DEPLOYMENTS, options: { namespace: 'shop' }, want: ['shop/web'] },
    { name: 'a cluster-scoped custom resource', ref: WIDGETS, options: {}, want: ['/gear'] },
  ];
  for (const c of lists) {
    it(`lists ${c.name}`, async () => {
      const { client } = await setup();
      const list = await client.list(c.ref, c.options);
      expect(names(list)).toEqual(c.want);
      expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);
    });
  }

  it('rejects a missing object with a 404 the caller can tell, naming the path and the apiserver message', async () => {
    const { client } = await setup();
    const error = await client.get(PODS, 'nope', { namespace: 'shop' }).catch((e: unknown) => e);
    expect(isNotFound(error)).toBe(true);
    expect((error as Error).message).toBe(
      'GET /api/v1/namespaces/shop/pods/nope failed: HTTP 404: pods "nope" not found',
    );
    expect(isNotFound(await client.list({ ...WIDGETS, resource: 'gadgets' }).catch((e: unknown) => e))).toBe(true);
  });

  it('rejects other failures with their code and message', async () => {
    const { api, client } = await setup();
    api.failRequests({ path: '/apis/apps/v1/namespaces/shop/deployments', status: 500 });
    const error = await client.list(DEPLOYMENTS, { namespace: 'shop' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'KubernetesApiError',
      code: 'HG_ERR_KUBERNETES_API',
      status: 500,
      request: 'GET /apis/apps/v1/namespaces/shop/deployments',
      answer: 'HTTP 500: injected failure 500',
      message: 'GET /apis/apps/v1/namespaces/shop/deployments failed: HTTP 500: injected failure 500',
      remedy: expect.stringContaining('403'),
    });
    expect(isKubernetesApiError(error)).toBe(true);
    expect(isNotFound(error)).toBe(false);
  });

  it('authenticates with the kubeconfig token', async () => {
    const { client } = await setup({ token: 'hunter2' });
    expect(await client.get(NAMESPACES, 'shop')).toMatchObject({ metadata: { name: 'shop' } });
  });

  it('stops a request when its signal aborts', async () => {
    const { client } = await setup();
    const controller = new AbortController();
    controller.abort();
    await expect(client.get(NAMESPACES, 'shop', { signal: controller.signal })).rejects.toThrow();
  });
});

describe('resourceClient, metadata only', () => {
  const METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
  const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

  it('gets a PartialObjectMetadata with a consistent read (no resourceVersion) and the fallback in Accept', async () => {
    const { api, client } = await setup();
    const stored = api.store.get(api.store.resourceForKind('apps/v1', 'Deployment'), 'web', 'shop');
    const answer = await client.get(DEPLOYMENTS, 'web', { namespace: 'shop', metadataOnly: true });
    expect(answer).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: stored?.metadata });
    expect(answer).not.toHaveProperty('spec');
    expect(api.requests.at(-1)).toEqual({
      method: 'GET',
      path: '/apis/apps/v1/namespaces/shop/deployments/web',
      query: {},
      accept: METADATA,
    });
  });

  it('gets a cluster-scoped custom resource, and keeps plain application/json without the option', async () => {
    const { api, client } = await setup();
    expect(await client.get(WIDGETS, 'gear', { metadataOnly: true })).toMatchObject({
      kind: 'PartialObjectMetadata',
      metadata: { name: 'gear' },
    });
    expect(await client.get(WIDGETS, 'gear')).toMatchObject({ kind: 'Widget', spec: { teeth: 12 } });
    expect(api.requests.slice(-2).map((r) => r.accept)).toEqual([METADATA, 'application/json']);
  });

  it('lists PartialObjectMetadata items with selectors', async () => {
    const { api, client } = await setup();
    const list = await client.list(PODS, { labelSelector: 'app=web', metadataOnly: true });
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(names(list)).toEqual(['lab/web-0', 'shop/web-0']);
    for (const item of list.items) {
      expect(Object.keys(item).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(item.kind).toBe('PartialObjectMetadata');
    }
    expect(api.requests.at(-1)).toMatchObject({ query: { labelSelector: 'app=web' }, accept: METADATA_LIST });
  });

  it('rejects a missing object with the same 404', async () => {
    const { client } = await setup();
    const error = await client.get(PODS, 'nope', { namespace: 'shop', metadataOnly: true }).catch((e: unknown) => e);
    expect(isNotFound(error)).toBe(true);
  });

  it('keeps only the metadata when a server answers the whole object (the application/json fallback)', async () => {
    const accepts: (string | undefined)[] = [];
    const plainJsonServer = createServer((req, res) => {
      accepts.push(req.headers.accept);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          apiVersion: 'example.com/v1',
          kind: 'Widget',
          metadata: { name: 'gear', uid: 'u-1', resourceVersion: '5' },
          spec: { secret: 'not for the caller' },
        }),
      );
    });
    await new Promise<void>((resolve) => plainJsonServer.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      plainJsonServer.closeAllConnections();
      return new Promise<void>((resolve) => plainJsonServer.close(() => resolve()));
    });
    const address = plainJsonServer.address();
    if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'plain', server: `http://127.0.0.1:${address.port}`, skipTLSVerify: true }],
      users: [{ name: 'plain' }],
      contexts: [{ name: 'plain', cluster: 'plain', user: 'plain' }],
      currentContext: 'plain',
    });
    expect(await resourceClient(kubeConfig).get(WIDGETS, 'gear', { metadataOnly: true })).toEqual({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: { name: 'gear', uid: 'u-1', resourceVersion: '5' },
    });
    expect(accepts).toEqual([METADATA]);
  });
});

describe('startInformer', () => {
  it('lists, syncs, follows changes of one namespace only, and serves its cache', async () => {
    const { api } = await setup();
    const kubeConfig = loadKubeConfig({ mode: 'kubeconfig', kubeconfig: await api.writeKubeconfig() });
    const events: string[] = [];
    const informer = startInformer(kubeConfig, PODS, {
      namespace: 'shop',
      handlers: {
        listed: (items) => events.push(`listed ${items.length}`),
        synced: () => events.push('synced'),
        added: (pod) => events.push(`added ${pod.metadata?.name}`),
        updated: (pod) => events.push(`updated ${pod.metadata?.name} ${pod.metadata?.labels?.app}`),
        deleted: (pod) => events.push(`deleted ${pod.metadata?.name}`),
      },
    });
    closers.push(() => informer.close());
    await informer.whenSynced();
    expect(informer.synced()).toBe(true);
    expect(names({ items: informer.list() })).toEqual(['shop/db-0', 'shop/web-0']);
    await vi.waitFor(() => expect(api.openWatches).toBeGreaterThan(0), { timeout: 3000, interval: 10 });

    api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cache-0', namespace: 'shop' } });
    api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'elsewhere', namespace: 'lab' } });
    api.update({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db-0', namespace: 'shop', labels: { app: 'pg' } } });
    api.delete('v1', 'Pod', 'web-0', 'shop');
    await vi.waitFor(() => expect(events).toContain('deleted web-0'), { timeout: 3000, interval: 10 });
    expect(events).toEqual([
      'listed 2',
      'synced',
      'added db-0',
      'added web-0',
      'added cache-0',
      'updated db-0 pg',
      'deleted web-0',
    ]);
    expect(informer.get('db-0', 'shop')?.metadata?.labels).toEqual({ app: 'pg' });
    expect(informer.get('elsewhere', 'lab')).toBeUndefined();
  });

  it('reports a failed list and restarts until the apiserver answers', async () => {
    const { api } = await setup();
    api.failRequests({ path: '/apis/apps/v1/deployments', status: 503, watch: false, times: 2 });
    const kubeConfig = loadKubeConfig({ mode: 'kubeconfig', kubeconfig: await api.writeKubeconfig() });
    const failures: { stage: string; retryInMs: number; code: unknown }[] = [];
    const informer = startInformer(kubeConfig, DEPLOYMENTS, {
      restartBackoffMs: { initial: 20, max: 100 },
      handlers: {
        failed: (error, stage, retryInMs) =>
          failures.push({ stage, retryInMs, code: (error as { status?: unknown }).status }),
      },
    });
    closers.push(() => informer.close());
    await informer.whenSynced();
    expect(informer.list().map((d) => d.metadata?.name)).toEqual(['web']);
    expect(failures.filter((f) => f.stage === 'run')).toEqual([
      { stage: 'run', retryInMs: 20, code: 503 },
      { stage: 'run', retryInMs: 40, code: 503 },
    ]);
  });

  it('reports a refused watch as a KubernetesApiError with its status', async () => {
    const { api } = await setup();
    api.failRequests({ path: '/apis/apps/v1/deployments', status: 403, watch: true, times: 1 });
    const kubeConfig = loadKubeConfig({ mode: 'kubeconfig', kubeconfig: await api.writeKubeconfig() });
    const failures: unknown[] = [];
    const informer = startInformer(kubeConfig, DEPLOYMENTS, {
      restartBackoffMs: { initial: 20, max: 100 },
      handlers: { failed: (error, stage) => failures.push({ stage, error }) },
    });
    closers.push(() => informer.close());
    await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 3000, interval: 10 });
    expect(failures[0]).toMatchObject({
      stage: 'run',
      error: { code: 'HG_ERR_KUBERNETES_API', status: 403, answer: 'HTTP 403' },
    });
    expect(isKubernetesApiError((failures[0] as { error: unknown }).error)).toBe(true);
  });
});
