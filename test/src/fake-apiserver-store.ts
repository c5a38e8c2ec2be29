/**
 * The object store behind the fake kube-apiserver, and the apiserver's write semantics: objects
 * by resource, one global resourceVersion counter, an event history for watches (compactable to
 * provoke 410 Gone), the metadata the apiserver fills in (uid, resourceVersion,
 * creationTimestamp, generation, names from generateName, the kubernetes.io/metadata.name label
 * on namespaces), optimistic concurrency, the status subresource, finalizers and
 * deletionTimestamp, and dry runs. Refusals are ApiErrors carrying the apiserver's Status.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  ApiError,
  STALE_RESOURCE_VERSION,
  alreadyExists,
  conflict,
  invalid,
  notFound,
  qualifiedResource,
} from './fake-apiserver-errors.js';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    resourceVersion?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** An object to create: the name may be left out for `metadata.generateName`. */
export interface NewObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    generateName?: string;
    namespace?: string;
    labels?: Record<string, string>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface ResourceInfo {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural, lowercase: 'namespaces', 'configmaps', 'deployments'. */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /**
   * Whether status is a subresource (the default): then a PUT of the object keeps the stored
   * status, PUT .../status changes only status, and a status change never bumps generation. Without
   * it status is an ordinary field, as in a CRD that declares no status subresource.
   */
  readonly statusSubresource?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  readonly rv: number;
  readonly type: WatchEventType;
  readonly resource: ResourceInfo;
  readonly object: KubeObject;
}

export const BUILTIN_RESOURCES: readonly ResourceInfo[] = [
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, statusSubresource: false },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, statusSubresource: false },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true },
  {
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    statusSubresource: false,
  },
  { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true },
];

export const apiVersionOf = (r: ResourceInfo): string => (r.group === '' ? r.version : `${r.group}/${r.version}`);
export { qualifiedResource };

export interface WriteOptions {
  /** The resource from the request path; by default the one registered for the object's apiVersion and kind. */
  readonly resource?: ResourceInfo;
  /** `?dryRun=All`: everything is checked and the answer computed, nothing is stored. */
  readonly dryRun?: boolean;
  /** Keep a uid the caller set (tests that need a known uid); the apiserver always assigns one. */
  readonly keepUid?: boolean;
}

/** The apiserver's alphabet for generated names (no vowels, no confusable characters). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export const hasStatusSubresource = (r: ResourceInfo): boolean => r.statusSubresource !== false;

/** What a change of bumps generation: everything but metadata (and status, when it is a subresource). */
function specOf(resource: ResourceInfo, object: KubeObject) {
  const { metadata: _m, apiVersion: _v, kind: _k, ...rest } = object;
  if (hasStatusSubresource(resource)) delete rest.status;
  return rest;
}

const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const typed = (resource: ResourceInfo, object: KubeObject): KubeObject => ({
  ...structuredClone(object),
  apiVersion: apiVersionOf(resource),
  kind: resource.kind,
});

const keyOf = (r: ResourceInfo, namespace: string | undefined, name: string): string =>
  `${r.group}/${r.resource}/${r.namespaced ? (namespace ?? '') : ''}/${name}`;

export class ObjectStore {
  readonly #resources = new Map<string, ResourceInfo>();
  readonly #objects = new Map<string, { resource: ResourceInfo; object: KubeObject }>();
  #history: StoreEvent[] = [];
  /** Watches may resume from any resourceVersion at or after this one. */
  #oldestResumable = 0;
  #rv = 1;
  readonly #listeners = new Set<(event: StoreEvent) => void>();

  constructor(resources: readonly ResourceInfo[] = BUILTIN_RESOURCES) {
    for (const r of resources) this.registerResource(r);
  }

  get resourceVersion(): number {
    return this.#rv;
  }

  registerResource(info: ResourceInfo): void {
    this.#resources.set(`${info.group}/${info.version}/${info.resource}`, info);
  }

  findResource(group: string, version: string, resource: string): ResourceInfo | undefined {
    return this.#resources.get(`${group}/${version}/${resource}`);
  }

  resourceForKind(apiVersion: string, kind: string): ResourceInfo {
    for (const r of this.#resources.values()) if (apiVersionOf(r) === apiVersion && r.kind === kind) return r;
    throw new Error(`fake apiserver: no resource registered for ${apiVersion} ${kind}; call registerResource first`);
  }

  get(resource: ResourceInfo, name: string, namespace?: string): KubeObject | undefined {
    const found = this.#objects.get(keyOf(resource, namespace, name));
    return found ? structuredClone(found.object) : undefined;
  }

  /** Objects of a resource, in one namespace or all of them. */
  list(resource: ResourceInfo, namespace?: string): KubeObject[] {
    const out: KubeObject[] = [];
    for (const { resource: r, object } of this.#objects.values()) {
      if (r !== resource) continue;
      if (namespace !== undefined && object.metadata.namespace !== namespace) continue;
      out.push(structuredClone(object));
    }
    return out.sort((a, b) =>
      `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
        `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
      ),
    );
  }

  /**
   * POST: the server assigns uid, creationTimestamp, resourceVersion and generation 1, and a name
   * from `generateName` (retried on a collision, as the apiserver does); a taken name is 409
   * AlreadyExists, neither name nor generateName is 422 Invalid.
   */
  create(input: NewObject, options: WriteOptions = {}): KubeObject {
    const resource = options.resource ?? this.resourceForKind(input.apiVersion ?? '', input.kind ?? '');
    const object = structuredClone(input) as KubeObject;
    const namespace = resource.namespaced ? object.metadata.namespace : undefined;
    if (!resource.namespaced) delete object.metadata.namespace;
    const generateName = typeof object.metadata.generateName === 'string' ? object.metadata.generateName : '';
    if (!object.metadata.name) {
      if (!generateName)
        throw invalid(
          resource,
          '',
          'metadata.name',
          'FieldValueRequired',
          'Required value: name or generateName is required',
        );
      object.metadata.name = this.#freeName(resource, namespace, generateName);
    }
    const key = keyOf(resource, namespace, object.metadata.name);
    if (this.#objects.has(key)) throw alreadyExists(resource, object.metadata.name);
    // Client-sent system fields are overwritten, as BeforeCreate does.
    object.metadata.uid = options.keepUid && object.metadata.uid ? object.metadata.uid : randomUUID();
    object.metadata.creationTimestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    object.metadata.generation = 1;
    delete object.metadata.resourceVersion;
    delete object.metadata.deletionTimestamp;
    delete object.metadata.deletionGracePeriodSeconds;
    this.#stampNamespace(resource, object);
    if (options.dryRun) return typed(resource, object);
    return this.#record('ADDED', resource, key, object);
  }

  /**
   * PUT: a non-empty resourceVersion must be the stored one (else 409 Conflict); a uid must match
   * (409 precondition failure); status is kept from the stored object (it has a /status
   * subresource); generation goes up when anything but metadata and status changed. Removing the
   * last finalizer of an object being deleted deletes it.
   */
  update(input: KubeObject, options: WriteOptions = {}): KubeObject {
    const resource = options.resource ?? this.resourceForKind(input.apiVersion ?? '', input.kind ?? '');
    const { key, existing } = this.#existing(resource, input.metadata.name, input.metadata.namespace);
    this.#checkPreconditions(resource, existing, input.metadata.uid, input.metadata.resourceVersion);
    const object = structuredClone(input);
    if (!resource.namespaced) delete object.metadata.namespace;
    if (hasStatusSubresource(resource)) {
      if ('status' in existing) object.status = structuredClone(existing.status);
      else delete object.status;
    }
    return this.#replace(resource, key, existing, object, options);
  }

  /** PUT .../status: only the status changes; resourceVersion and uid are checked as for update. */
  updateStatus(input: KubeObject, options: WriteOptions = {}): KubeObject {
    const resource = options.resource ?? this.resourceForKind(input.apiVersion ?? '', input.kind ?? '');
    if (!hasStatusSubresource(resource))
      // As the apiserver answers for a subresource a resource does not have.
      throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    const { key, existing } = this.#existing(resource, input.metadata.name, input.metadata.namespace);
    this.#checkPreconditions(resource, existing, input.metadata.uid, input.metadata.resourceVersion);
    const object = structuredClone(existing);
    if ('status' in input) object.status = structuredClone(input.status);
    else delete object.status;
    return this.#replace(resource, key, existing, object, options);
  }

  /**
   * DELETE: an object with finalizers gets deletionTimestamp (generation + 1) and stays, a MODIFIED
   * event, until an update removes them; without finalizers it is gone at once (DELETED).
   * `deleted` says which happened. Preconditions (uid, resourceVersion) fail with 409 Conflict.
   */
  delete(
    resource: ResourceInfo,
    name: string,
    namespace?: string,
    options: WriteOptions & { preconditions?: { uid?: string; resourceVersion?: string } } = {},
  ): { object: KubeObject; deleted: boolean } {
    const { key, existing } = this.#existing(resource, name, namespace);
    this.#checkPreconditions(resource, existing, options.preconditions?.uid, options.preconditions?.resourceVersion);
    const finalizers = existing.metadata.finalizers;
    if (Array.isArray(finalizers) && finalizers.length > 0) {
      if (existing.metadata.deletionTimestamp !== undefined)
        return { object: typed(resource, existing), deleted: false };
      const object = structuredClone(existing);
      object.metadata.deletionTimestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      object.metadata.deletionGracePeriodSeconds = 0;
      if (typeof object.metadata.generation === 'number') object.metadata.generation += 1;
      if (options.dryRun) return { object: typed(resource, object), deleted: false };
      return { object: this.#record('MODIFIED', resource, key, object), deleted: false };
    }
    if (options.dryRun) return { object: typed(resource, existing), deleted: true };
    return { object: this.#record('DELETED', resource, key, structuredClone(existing)), deleted: true };
  }

  /** Events after `rv` for a resource, or undefined when history no longer reaches back that far (410 Gone). */
  eventsSince(resource: ResourceInfo, rv: number): StoreEvent[] | undefined {
    if (rv < this.#oldestResumable) return undefined;
    return this.#history.filter((e) => e.rv > rv && e.resource === resource);
  }

  /** Forget the event history, as etcd compaction does: older resourceVersions now get 410 Gone. */
  compact(): void {
    this.#history = [];
    this.#oldestResumable = this.#rv;
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #existing(resource: ResourceInfo, name: string, namespace: string | undefined) {
    const key = keyOf(resource, namespace, name);
    const found = this.#objects.get(key);
    if (!found) throw notFound(resource, name);
    return { key, existing: found.object };
  }

  #checkPreconditions(resource: ResourceInfo, existing: KubeObject, uid?: unknown, resourceVersion?: unknown): void {
    const name = existing.metadata.name;
    if (typeof uid === 'string' && uid !== '' && uid !== existing.metadata.uid)
      throw conflict(
        resource,
        name,
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(existing.metadata.uid)}`,
      );
    if (
      typeof resourceVersion === 'string' &&
      resourceVersion !== '' &&
      resourceVersion !== existing.metadata.resourceVersion
    )
      throw conflict(resource, name, STALE_RESOURCE_VERSION);
  }

  /** The common tail of update and updateStatus: system fields from the stored object, generation, finalization. */
  #replace(
    resource: ResourceInfo,
    key: string,
    existing: KubeObject,
    object: KubeObject,
    options: WriteOptions,
  ): KubeObject {
    const meta = object.metadata;
    meta.uid = existing.metadata.uid;
    meta.creationTimestamp = existing.metadata.creationTimestamp;
    meta.generation = existing.metadata.generation;
    for (const field of ['deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
      if (existing.metadata[field] === undefined) delete meta[field];
      else meta[field] = existing.metadata[field];
    }
    delete meta.resourceVersion;
    if (existing.metadata.deletionTimestamp !== undefined) {
      const before = new Set(asStrings(existing.metadata.finalizers));
      const added = asStrings(meta.finalizers).filter((f) => !before.has(f));
      if (added.length > 0)
        throw invalid(
          resource,
          meta.name,
          'metadata.finalizers',
          'FieldValueForbidden',
          `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
        );
    }
    this.#stampNamespace(resource, object);
    if (typeof meta.generation === 'number' && !isDeepStrictEqual(specOf(resource, object), specOf(resource, existing)))
      meta.generation += 1;
    const finalizers = meta.finalizers;
    const finalized = meta.deletionTimestamp !== undefined && (!Array.isArray(finalizers) || finalizers.length === 0);
    if (options.dryRun)
      return typed(resource, { ...object, metadata: { ...meta, resourceVersion: existing.metadata.resourceVersion } });
    // The DELETED event carries the last stored state, as the apiserver's watch cache does.
    if (finalized) return this.#record('DELETED', resource, key, structuredClone(existing));
    return this.#record('MODIFIED', resource, key, object);
  }

  /** name = generateName + 5 characters of the apiserver's alphabet (the prefix cut to 58). */
  #freeName(resource: ResourceInfo, namespace: string | undefined, generateName: string): string {
    const prefix = generateName.slice(0, 63 - 5);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      let suffix = '';
      for (let i = 0; i < 5; i += 1) suffix += NAME_ALPHABET[randomInt(NAME_ALPHABET.length)];
      if (!this.#objects.has(keyOf(resource, namespace, prefix + suffix))) return prefix + suffix;
    }
    throw alreadyExists(resource, `${prefix}?????`);
  }

  #stampNamespace(resource: ResourceInfo, object: KubeObject): void {
    if (resource.group !== '' || resource.resource !== 'namespaces') return;
    // The real apiserver always sets this label, whatever the client sent.
    object.metadata.labels = { ...object.metadata.labels, 'kubernetes.io/metadata.name': object.metadata.name };
    object.spec ??= { finalizers: ['kubernetes'] };
    object.status ??= { phase: 'Active' };
  }

  #record(type: WatchEventType, resource: ResourceInfo, key: string, object: KubeObject): KubeObject {
    this.#rv += 1;
    object.apiVersion = apiVersionOf(resource);
    object.kind = resource.kind;
    object.metadata.resourceVersion = String(this.#rv);
    if (type === 'DELETED') this.#objects.delete(key);
    else this.#objects.set(key, { resource, object });
    const event: StoreEvent = { rv: this.#rv, type, resource, object: structuredClone(object) };
    this.#history.push(event);
    for (const listener of this.#listeners) listener(event);
    return structuredClone(object);
  }
}
