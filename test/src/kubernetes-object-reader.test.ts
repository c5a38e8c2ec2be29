/**
 * The controller's object reader (`@hookgate/queue/kubernetes`) over real HTTP against the fake
 * apiserver: what it observes of stored, deleting and missing objects, how it tells an apiserver
 * that cannot answer now (429, 503, refused, silent) from one that refuses (403), that a
 * subresource job reads its parent, and that every read asks for metadata only.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { loadKubeConfig } from '@hookgate/kubernetes';
import { objectRefOf, type AdmissionSummary, type ObjectRef, type ReadObject } from '@hookgate/queue';
import { kubernetesObjectReader } from '@hookgate/queue/kubernetes';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeApiServer } from './fake-apiserver.js';

const METADATA_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

const WEB: ObjectRef = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'shop', name: 'web' };
const WEB_PATH = '/apis/apps/v1/namespaces/shop/deployments/web';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(options: { timeoutMs?: number } = {}): Promise<{ api: FakeApiServer; read: ReadObject }> {
  const api = await FakeApiServer.start();
  closers.push(() => api.close());
  api.addNamespace('shop');
  api.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { replicas: 3 },
  });
  const kubeConfig = loadKubeConfig({ mode: 'kubeconfig', kubeconfig: await api.writeKubeconfig() });
  return { api, read: kubernetesObjectReader(kubeConfig, options) };
}

/** A TCP server that accepts connections and never answers: an apiserver that hangs. */
async function silentServer(): Promise<{ url: string }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the silent server has no TCP address');
  return { url: `http://127.0.0.1:${address.port}` };
}

function kubeConfigFor(server: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'silent', server, skipTLSVerify: true }],
    users: [{ name: 'silent' }],
    contexts: [{ name: 'silent', cluster: 'silent', user: 'silent' }],
    currentContext: 'silent',
  });
  return kubeConfig;
}

describe('kubernetesObjectReader', () => {
  it('observes a stored namespaced object: uid, name, resourceVersion and generation, with a metadata-only consistent GET', async () => {
    const { api, read } = await setup();
    const stored = api.update({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { replicas: 5 },
    });
    expect(await read(WEB)).toEqual({
      uid: stored.metadata.uid,
      name: 'web',
      resourceVersion: stored.metadata.resourceVersion,
      generation: 2,
    });
    const reads = api.requests.filter((r) => r.path === WEB_PATH);
    expect(reads).toEqual([{ method: 'GET', path: WEB_PATH, query: {}, accept: METADATA_ACCEPT }]);
  });

  it('observes the deletionTimestamp of an object deleted while finalizers hold it', async () => {
    const { api, read } = await setup();
    api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'shop', finalizers: ['example.com/ledger'] },
      data: { a: 'b' },
    });
    const deleting = api.delete('v1', 'ConfigMap', 'settings', 'shop');
    const observed = await read({
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace: 'shop',
      name: 'settings',
    });
    expect(observed).toEqual({
      uid: deleting.metadata.uid,
      name: 'settings',
      resourceVersion: deleting.metadata.resourceVersion,
      generation: deleting.metadata.generation,
      deletionTimestamp: deleting.metadata.deletionTimestamp,
    });
    expect(typeof deleting.metadata.deletionTimestamp).toBe('string');
  });

  it('observes a cluster-scoped object at its cluster path', async () => {
    const { api, read } = await setup();
    const shop = api.store.get(api.store.resourceForKind('v1', 'Namespace'), 'shop');
    expect(await read({ group: '', version: 'v1', resource: 'namespaces', namespace: '', name: 'shop' })).toEqual({
      uid: shop?.metadata.uid,
      name: 'shop',
      resourceVersion: shop?.metadata.resourceVersion,
      generation: 1,
    });
    expect(api.requests.at(-1)).toMatchObject({ path: '/api/v1/namespaces/shop', accept: METADATA_ACCEPT });
  });

  it('reads the parent object for a subresource job', async () => {
    const { api, read } = await setup();
    const admission: AdmissionSummary = {
      uid: 'call-1',
      operation: 'UPDATE',
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      namespace: 'shop',
      name: 'web',
      generateName: '',
      dryRun: false,
      phase: 'validating',
    };
    expect(await read(objectRefOf(admission))).toMatchObject({ name: 'web', generation: 1 });
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: WEB_PATH, accept: METADATA_ACCEPT });
  });

  it("answers 'absent' for a 404, of the object or of its resource", async () => {
    const { read } = await setup();
    expect(await read({ ...WEB, name: 'gone' })).toBe('absent');
    expect(await read({ group: 'example.com', version: 'v1', resource: 'gadgets', namespace: '', name: 'x' })).toBe(
      'absent',
    );
  });

  it("answers unavailable with the apiserver's retry hint for a 429", async () => {
    const { api, read } = await setup();
    api.failRequests({ path: WEB_PATH, status: 429, retryAfterSeconds: 7, times: 1 });
    expect(await read(WEB)).toEqual({
      kind: 'unavailable',
      reason: `GET ${WEB_PATH}: HTTP 429: injected failure 429`,
      retryAfterMs: 7000,
    });
    expect(await read(WEB)).toMatchObject({ name: 'web' });
  });

  it('answers unavailable for a 503', async () => {
    const { api, read } = await setup();
    api.failRequests({ path: WEB_PATH, status: 503 });
    expect(await read(WEB)).toEqual({ kind: 'unavailable', reason: `GET ${WEB_PATH}: HTTP 503: injected failure 503` });
  });

  it('rejects a 403: RBAC needs an operator, not a later read', async () => {
    const { api, read } = await setup();
    api.failRequests({ path: WEB_PATH, status: 403 });
    await expect(read(WEB)).rejects.toMatchObject({
      code: 'HG_ERR_KUBERNETES_API',
      status: 403,
      request: `GET ${WEB_PATH}`,
    });
  });

  it('answers unavailable when the apiserver refuses connections', async () => {
    const { api, read } = await setup();
    await api.close();
    const answer = await read(WEB);
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(answer).not.toHaveProperty('retryAfterMs');
  });

  it('answers unavailable within its timeout when the apiserver does not answer', async () => {
    const { url } = await silentServer();
    const read = kubernetesObjectReader(kubeConfigFor(url), { timeoutMs: 300 });
    const started = performance.now();
    const answer = await read(WEB);
    const elapsedMs = performance.now() - started;
    expect(answer).toMatchObject({ kind: 'unavailable' });
    expect(elapsedMs).toBeGreaterThanOrEqual(250);
    expect(elapsedMs).toBeLessThan(2300);
  });
});
