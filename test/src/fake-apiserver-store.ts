/**
 * The object store behind the fake kube-apiserver: objects by resource, one global
 * resourceVersion counter, an event history for watches (compactable to provoke 410 Gone),
 * and the metadata the real apiserver fills in (uid, resourceVersion, creationTimestamp, and
 * the kubernetes.io/metadata.name label on namespaces).
 */
import { randomUUID } from 'node:crypto';

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

export interface ResourceInfo {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural, lowercase: 'namespaces', 'configmaps', 'deployments'. */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
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
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true },
  { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true },
  { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true },
];

export const apiVersionOf = (r: ResourceInfo): string => (r.group === '' ? r.version : `${r.group}/${r.version}`);
/** The qualified resource the apiserver names in NotFound messages: `namespaces`, `deployments.apps`. */
export const qualifiedResource = (r: ResourceInfo): string =>
  r.group === '' ? r.resource : `${r.resource}.${r.group}`;

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

  create(input: KubeObject): KubeObject {
    const resource = this.resourceForKind(input.apiVersion ?? '', input.kind ?? '');
    const key = keyOf(resource, input.metadata.namespace, input.metadata.name);
    if (this.#objects.has(key))
      throw new Error(`fake apiserver: ${qualifiedResource(resource)} "${input.metadata.name}" already exists`);
    const object = structuredClone(input);
    object.metadata.uid ??= randomUUID();
    object.metadata.creationTimestamp ??= new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (!resource.namespaced) delete object.metadata.namespace;
    this.#stampNamespace(resource, object);
    return this.#record('ADDED', resource, key, object);
  }

  update(input: KubeObject): KubeObject {
    const resource = this.resourceForKind(input.apiVersion ?? '', input.kind ?? '');
    const key = keyOf(resource, input.metadata.namespace, input.metadata.name);
    const existing = this.#objects.get(key);
    if (!existing) throw new Error(`fake apiserver: ${qualifiedResource(resource)} "${input.metadata.name}" not found`);
    const object = structuredClone(input);
    object.metadata.uid = existing.object.metadata.uid;
    object.metadata.creationTimestamp = existing.object.metadata.creationTimestamp;
    this.#stampNamespace(resource, object);
    return this.#record('MODIFIED', resource, key, object);
  }

  delete(resource: ResourceInfo, name: string, namespace?: string): KubeObject {
    const key = keyOf(resource, namespace, name);
    const existing = this.#objects.get(key);
    if (!existing) throw new Error(`fake apiserver: ${qualifiedResource(resource)} "${name}" not found`);
    this.#objects.delete(key);
    return this.#record('DELETED', resource, key, structuredClone(existing.object));
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
    if (type !== 'DELETED') this.#objects.set(key, { resource, object });
    const event: StoreEvent = { rv: this.#rv, type, resource, object: structuredClone(object) };
    this.#history.push(event);
    for (const listener of this.#listeners) listener(event);
    return structuredClone(object);
  }
}
