/**
 * A small fake kube-apiserver over real HTTP for tests: GET of objects and lists with a
 * resourceVersion, `?watch=true` streams of JSON-line events (ADDED, MODIFIED, DELETED, and an
 * ERROR 410 after compaction), NotFound Status answers, optional bearer-token auth, a request
 * log and failure injection. Paths follow the real API: /api/v1/... and /apis/<group>/<version>/...,
 * with /namespaces/<ns>/ for namespaced resources.
 *
 *   const api = await FakeApiServer.start();
 *   api.addNamespace('team-a', { env: 'prod' });
 *   const kubeconfig = await api.writeKubeconfig();
 *   ...
 *   await api.close();
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectStore, apiVersionOf, qualifiedResource } from './fake-apiserver-store.js';
import type { KubeObject, ResourceInfo, StoreEvent } from './fake-apiserver-store.js';

export type { KubeObject, ResourceInfo, WatchEventType } from './fake-apiserver-store.js';

export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
}

export interface InjectedFailure {
  /** Matches the request path (without query). */
  readonly path: string | RegExp;
  readonly status: number;
  /** Only watch requests (true), only non-watch (false), or both (undefined). */
  readonly watch?: boolean;
  /** How many requests fail; Infinity until clearFailures(). */
  readonly times?: number;
}

interface Route {
  readonly resource: ResourceInfo;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

type Selector = (object: KubeObject) => boolean;

export class FakeApiServer {
  readonly store = new ObjectStore();
  readonly requests: RequestRecord[] = [];
  readonly #server: Server;
  readonly #token: string | undefined;
  /** Open watch streams and how to stop feeding each. */
  readonly #watches = new Map<ServerResponse, () => void>();
  readonly #failures: { spec: InjectedFailure; left: number }[] = [];
  readonly #tempDirs: string[] = [];

  private constructor(server: Server, token: string | undefined) {
    this.#server = server;
    this.#token = token;
  }

  /** Listens on 127.0.0.1 on an ephemeral port. With `token`, requests need `Authorization: Bearer <token>`. */
  static async start(options: { token?: string } = {}): Promise<FakeApiServer> {
    const server = createServer();
    const api = new FakeApiServer(server, options.token);
    server.on('request', (req, res) => api.#handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return api;
  }

  get url(): string {
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('fake apiserver is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  /** Watch streams currently open (informers connected). */
  get openWatches(): number {
    return this.#watches.size;
  }

  addNamespace(name: string, labels: Record<string, string> = {}): KubeObject {
    return this.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  }

  /** Replaces the namespace's labels (the apiserver then re-adds kubernetes.io/metadata.name). */
  setNamespaceLabels(name: string, labels: Record<string, string>): KubeObject {
    return this.store.update({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  }

  deleteNamespace(name: string): KubeObject {
    return this.store.delete(this.store.resourceForKind('v1', 'Namespace'), name);
  }

  create(object: KubeObject): KubeObject {
    return this.store.create(object);
  }

  update(object: KubeObject): KubeObject {
    return this.store.update(object);
  }

  delete(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject {
    return this.store.delete(this.store.resourceForKind(apiVersion, kind), name, namespace);
  }

  registerResource(info: ResourceInfo): void {
    this.store.registerResource(info);
  }

  failRequests(spec: InjectedFailure): void {
    this.#failures.push({ spec, left: spec.times ?? Number.POSITIVE_INFINITY });
  }

  clearFailures(): void {
    this.#failures.length = 0;
  }

  /** End every open watch stream, as an apiserver restart or a load balancer timeout does. */
  dropWatches(): void {
    for (const [res, stop] of this.#watches) {
      stop();
      res.end();
    }
  }

  /** A kubeconfig file (in a fresh temp dir, removed by close()) pointing at this server. */
  async writeKubeconfig(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'hookgate-kubeconfig-'));
    this.#tempDirs.push(dir);
    const file = join(dir, 'kubeconfig');
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      // client-node refuses http:// servers unless TLS verification is explicitly off.
      clusters: [{ name: 'fake', cluster: { server: this.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'fake', user: this.#token ? { token: this.#token } : {} }],
      contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'fake' } }],
      'current-context': 'fake',
    };
    await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });
    return file;
  }

  async close(): Promise<void> {
    this.dropWatches();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await Promise.all(this.#tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    const watch = query.watch === 'true' || query.watch === '1';
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query });
    if (this.#token !== undefined && req.headers.authorization !== `Bearer ${this.#token}`) {
      return sendStatus(res, 401, 'Unauthorized', 'Unauthorized');
    }
    const failure = this.#takeFailure(url.pathname, watch);
    if (failure !== undefined) return sendStatus(res, failure, 'InternalError', `injected failure ${failure}`);
    if (req.method !== 'GET')
      return sendStatus(res, 405, 'MethodNotAllowed', `the fake apiserver serves GET only, not ${req.method}`);
    const route = this.#route(url.pathname);
    if (route === undefined)
      return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
    if (route.name !== undefined) return this.#get(res, { ...route, name: route.name });
    const selector = parseSelectors(query.labelSelector, query.fieldSelector);
    if (selector === undefined) return sendStatus(res, 400, 'BadRequest', 'unsupported labelSelector or fieldSelector');
    if (watch) return this.#watch(res, route, selector, query);
    const items = this.store.list(route.resource, route.namespace).filter(selector);
    // Real list items carry no apiVersion/kind: the list does.
    const bare = items.map(({ apiVersion: _v, kind: _k, ...rest }) => rest);
    sendJson(res, 200, {
      apiVersion: apiVersionOf(route.resource),
      kind: `${route.resource.kind}List`,
      metadata: { resourceVersion: String(this.store.resourceVersion) },
      items: bare,
    });
  }

  #get(res: ServerResponse, route: Route & { name: string }): void {
    const object = this.store.get(route.resource, route.name, route.namespace);
    if (object === undefined || (route.subresource !== undefined && route.subresource !== 'status')) {
      const what = qualifiedResource(route.resource);
      return sendStatus(res, 404, 'NotFound', `${what} "${route.name}" not found`, {
        name: route.name,
        group: route.resource.group || undefined,
        kind: route.resource.resource,
      });
    }
    sendJson(res, 200, object);
  }

  #watch(res: ServerResponse, route: Route, selector: Selector, query: Record<string, string>): void {
    const inScope = (e: StoreEvent) =>
      e.resource === route.resource &&
      (route.namespace === undefined || e.object.metadata.namespace === route.namespace) &&
      selector(e.object);
    res.writeHead(200, { 'content-type': 'application/json' });
    // Headers go out at once, as the real apiserver's do: clients wait for them before events.
    res.flushHeaders();
    const send = (type: string, object: unknown) => res.write(`${JSON.stringify({ type, object })}\n`);
    const rv = query.resourceVersion;
    if (rv === undefined || rv === '' || rv === '0') {
      for (const object of this.store.list(route.resource, route.namespace).filter(selector)) send('ADDED', object);
    } else {
      const backlog = this.store.eventsSince(route.resource, Number(rv));
      if (backlog === undefined) {
        send('ERROR', statusBody(410, 'Expired', `too old resource version: ${rv} (${this.store.resourceVersion})`));
        res.end();
        return;
      }
      for (const e of backlog.filter(inScope)) send(e.type, e.object);
    }
    const unsubscribe = this.store.subscribe((e) => {
      if (inScope(e)) send(e.type, e.object);
    });
    const timeout = query.timeoutSeconds ? setTimeout(() => res.end(), Number(query.timeoutSeconds) * 1000) : undefined;
    timeout?.unref();
    const stop = () => {
      unsubscribe();
      clearTimeout(timeout);
      this.#watches.delete(res);
    };
    this.#watches.set(res, stop);
    res.on('close', stop);
  }

  #route(pathname: string): Route | undefined {
    const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    let group: string, version: string | undefined, rest: string[];
    if (parts[0] === 'api') [group, version, rest] = ['', parts[1], parts.slice(2)];
    else if (parts[0] === 'apis') [group, version, rest] = [parts[1] ?? '', parts[2], parts.slice(3)];
    else return undefined;
    if (version === undefined || rest.length === 0) return undefined;
    const find = (resource: string | undefined) =>
      resource === undefined ? undefined : this.store.findResource(group, version, resource);
    // /namespaces/<ns>/<resource>[/<name>[/<subresource>]] for namespaced resources
    const namespaced = rest[0] === 'namespaces' && rest.length >= 3 ? find(rest[2]) : undefined;
    if (namespaced?.namespaced)
      return { resource: namespaced, namespace: rest[1], name: rest[3], subresource: rest[4] };
    // /<resource>[/<name>[/<subresource>]]: cluster-scoped objects, or a list across namespaces
    const resource = find(rest[0]);
    if (resource === undefined || (resource.namespaced && rest.length > 1) || rest.length > 3) return undefined;
    return { resource, name: rest[1], subresource: rest[2] };
  }

  #takeFailure(path: string, watch: boolean): number | undefined {
    for (const f of this.#failures) {
      const pathMatches = typeof f.spec.path === 'string' ? f.spec.path === path : f.spec.path.test(path);
      if (!pathMatches || f.left <= 0 || (f.spec.watch !== undefined && f.spec.watch !== watch)) continue;
      f.left -= 1;
      return f.spec.status;
    }
    return undefined;
  }
}

function statusBody(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

function sendStatus(
  res: ServerResponse,
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): void {
  sendJson(res, code, statusBody(code, reason, message, details));
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** labelSelector (=, ==, !=, in, notin, exists, !exists) and fieldSelector (metadata.name/namespace) as one predicate. */
function parseSelectors(labelSelector: string | undefined, fieldSelector: string | undefined): Selector | undefined {
  const tests: Selector[] = [];
  for (const term of splitTerms(labelSelector)) {
    const set = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    const cmp = /^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    const exists = /^(!?)([^\s!=(),]+)$/.exec(term);
    if (set) {
      const [, key, op, values] = set as unknown as [string, string, string, string];
      const allowed = values.split(',').map((v) => v.trim());
      tests.push(
        (o) => (op === 'in') === (o.metadata.labels?.[key] !== undefined && allowed.includes(o.metadata.labels[key]!)),
      );
    } else if (cmp) {
      const [, key, op, value] = cmp as unknown as [string, string, string, string];
      tests.push((o) => (o.metadata.labels?.[key] === value) === (op !== '!='));
    } else if (exists) {
      const [, bang, key] = exists as unknown as [string, string, string];
      tests.push((o) => (o.metadata.labels?.[key] !== undefined) === (bang === ''));
    } else return undefined;
  }
  for (const term of splitTerms(fieldSelector)) {
    const cmp = /^(metadata\.name|metadata\.namespace)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (!cmp) return undefined;
    const [, field, op, value] = cmp as unknown as [string, string, string, string];
    const read = (o: KubeObject) => (field === 'metadata.name' ? o.metadata.name : (o.metadata.namespace ?? ''));
    tests.push((o) => (read(o) === value) === (op !== '!='));
  }
  return (o) => tests.every((t) => t(o));
}

/** Split on commas outside parentheses. */
function splitTerms(selector: string | undefined): string[] {
  if (!selector) return [];
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      terms.push(current.trim());
      current = '';
    } else current += ch;
  }
  terms.push(current.trim());
  return terms.filter(Boolean);
}
