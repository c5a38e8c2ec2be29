import { readFile } from 'node:fs/promises';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, FakeApiServer } from './fake-apiserver.js';

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

  it('answers an injected 429 as the apiserver does, with Retry-After, for the chosen method only', async () => {
    api.failRequests({ path: /configmaps/, method: 'POST', status: 429, retryAfterSeconds: 2 });
    expect((await getJson('/api/v1/namespaces/a/configmaps')).status).toBe(200);
    const res = await fetch(`${api.url}/api/v1/namespaces/a/configmaps`, {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'x' } }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({
      kind: 'Status',
      reason: 'TooManyRequests',
      code: 429,
      details: { retryAfterSeconds: 2 },
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

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(api.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    body: (await res.json()) as Obj,
  };
}

/** A loosely typed object or Status, as a test reads it. */
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CONFIGMAPS = '/api/v1/namespaces/shop/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/shop/deployments';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const deployment = (name: string, extra: Obj = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, ...extra.metadata },
  spec: { replicas: 1, ...extra.spec },
});

/** Opens a watch, runs `act` once it is open, and collects `count` full events (or what came within 3 s). */
async function watchFull(path: string, count: number, act: () => Promise<void>) {
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), 3000);
  const res = await fetch(api.url + path, { signal: controller.signal });
  const reader = res.body!.getReader();
  const events: { type: string; object: Obj }[] = [];
  let buffer = '';
  // Kept as a value so a failure in `act` surfaces here, not as an unhandled rejection.
  const acted = act().then(
    () => undefined,
    (error: unknown) => {
      controller.abort();
      return { error };
    },
  );
  try {
    while (events.length < count) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += Buffer.from(value).toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buffer.slice(0, nl)) as { type: string; object: Obj });
        buffer = buffer.slice(nl + 1);
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  const failure = await acted;
  if (failure) throw failure.error;
  return events;
}

describe('FakeApiServer create (POST)', () => {
  it('assigns uid, resourceVersion, creationTimestamp and generation 1, overwriting what the client sent', async () => {
    const sent = {
      metadata: { name: 'web', uid: 'mine', resourceVersion: '999', generation: 7 },
      spec: { replicas: 2 },
    };
    const { status, contentType, body } = await send('POST', DEPLOYMENTS, sent);
    expect(status).toBe(201);
    expect(contentType).toBe('application/json');
    expect(body).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', generation: 1, resourceVersion: String(api.store.resourceVersion) },
      spec: { replicas: 2 },
    });
    expect(body.metadata.uid).toMatch(UUID);
    expect(body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await getJson(`${DEPLOYMENTS}/web`)).body).toEqual(body);
  });

  it('names an object from generateName with five characters of the apiserver alphabet', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { status, body } = await send('POST', CONFIGMAPS, { metadata: { generateName: 'claim-' } });
      expect(status).toBe(201);
      expect(body.metadata).toMatchObject({ generateName: 'claim-' });
      expect(body.metadata.name).toMatch(/^claim-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      names.add(body.metadata.name as string);
    }
    expect(names.size).toBe(20);
    const long = await send('POST', CONFIGMAPS, { metadata: { generateName: 'x'.repeat(70) } });
    expect(long.body.metadata.name).toHaveLength(63);
    expect(long.body.metadata.name.slice(0, 58)).toBe('x'.repeat(58));
  });

  it('answers 409 AlreadyExists for a taken name', async () => {
    await send('POST', DEPLOYMENTS, deployment('web'));
    const { status, contentType, body } = await send('POST', DEPLOYMENTS, deployment('web'));
    expect(status).toBe(409);
    expect(contentType).toBe('application/json');
    expect(body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "web" already exists',
      reason: 'AlreadyExists',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
      code: 409,
    });
  });

  it('answers 422 Invalid without name or generateName', async () => {
    const { status, body } = await send('POST', CONFIGMAPS, { metadata: { labels: { a: 'b' } } });
    expect(status).toBe(422);
    expect(body).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
      details: { kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', field: 'metadata.name' }] },
    });
    expect(api.store.list(api.store.resourceForKind('v1', 'ConfigMap'))).toEqual([]);
  });

  const badRequests = [
    { name: 'a body for another namespace', path: CONFIGMAPS, body: { metadata: { name: 'a', namespace: 'other' } } },
    {
      name: 'a body of another kind',
      path: CONFIGMAPS,
      body: { kind: 'Secret', apiVersion: 'v1', metadata: { name: 'a' } },
    },
    { name: 'a body that is not JSON', path: CONFIGMAPS, body: '{not json' },
    { name: 'a body without metadata', path: CONFIGMAPS, body: { data: {} } },
    { name: 'an unknown dryRun value', path: `${CONFIGMAPS}?dryRun=Some`, body: { metadata: { name: 'a' } } },
  ];
  for (const c of badRequests) {
    it(`answers 400 BadRequest for ${c.name}, storing nothing`, async () => {
      const rv = api.store.resourceVersion;
      const { status, body } = await send('POST', c.path, c.body);
      expect(status).toBe(400);
      expect(body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
      expect(api.store.resourceVersion).toBe(rv);
    });
  }

  it('answers 405 for a POST to an object path and for PATCH', async () => {
    expect((await send('POST', `${CONFIGMAPS}/a`, { metadata: { name: 'a' } })).status).toBe(405);
    expect((await send('PATCH', `${CONFIGMAPS}/a`, {})).body).toMatchObject({ reason: 'MethodNotAllowed', code: 405 });
  });
});

describe('FakeApiServer update (PUT)', () => {
  async function created() {
    return (await send('POST', DEPLOYMENTS, deployment('web'))).body;
  }

  it('updates with the current resourceVersion and answers 409 Conflict for a stale one', async () => {
    const first = await created();
    const updated = await send('PUT', `${DEPLOYMENTS}/web`, { ...first, spec: { replicas: 3 } });
    expect(updated.status).toBe(200);
    expect(Number(updated.body.metadata.resourceVersion)).toBeGreaterThan(Number(first.metadata.resourceVersion));
    expect(updated.body.metadata.uid).toBe(first.metadata.uid);
    expect(updated.body.metadata.creationTimestamp).toBe(first.metadata.creationTimestamp);
    const stale = await send('PUT', `${DEPLOYMENTS}/web`, { ...first, spec: { replicas: 4 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      code: 409,
      message:
        'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
    });
    expect((await getJson(`${DEPLOYMENTS}/web`)).body).toMatchObject({ spec: { replicas: 3 } });
  });

  it('updates unconditionally without a resourceVersion', async () => {
    const first = await created();
    const { resourceVersion: _rv, ...metadata } = first.metadata as Obj;
    const { status, body } = await send('PUT', `${DEPLOYMENTS}/web`, { ...first, metadata, spec: { replicas: 5 } });
    expect(status).toBe(200);
    expect(body.spec).toEqual({ replicas: 5 });
  });

  it('bumps generation for a spec change, not for a metadata-only change', async () => {
    const first = await created();
    const relabelled = await send('PUT', `${DEPLOYMENTS}/web`, {
      ...first,
      metadata: { ...first.metadata, labels: { team: 'a' } },
    });
    expect(relabelled.body.metadata).toMatchObject({ generation: 1, labels: { team: 'a' } });
    const scaled = await send('PUT', `${DEPLOYMENTS}/web`, { ...relabelled.body, spec: { replicas: 9 } });
    expect(scaled.body.metadata.generation).toBe(2);
  });

  it('changes only status through /status (no generation bump), and keeps status on a PUT of the object', async () => {
    const first = await created();
    const status = await send('PUT', `${DEPLOYMENTS}/web/status`, {
      ...first,
      spec: { replicas: 100 },
      status: { readyReplicas: 1 },
    });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      metadata: { generation: 1 },
      spec: { replicas: 1 },
      status: { readyReplicas: 1 },
    });
    const main = await send('PUT', `${DEPLOYMENTS}/web`, { ...status.body, status: { readyReplicas: 0 } });
    expect(main.body).toMatchObject({ metadata: { generation: 1 }, status: { readyReplicas: 1 } });
    const stale = await send('PUT', `${DEPLOYMENTS}/web/status`, { ...first, status: {} });
    expect(stale.body).toMatchObject({ reason: 'Conflict', code: 409 });
  });

  it('treats status as an ordinary field for a resource without a status subresource', async () => {
    api.registerResource({
      group: 'example.com',
      version: 'v1',
      resource: 'widgets',
      kind: 'Widget',
      namespaced: false,
      statusSubresource: false,
    });
    const first = (await send('POST', '/apis/example.com/v1/widgets', { metadata: { name: 'w' } })).body;
    const updated = await send('PUT', '/apis/example.com/v1/widgets/w', { ...first, status: { ok: true } });
    expect(updated.body).toMatchObject({ metadata: { generation: 2 }, status: { ok: true } });
    expect((await send('PUT', '/apis/example.com/v1/widgets/w/status', updated.body)).status).toBe(404);
  });

  it('answers 409 for another uid, 400 for another name, 404 for a missing object', async () => {
    const first = await created();
    const otherUid = await send('PUT', `${DEPLOYMENTS}/web`, { ...first, metadata: { ...first.metadata, uid: 'u-2' } });
    expect(otherUid.status).toBe(409);
    expect(otherUid.body.message).toBe(
      `Operation cannot be fulfilled on deployments.apps "web": Precondition failed: UID in precondition: u-2, UID in object meta: ${first.metadata.uid}`,
    );
    const otherName = await send('PUT', `${DEPLOYMENTS}/web`, {
      ...first,
      metadata: { ...first.metadata, name: 'api' },
    });
    expect(otherName.body).toMatchObject({
      reason: 'BadRequest',
      code: 400,
      message: 'the name of the object (api) does not match the name on the URL (web)',
    });
    const missing = await send('PUT', `${DEPLOYMENTS}/nope`, deployment('nope'));
    expect(missing.body).toMatchObject({ reason: 'NotFound', code: 404, message: 'deployments.apps "nope" not found' });
  });
});

describe('FakeApiServer delete (DELETE)', () => {
  it('deletes an object without finalizers at once: a Success Status, then 404 and a DELETED event', async () => {
    const first = (await send('POST', CONFIGMAPS, { metadata: { name: 'a' } })).body;
    const events = await watchFull(
      `${CONFIGMAPS}?watch=true&resourceVersion=${first.metadata.resourceVersion}`,
      1,
      async () => {
        const { status, body } = await send('DELETE', `${CONFIGMAPS}/a`);
        expect(status).toBe(200);
        expect(body).toEqual({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name: 'a', kind: 'configmaps', uid: first.metadata.uid },
        });
      },
    );
    expect(events).toMatchObject([{ type: 'DELETED', object: { metadata: { name: 'a', uid: first.metadata.uid } } }]);
    expect((await getJson(`${CONFIGMAPS}/a`)).status).toBe(404);
    expect((await send('DELETE', `${CONFIGMAPS}/a`)).body).toMatchObject({ reason: 'NotFound', code: 404 });
  });

  it('keeps an object with finalizers, marked with deletionTimestamp, until an update removes them', async () => {
    const first = (await send('POST', DEPLOYMENTS, deployment('web', { metadata: { finalizers: ['example.com/x'] } })))
      .body;
    const events = await watchFull(
      `${DEPLOYMENTS}?watch=true&resourceVersion=${first.metadata.resourceVersion}`,
      2,
      async () => {
        const deleting = await send('DELETE', `${DEPLOYMENTS}/web`);
        expect(deleting.status).toBe(200);
        expect(deleting.body).toMatchObject({
          kind: 'Deployment',
          metadata: { name: 'web', generation: 2, deletionGracePeriodSeconds: 0, finalizers: ['example.com/x'] },
        });
        expect(deleting.body.metadata.deletionTimestamp).toMatch(/Z$/);
        // Still there, and a second DELETE changes nothing.
        expect((await getJson(`${DEPLOYMENTS}/web`)).body).toEqual(deleting.body);
        expect((await send('DELETE', `${DEPLOYMENTS}/web`)).body).toEqual(deleting.body);
        const finalized = await send('PUT', `${DEPLOYMENTS}/web`, {
          ...deleting.body,
          metadata: { ...deleting.body.metadata, finalizers: [] },
        });
        expect(finalized.status).toBe(200);
      },
    );
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    expect(events[0]!.object.metadata.deletionTimestamp).toBeDefined();
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs[0]).toBeGreaterThan(Number(first.metadata.resourceVersion));
    expect(rvs[1]).toBeGreaterThan(rvs[0]!);
    expect((await getJson(`${DEPLOYMENTS}/web`)).status).toBe(404);
  });

  it('refuses new finalizers on an object being deleted (422 Invalid)', async () => {
    const first = (await send('POST', CONFIGMAPS, { metadata: { name: 'a', finalizers: ['one'] } })).body;
    const deleting = (await send('DELETE', `${CONFIGMAPS}/a`)).body;
    expect(deleting.metadata.uid).toBe(first.metadata.uid);
    const { status, body } = await send('PUT', `${CONFIGMAPS}/a`, {
      ...deleting,
      metadata: { ...deleting.metadata, finalizers: ['one', 'two'] },
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({
      reason: 'Invalid',
      details: { causes: [{ field: 'metadata.finalizers', reason: 'FieldValueForbidden' }] },
    });
  });

  it('honours uid and resourceVersion preconditions in DeleteOptions', async () => {
    const first = (await send('POST', CONFIGMAPS, { metadata: { name: 'a' } })).body;
    const wrongUid = await send('DELETE', `${CONFIGMAPS}/a`, {
      kind: 'DeleteOptions',
      preconditions: { uid: 'other' },
    });
    expect(wrongUid.body).toMatchObject({ reason: 'Conflict', code: 409 });
    const rightUid = await send('DELETE', `${CONFIGMAPS}/a`, { preconditions: { uid: first.metadata.uid } });
    expect(rightUid.body).toMatchObject({ status: 'Success' });
  });
});

describe('FakeApiServer watch of writes', () => {
  it('streams concurrent writes in resourceVersion order, each event as its write answered', async () => {
    const answers: Obj[] = [];
    const events = await watchFull(
      `${CONFIGMAPS}?watch=true&resourceVersion=${api.store.resourceVersion}`,
      30,
      async () => {
        const creates = await Promise.all(
          Array.from({ length: 20 }, () => send('POST', CONFIGMAPS, { metadata: { generateName: 'w-' } })),
        );
        answers.push(...creates.map((c) => c.body));
        await Promise.all(
          answers.slice(0, 10).map((a) => send('PUT', `${CONFIGMAPS}/${a.metadata.name}`, { ...a, data: { k: 'v' } })),
        );
      },
    );
    expect(events).toHaveLength(30);
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
    expect(new Set(rvs).size).toBe(30);
    expect(events.filter((e) => e.type === 'ADDED').map((e) => e.object)).toEqual(
      [...answers].sort((x, y) => Number(x.metadata.resourceVersion) - Number(y.metadata.resourceVersion)),
    );
    expect(events.slice(20).every((e) => e.type === 'MODIFIED')).toBe(true);
  });
});

describe('FakeApiServer dryRun=All', () => {
  it('answers create, update and delete as if done, storing nothing (the resourceVersion stays)', async () => {
    const created = await send('POST', `${DEPLOYMENTS}?dryRun=All`, { metadata: { generateName: 'web-' } });
    expect(created.status).toBe(201);
    expect(created.body.metadata.name).toMatch(/^web-.{5}$/);
    expect(created.body.metadata.uid).toMatch(UUID);
    expect(created.body.metadata.resourceVersion).toBeUndefined();
    expect((await getJson(`${DEPLOYMENTS}/${created.body.metadata.name}`)).status).toBe(404);

    const stored = (await send('POST', DEPLOYMENTS, deployment('web', { metadata: { finalizers: ['f'] } }))).body;
    const rv = api.store.resourceVersion;
    const updated = await send('PUT', `${DEPLOYMENTS}/web?dryRun=All`, { ...stored, spec: { replicas: 7 } });
    expect(updated.body).toMatchObject({ metadata: { generation: 2 }, spec: { replicas: 7 } });
    const deleting = await send('DELETE', `${DEPLOYMENTS}/web?dryRun=All`);
    expect(deleting.body.metadata.deletionTimestamp).toBeDefined();
    const bodyDryRun = await send('DELETE', `${DEPLOYMENTS}/web`, { kind: 'DeleteOptions', dryRun: ['All'] });
    expect(bodyDryRun.status).toBe(200);
    expect(api.store.resourceVersion).toBe(rv);
    expect((await getJson(`${DEPLOYMENTS}/web`)).body).toEqual(stored);
  });
});

describe('FakeApiServer metadata-only reads', () => {
  const accept = { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' };

  it('answers GET, LIST and WATCH with PartialObjectMetadata', async () => {
    const stored = api.create({ ...deployment('web'), metadata: { name: 'web', namespace: 'shop' } });
    expect((await getJson(`${DEPLOYMENTS}/web`, accept)).body).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: stored.metadata,
    });
    const list = await getJson(DEPLOYMENTS, {
      accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    });
    expect(list.body).toMatchObject({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: stored.metadata.resourceVersion },
      items: [{ kind: 'PartialObjectMetadata', metadata: { name: 'web' } }],
    });
    const controller = new AbortController();
    const res = await fetch(`${api.url}${DEPLOYMENTS}?watch=true`, { headers: accept, signal: controller.signal });
    const { value } = await res.body!.getReader().read();
    controller.abort();
    expect(JSON.parse(Buffer.from(value!).toString())).toEqual({
      type: 'ADDED',
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: stored.metadata },
    });
  });

  it('falls back to the full object when the metadata kind does not fit the request, and answers 406 without a fallback', async () => {
    api.create({ ...deployment('web'), metadata: { name: 'web', namespace: 'shop' } });
    // A list asks for PartialObjectMetadataList; PartialObjectMetadata does not fit it.
    expect((await getJson(DEPLOYMENTS, accept)).body).toMatchObject({ kind: 'DeploymentList' });
    const strict = await getJson(DEPLOYMENTS, {
      accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    });
    expect(strict.status).toBe(406);
    expect(strict.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
    expect((await getJson(`${DEPLOYMENTS}/web`, { accept: 'application/yaml' })).status).toBe(406);
  });
});

describe('FakeApiServer writes from the test', () => {
  it('creates with generateName, deletes with finalizers, and finalize() removes the object', () => {
    const created = api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: 'c-', namespace: 'shop', finalizers: ['x'] },
    });
    const name = created.metadata.name;
    expect(name).toMatch(/^c-.{5}$/);
    const deleting = api.delete('v1', 'ConfigMap', name, 'shop');
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    expect(api.store.get(api.store.resourceForKind('v1', 'ConfigMap'), name, 'shop')).toBeDefined();
    api.finalize('v1', 'ConfigMap', name, 'shop');
    expect(api.store.get(api.store.resourceForKind('v1', 'ConfigMap'), name, 'shop')).toBeUndefined();
  });

  it('throws ApiError with the Status the apiserver would answer', () => {
    const cm = api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'shop' } });
    api.update({ ...cm, data: { k: 'v' } });
    let caught: unknown;
    try {
      api.update({ ...cm, data: { k: 'w' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).status).toMatchObject({ kind: 'Status', code: 409, reason: 'Conflict' });
    expect(() => api.create(cm)).toThrow('configmaps "a" already exists');
  });

  it('sets status with updateStatus, leaving spec and generation alone', () => {
    const d = api.create({ ...deployment('web'), metadata: { name: 'web', namespace: 'shop' } });
    const updated = api.updateStatus({ ...d, spec: { replicas: 50 }, status: { availableReplicas: 1 } });
    expect(updated).toMatchObject({
      metadata: { generation: 1 },
      spec: { replicas: 1 },
      status: { availableReplicas: 1 },
    });
  });
});

describe('FakeApiServer held writes', () => {
  it('answers 504 Timeout at once and lands the write on release, as a write after the apiserver timeout', async () => {
    const held = api.holdNextWrite({ method: 'POST', path: CONFIGMAPS });
    const answer = await send('POST', CONFIGMAPS, { metadata: { generateName: 'late-' } });
    await held.arrived;
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
    expect((await getJson(CONFIGMAPS)).body.items).toEqual([]);
    const landed = (await held.release()) as Obj;
    expect(landed.metadata.name).toMatch(/^late-.{5}$/);
    expect((await getJson(CONFIGMAPS)).body.items!.map((i) => i.metadata.name)).toEqual([landed.metadata.name]);
    // Only the next matching write is held.
    expect((await send('POST', CONFIGMAPS, { metadata: { name: 'b' } })).status).toBe(201);
  });

  it("with answer 'release', the client waits for the write's own answer", async () => {
    api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'shop' } });
    const held = api.holdNextWrite({ method: 'DELETE', answer: 'release' });
    let answered = false;
    const pending = send('DELETE', `${CONFIGMAPS}/a`).then((r) => {
      answered = true;
      return r;
    });
    await held.arrived;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    expect((await getJson(`${CONFIGMAPS}/a`)).status).toBe(200);
    expect(await held.release()).toMatchObject({ status: 'Success' });
    expect((await pending).body).toMatchObject({ status: 'Success', details: { name: 'a' } });
    expect((await getJson(`${CONFIGMAPS}/a`)).status).toBe(404);
  });

  it('answers the error a held write meets when it lands', async () => {
    const held = api.holdNextWrite({ method: 'POST' });
    await send('POST', CONFIGMAPS, { metadata: { name: 'a' } });
    await held.arrived;
    api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'shop' } });
    expect(await held.release()).toMatchObject({ reason: 'AlreadyExists', code: 409 });
  });
});

describe('FakeApiServer with @kubernetes/client-node', () => {
  it('creates with generateName, replaces, conflicts, finalizes and deletes through CoreV1Api', async () => {
    const config = new KubeConfig();
    config.loadFromFile(await api.writeKubeconfig());
    const core = config.makeApiClient(CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: 'shop',
      body: { metadata: { generateName: 'claim-', finalizers: ['example.com/hold'] }, data: { a: '1' } },
    });
    const name = created.metadata!.name!;
    expect(name).toMatch(/^claim-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(created.metadata!.uid).toMatch(UUID);
    const replaced = await core.replaceNamespacedConfigMap({
      name,
      namespace: 'shop',
      body: { ...created, data: { a: '2' } },
    });
    expect(replaced.data).toEqual({ a: '2' });
    const stale = await core
      .replaceNamespacedConfigMap({ name, namespace: 'shop', body: { ...created, data: { a: '3' } } })
      .then(
        () => undefined,
        (error: unknown) => error as { code: number; body: string },
      );
    expect(stale?.code).toBe(409);
    expect(JSON.parse(stale!.body)).toMatchObject({ kind: 'Status', reason: 'Conflict' });
    await core.deleteNamespacedConfigMap({
      name,
      namespace: 'shop',
      body: { preconditions: { uid: created.metadata!.uid } },
    });
    const deleting = await core.readNamespacedConfigMap({ name, namespace: 'shop' });
    expect(deleting.metadata!.deletionTimestamp).toBeDefined();
    await core.replaceNamespacedConfigMap({
      name,
      namespace: 'shop',
      body: { ...deleting, metadata: { ...deleting.metadata, finalizers: [] } },
    });
    const gone = await core.readNamespacedConfigMap({ name, namespace: 'shop' }).then(
      () => undefined,
      (error: unknown) => error as { code: number },
    );
    expect(gone?.code).toBe(404);
  });
});
