import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeApiServer } from './fake-apiserver.js';

let api: FakeApiServer;
beforeEach(async () => {
  api = await FakeApiServer.start();
});
afterEach(async () => {
  await api.close();
});

async function getJson(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(api.url + path, { headers });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { items?: { metadata: { name: string } }[] },
  };
}

/** Opens a watch and collects `count` events (type + object name). */
async function watchEvents(path: string, count: number, whileOpen?: () => void) {
  const controller = new AbortController();
  const res = await fetch(api.url + path, { signal: controller.signal });
  const reader = res.body!.getReader();
  const events: { type: string; name?: string; code?: number }[] = [];
  let buffer = '';
  whileOpen?.();
  try {
    while (events.length < count) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += Buffer.from(value).toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const e = JSON.parse(buffer.slice(0, nl)) as {
          type: string;
          object: { metadata?: { name: string }; code?: number };
        };
        buffer = buffer.slice(nl + 1);
        events.push({
          type: e.type,
          ...(e.object.metadata?.name ? { name: e.object.metadata.name } : {}),
          ...(e.object.code ? { code: e.object.code } : {}),
        });
      }
    }
  } finally {
    controller.abort();
  }
  return events;
}

describe('FakeApiServer GET', () => {
  it('lists namespaces with a resourceVersion and the metadata.name label', async () => {
    api.addNamespace('b', { env: 'prod' });
    api.addNamespace('a');
    const { status, body } = await getJson('/api/v1/namespaces');
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: 'NamespaceList', apiVersion: 'v1', metadata: { resourceVersion: '3' } });
    expect(body.items).toMatchObject([
      { metadata: { name: 'a', labels: { 'kubernetes.io/metadata.name': 'a' } } },
      { metadata: { name: 'b', labels: { env: 'prod', 'kubernetes.io/metadata.name': 'b' } } },
    ]);
  });

  const notFound = [
    { name: 'missing namespace', path: '/api/v1/namespaces/nope', message: 'namespaces "nope" not found' },
    {
      name: 'missing grouped object',
      path: '/apis/apps/v1/namespaces/a/deployments/web',
      message: 'deployments.apps "web" not found',
    },
    {
      name: 'unknown resource',
      path: '/apis/example.com/v1/widgets',
      message: 'the server could not find the requested resource',
    },
    {
      name: 'namespaced resource without namespace',
      path: '/api/v1/configmaps/x',
      message: 'the server could not find the requested resource',
    },
  ];
  for (const c of notFound) {
    it(`answers 404 Status for ${c.name}`, async () => {
      const { status, body } = await getJson(c.path);
      expect(status).toBe(404);
      expect(body).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
        message: c.message,
      });
    });
  }

  it('serves namespaced objects of any group, per namespace and across namespaces', async () => {
    api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'a' },
      spec: { replicas: 1 },
    });
    api.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'b' } });
    const one = await getJson('/apis/apps/v1/namespaces/a/deployments/web');
    expect(one.body).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'a' },
      spec: { replicas: 1 },
    });
    expect((await getJson('/apis/apps/v1/namespaces/b/deployments')).body.items!.map((i) => i.metadata.name)).toEqual([
      'api',
    ]);
    expect((await getJson('/apis/apps/v1/deployments')).body.items!.map((i) => i.metadata.name)).toEqual([
      'web',
      'api',
    ]);
  });

  it('registers custom resources', async () => {
    api.registerResource({
      group: 'example.com',
      version: 'v1',
      resource: 'widgets',
      kind: 'Widget',
      namespaced: true,
    });
    api.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'a' } });
    expect((await getJson('/apis/example.com/v1/namespaces/a/widgets/w')).status).toBe(200);
  });

  const selectors = [
    { name: 'label equality', query: 'labelSelector=env%3Dprod', want: ['b'] },
    { name: 'label inequality', query: 'labelSelector=env!%3Dprod', want: ['a', 'c'] },
    { name: 'label set', query: 'labelSelector=env%20in%20(prod,dev)', want: ['b', 'c'] },
    { name: 'label exists', query: 'labelSelector=env', want: ['b', 'c'] },
    { name: 'label does not exist', query: 'labelSelector=!env', want: ['a'] },
    { name: 'field name', query: 'fieldSelector=metadata.name%3Dc', want: ['c'] },
  ];
  for (const c of selectors) {
    it(`filters lists by ${c.name}`, async () => {
      api.addNamespace('a');
      api.addNamespace('b', { env: 'prod' });
      api.addNamespace('c', { env: 'dev' });
      expect((await getJson(`/api/v1/namespaces?${c.query}`)).body.items!.map((i) => i.metadata.name)).toEqual(c.want);
    });
  }

  it('requires the bearer token when configured and writes a kubeconfig with it', async () => {
    await api.close();
    api = await FakeApiServer.start({ token: 's3cret' });
    expect((await getJson('/api/v1/namespaces')).status).toBe(401);
    expect((await getJson('/api/v1/namespaces', { authorization: 'Bearer s3cret' })).status).toBe(200);
    const kubeconfig = JSON.parse(await readFile(await api.writeKubeconfig(), 'utf8')) as Record<string, unknown>;
    expect(kubeconfig).toMatchObject({
      'current-context': 'fake',
      clusters: [{ cluster: { server: api.url } }],
      users: [{ user: { token: 's3cret' } }],
    });
  });

  it('fails injected requests the given number of times and logs every request', async () => {
    api.failRequests({ path: '/api/v1/namespaces', status: 503, times: 1 });
    expect((await getJson('/api/v1/namespaces')).status).toBe(503);
    expect((await getJson('/api/v1/namespaces')).status).toBe(200);
    expect(api.requests.map((r) => r.path)).toEqual(['/api/v1/namespaces', '/api/v1/namespaces']);
  });
});

describe('FakeApiServer watch', () => {
  it('sends the current objects, then ADDED, MODIFIED and DELETED events as they happen', async () => {
    api.addNamespace('a');
    const events = await watchEvents('/api/v1/namespaces?watch=true', 4, () => {
      setTimeout(() => {
        api.addNamespace('b');
        api.setNamespaceLabels('b', { env: 'prod' });
        api.deleteNamespace('a');
      }, 20);
    });
    expect(events).toEqual([
      { type: 'ADDED', name: 'a' },
      { type: 'ADDED', name: 'b' },
      { type: 'MODIFIED', name: 'b' },
      { type: 'DELETED', name: 'a' },
    ]);
  });

  it('resumes from a resourceVersion with the events after it', async () => {
    api.addNamespace('a');
    const rv = api.store.resourceVersion;
    api.addNamespace('b');
    api.deleteNamespace('a');
    expect(await watchEvents(`/api/v1/namespaces?watch=1&resourceVersion=${rv}`, 2)).toEqual([
      { type: 'ADDED', name: 'b' },
      { type: 'DELETED', name: 'a' },
    ]);
  });

  it('answers an ERROR 410 event for a compacted resourceVersion', async () => {
    api.addNamespace('a');
    const rv = api.store.resourceVersion;
    api.addNamespace('b');
    api.store.compact();
    expect(await watchEvents(`/api/v1/namespaces?watch=true&resourceVersion=${rv}`, 1)).toEqual([
      { type: 'ERROR', code: 410 },
    ]);
  });

  it('scopes namespaced watches to their namespace', async () => {
    const events = await watchEvents('/api/v1/namespaces/a/configmaps?watch=true', 1, () => {
      setTimeout(() => {
        api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'b' } });
        api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mine', namespace: 'a' } });
      }, 20);
    });
    expect(events).toEqual([{ type: 'ADDED', name: 'mine' }]);
  });
});
