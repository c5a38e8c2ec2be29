/**
 * A small fake kube-apiserver over real HTTP for tests, with the apiserver's semantics for what
 * it serves. Paths follow the real API: /api/v1/... and /apis/<group>/<version>/..., with
 * /namespaces/<ns>/ for namespaced resources; any resource registered with registerResource.
 *
 * - Reads: GET of objects and lists with a resourceVersion, label and field selectors,
 *   `?watch=true` streams of JSON-line events in resourceVersion order (ADDED, MODIFIED,
 *   DELETED, and an ERROR 410 after compaction), and metadata-only reads
 *   (`Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`).
 * - Writes (POST, PUT, PUT .../status, DELETE, each with `?dryRun=All`): server-assigned uid,
 *   resourceVersion, creationTimestamp and generation, `generateName`, optimistic concurrency,
 *   finalizers and deletionTimestamp; the semantics live in fake-apiserver-store.ts, and the same
 *   writes are offered to tests directly (create, update, updateStatus, delete, finalize).
 *   A DELETE that removes the object answers a Success Status (as built-in resources do), one
 *   that leaves it for its finalizers answers the object.
 * - Failures as Status bodies (NotFound, AlreadyExists, Conflict, Invalid, BadRequest,
 *   NotAcceptable), optional bearer-token auth, a request log, failure injection (per path,
 *   method, watch or not; 429 with Retry-After), and held writes: a write that lands only when
 *   the test releases it, after the client got a 504 Timeout (holdNextWrite).
 *
 * Simplified: every resource gets generation (the apiserver gives it to most, not ConfigMaps).
 * Not modelled: PATCH, server-side apply, list paging, bookmarks, admission (a namespace need
 * not exist to create in it), graceful deletion periods, namespace termination (a namespace,
 * whose finalizers are spec.finalizers, is removed at once).
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
import { ApiError, notFound, statusBody } from './fake-apiserver-errors.js';
import type { StatusDetails } from './fake-apiserver-errors.js';
import { ObjectStore, apiVersionOf } from './fake-apiserver-store.js';
import type { KubeObject, NewObject, ResourceInfo, StoreEvent } from './fake-apiserver-store.js';
import {
  checkObject,
  negotiate,
  parseBody,
  parseDryRun,
  parseSelectors,
  partialMetadata,
  readBody,
} from './fake-apiserver-requests.js';
import type { Route, Selector } from './fake-apiserver-requests.js';

export { ApiError } from './fake-apiserver-errors.js';
export type { KubeObject, NewObject, ResourceInfo, WatchEventType } from './fake-apiserver-store.js';

export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The Accept header as sent (undefined when there was none): shows a metadata-only read. */
  readonly accept: string | undefined;
}

export interface InjectedFailure {
  /** Matches the request path (without query). */
  readonly path: string | RegExp;
  /** The HTTP status; 429, 500, 503 and 504 come with the apiserver's reason (TooManyRequests, ...). */
  readonly status: number;
  /** Only requests of this method (GET, POST, PUT, DELETE); all by default. */
  readonly method?: string;
  /** For 429 and 503: the Retry-After header and details.retryAfterSeconds (1 by default for 429). */
  readonly retryAfterSeconds?: number;
  /** Only watch requests (true), only non-watch (false), or both (undefined). */
  readonly watch?: boolean;
  /** How many requests fail; Infinity until clearFailures(). */
  readonly times?: number;
}

export type WriteMethod = 'POST' | 'PUT' | 'DELETE';

export interface HoldSpec {
  readonly method?: WriteMethod;
  /** Matches the request path (without query). */
  readonly path?: string | RegExp;
  /**
   * 'timeout' (default): the client gets the apiserver's 504 Timeout at once and the write lands
   * on release(), as a write can after the apiserver gave up waiting. 'release': the client waits
   * for its answer until release().
   */
  readonly answer?: 'timeout' | 'release';
}

export interface HeldWrite {
  /** Resolves when a matching write arrived (and is being held). */
  readonly arrived: Promise<void>;
  /** Applies the held write; resolves with what it answered (the object, or a Status). */
  release(): Promise<unknown>;
}

interface Hold {
  readonly spec: HoldSpec;
  taken: boolean;
  arrive(): void;
  readonly released: Promise<void>;
  settle(answer: unknown): void;
}

export class FakeApiServer {
  readonly store = new ObjectStore();
  readonly requests: RequestRecord[] = [];
  readonly #server: Server;
  readonly #token: string | undefined;
  /** Open watch streams and how to stop feeding each. */
  readonly #watches = new Map<ServerResponse, () => void>();
  readonly #failures: { spec: InjectedFailure; left: number }[] = [];
  readonly #tempDirs: string[] = [];
  readonly #holds: Hold[] = [];

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

  /** Removes the namespace at once (namespace termination is not modelled). */
  deleteNamespace(name: string): KubeObject {
    return this.store.delete(this.store.resourceForKind('v1', 'Namespace'), name).object;
  }

  /**
   * A v1 Service as the apiserver stores it once allocated: the test gives `spec.clusterIP` (a
   * 127.0.0.x address stands in for a ClusterIP that kube-proxy would route); type ClusterIP by default.
   */
  addService(namespace: string, name: string, spec: Record<string, unknown>): KubeObject {
    return this.store.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace },
      spec: { type: 'ClusterIP', ...spec },
    });
  }

  /** As a POST: `metadata.generateName` works; throws ApiError (AlreadyExists, Invalid). */
  create(object: NewObject, options: { dryRun?: boolean; keepUid?: boolean } = {}): KubeObject {
    return this.store.create(object, options);
  }

  /** As a PUT: a resourceVersion, when set, must be current (ApiError Conflict); status is kept. */
  update(object: KubeObject, options: { dryRun?: boolean } = {}): KubeObject {
    return this.store.update(object, options);
  }

  /** As a PUT of the /status subresource: only status changes. */
  updateStatus(object: KubeObject, options: { dryRun?: boolean } = {}): KubeObject {
    return this.store.updateStatus(object, options);
  }

  /**
   * As a DELETE: an object with finalizers gets deletionTimestamp and stays until finalize() or an
   * update removes them; without, it is gone. Answers the object as it is (or was) afterwards.
   */
  delete(
    apiVersion: string,
    kind: string,
    name: string,
    namespace?: string,
    options: { dryRun?: boolean; preconditions?: { uid?: string; resourceVersion?: string } } = {},
  ): KubeObject {
    return this.store.delete(this.store.resourceForKind(apiVersion, kind), name, namespace, options).object;
  }

  /** Removes every finalizer, as the controller owning them does; an object being deleted is then gone. */
  finalize(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject {
    const resource = this.store.resourceForKind(apiVersion, kind);
    const object = this.store.get(resource, name, namespace);
    if (object === undefined) throw notFound(resource, name);
    return this.store.update({ ...object, metadata: { ...object.metadata, finalizers: [] } });
  }

  /** Holds the next write matching `spec` until the test releases it; see HoldSpec. */
  holdNextWrite(spec: HoldSpec = {}): HeldWrite {
    let arrive!: () => void;
    let release!: () => void;
    let settle!: (answer: unknown) => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const answered = new Promise<unknown>((resolve) => (settle = resolve));
    this.#holds.push({ spec, taken: false, arrive, released, settle });
    return {
      arrived,
      release: () => {
        release();
        return answered;
      },
    };
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
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query, accept: req.headers.accept });
    if (this.#token !== undefined && req.headers.authorization !== `Bearer ${this.#token}`) {
      return sendStatus(res, 401, 'Unauthorized', 'Unauthorized');
    }
    const failure = this.#takeFailure(req.method ?? 'GET', url.pathname, watch);
    if (failure !== undefined) return sendInjectedFailure(res, failure);
    const route = this.#route(url.pathname);
    if (route === undefined)
      return sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
    const method = req.method ?? 'GET';
    if (method === 'POST' || method === 'PUT' || method === 'DELETE') {
      void this.#write(req, res, method, route, url.pathname, query).catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else sendStatus(res, 500, 'InternalError', `fake apiserver: ${String(error)}`);
      });
      return;
    }
    if (method !== 'GET') return methodNotAllowed(res);
    const isList = route.name === undefined && !watch;
    const representation = negotiate(
      req.headers.accept,
      isList ? 'PartialObjectMetadataList' : 'PartialObjectMetadata',
    );
    if (representation === undefined)
      return sendStatus(
        res,
        406,
        'NotAcceptable',
        'only the following media types are accepted: application/json, and metadata-only application/json;as=...;g=meta.k8s.io;v=v1',
      );
    const metadataOnly = representation === 'metadata';
    const view = metadataOnly ? partialMetadata : (o: KubeObject) => o;
    if (route.name !== undefined) return this.#get(res, { ...route, name: route.name }, view);
    const selector = parseSelectors(query.labelSelector, query.fieldSelector);
    if (selector === undefined) return sendStatus(res, 400, 'BadRequest', 'unsupported labelSelector or fieldSelector');
    if (watch) return this.#watch(res, route, selector, query, view);
    const items = this.store.list(route.resource, route.namespace).filter(selector);
    const listMeta = { resourceVersion: String(this.store.resourceVersion) };
    if (metadataOnly)
      return sendJson(res, 200, {
        apiVersion: 'meta.k8s.io/v1',
        kind: 'PartialObjectMetadataList',
        metadata: listMeta,
        items: items.map(partialMetadata),
      });
    // Real list items carry no apiVersion/kind: the list does.
    const bare = items.map(({ apiVersion: _v, kind: _k, ...rest }) => rest);
    sendJson(res, 200, {
      apiVersion: apiVersionOf(route.resource),
      kind: `${route.resource.kind}List`,
      metadata: listMeta,
      items: bare,
    });
  }

  #get(res: ServerResponse, route: Route & { name: string }, view: (o: KubeObject) => unknown): void {
    const object = this.store.get(route.resource, route.name, route.namespace);
    if (object === undefined || (route.subresource !== undefined && route.subresource !== 'status'))
      return sendError(res, notFound(route.resource, route.name));
    sendJson(res, 200, view(object));
  }

  /** POST (create), PUT (update, or /status), DELETE; the store decides, this maps HTTP onto it. */
  async #write(
    req: IncomingMessage,
    res: ServerResponse,
    method: WriteMethod,
    route: Route,
    path: string,
    query: Record<string, string>,
  ): Promise<void> {
    const { resource, namespace, name, subresource } = route;
    const shapeFits =
      method === 'POST'
        ? name === undefined && (namespace !== undefined || !resource.namespaced)
        : name !== undefined && (subresource === undefined || (method === 'PUT' && subresource === 'status'));
    if (!shapeFits) return methodNotAllowed(res);
    const text = await readBody(req);
    let apply: () => WriteOutcome;
    try {
      apply = this.#planWrite(method, route, parseBody(text, method === 'DELETE'), query);
    } catch (error) {
      if (error instanceof ApiError) return sendError(res, error);
      throw error;
    }
    const hold = this.#takeHold(method, path);
    if (hold === undefined) {
      const { code, answer } = outcomeOf(apply);
      return sendJson(res, code, answer);
    }
    hold.arrive();
    if ((hold.spec.answer ?? 'timeout') === 'timeout') {
      const message = 'Timeout: request did not complete within requested timeout - context deadline exceeded';
      sendStatus(res, 504, 'Timeout', message, { retryAfterSeconds: 0 });
    }
    await hold.released;
    const { code, answer } = outcomeOf(apply);
    hold.settle(answer);
    if (!res.headersSent) sendJson(res, code, answer);
  }

  /** Checks the request (400 for a bad body or dryRun) and returns the store call that performs it. */
  #planWrite(
    method: WriteMethod,
    route: Route,
    body: Record<string, unknown> | undefined,
    query: Record<string, string>,
  ): () => WriteOutcome {
    const { resource, namespace, name, subresource } = route;
    const dryRun = parseDryRun(query.dryRun ?? (Array.isArray(body?.dryRun) ? body.dryRun.join(',') : undefined));
    if (method === 'DELETE') {
      const preconditions = body?.preconditions as { uid?: string; resourceVersion?: string } | undefined;
      return () => {
        const { object, deleted } = this.store.delete(resource, name!, namespace, { dryRun, preconditions });
        return { code: 200, answer: deleted ? deletedStatus(resource, object) : object };
      };
    }
    const object = checkObject(body, route);
    if (method === 'POST') return () => ({ code: 201, answer: this.store.create(object, { resource, dryRun }) });
    if (subresource === 'status')
      return () => ({ code: 200, answer: this.store.updateStatus(object, { resource, dryRun }) });
    return () => ({ code: 200, answer: this.store.update(object, { resource, dryRun }) });
  }

  #takeHold(method: WriteMethod, path: string): Hold | undefined {
    const hold = this.#holds.find(
      (h) =>
        !h.taken &&
        (h.spec.method === undefined || h.spec.method === method) &&
        (h.spec.path === undefined ||
          (typeof h.spec.path === 'string' ? h.spec.path === path : h.spec.path.test(path))),
    );
    if (hold) hold.taken = true;
    return hold;
  }

  #watch(
    res: ServerResponse,
    route: Route,
    selector: Selector,
    query: Record<string, string>,
    view: (o: KubeObject) => unknown,
  ): void {
    const inScope = (e: StoreEvent) =>
      e.resource === route.resource &&
      (route.namespace === undefined || e.object.metadata.namespace === route.namespace) &&
      selector(e.object);
    res.writeHead(200, { 'content-type': 'application/json' });
    // Headers go out at once, as the real apiserver's do: clients wait for them before events.
    res.flushHeaders();
    const send = (type: string, object: KubeObject) => res.write(`${JSON.stringify({ type, object: view(object) })}\n`);
    const rv = query.resourceVersion;
    if (rv === undefined || rv === '' || rv === '0') {
      for (const object of this.store.list(route.resource, route.namespace).filter(selector)) send('ADDED', object);
    } else {
      const backlog = this.store.eventsSince(route.resource, Number(rv));
      if (backlog === undefined) {
        const expired = statusBody(410, 'Expired', `too old resource version: ${rv} (${this.store.resourceVersion})`);
        res.write(`${JSON.stringify({ type: 'ERROR', object: expired })}\n`);
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

  #takeFailure(method: string, path: string, watch: boolean): InjectedFailure | undefined {
    for (const f of this.#failures) {
      const pathMatches = typeof f.spec.path === 'string' ? f.spec.path === path : f.spec.path.test(path);
      if (!pathMatches || f.left <= 0 || (f.spec.watch !== undefined && f.spec.watch !== watch)) continue;
      if (f.spec.method !== undefined && f.spec.method !== method) continue;
      f.left -= 1;
      return f.spec;
    }
    return undefined;
  }
}

interface WriteOutcome {
  readonly code: number;
  readonly answer: unknown;
}

/** Runs a planned write; a refusal by the store becomes its Status answer. */
function outcomeOf(apply: () => WriteOutcome): WriteOutcome {
  try {
    return apply();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, answer: error.status };
    throw error;
  }
}

function sendStatus(res: ServerResponse, code: number, reason: string, message: string, details?: StatusDetails): void {
  sendJson(res, code, statusBody(code, reason, message, details));
}

/** The apiserver's reasons for the statuses tests inject most (the message names the injection). */
const INJECTED_REASONS: Record<number, string> = {
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

function sendInjectedFailure(res: ServerResponse, failure: InjectedFailure): void {
  const code = failure.status;
  const retryAfter = failure.retryAfterSeconds ?? (code === 429 ? 1 : undefined);
  const details = retryAfter === undefined ? undefined : { retryAfterSeconds: retryAfter };
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  const reason = INJECTED_REASONS[code] ?? 'InternalError';
  sendJson(res, code, statusBody(code, reason, `injected failure ${code}`, details), headers);
}

function sendError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.code, error.status);
}

function methodNotAllowed(res: ServerResponse): void {
  sendStatus(res, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

/** What the apiserver answers for an object deleted at once (built-in resources do not return the object). */
function deletedStatus(resource: ResourceInfo, object: KubeObject) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: {
      name: object.metadata.name,
      ...(resource.group ? { group: resource.group } : {}),
      kind: resource.resource,
      uid: object.metadata.uid,
    },
  };
}

function sendJson(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
