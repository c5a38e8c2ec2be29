/**
 * The pod-defaults decision, pure: given a Pod and the validated configuration, fill in what is
 * absent and never touch what is present. Because only absent fields are written, a second
 * application (reinvocation, or a retried request) finds nothing to do: the function is idempotent.
 */
import type { JsonObject, JsonValue } from '@hookgate/admission';

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';
export type ContainerList = 'containers' | 'initContainers';

export interface PodDefaults {
  /** Set on each container that has no imagePullPolicy. */
  imagePullPolicy?: PullPolicy;
  /** Resource name → quantity, set on each container that requests nothing for that resource. */
  requests: Record<string, string>;
  /** Which container lists receive the defaults. */
  containerLists: ContainerList[];
  /** Static copy of namespace labels, by namespace name (the plugin cannot read Namespace objects). */
  namespaceLabels: Record<string, Record<string, string>>;
  /** Namespace label keys copied onto the pod as labels of the same key. */
  copyLabels: string[];
  /** Pod annotation key → namespace label key whose value it receives. */
  copyAnnotations: Record<string, string>;
}

export interface DefaultedPod {
  /** The pod with defaults applied; the input object itself when nothing changed. */
  pod: JsonValue;
  /** One entry per field set, e.g. `spec.containers[app].imagePullPolicy`, for tests and logs. */
  changes: string[];
}

/** The parts of an admission request the decision reads. */
export interface PodRequest {
  operation: string;
  kind: { group: string; kind: string };
  subResource?: string;
  namespace?: string;
  object?: JsonValue;
}

/**
 * Defaults apply to Pod CREATE only: a pod's containers are immutable after creation, so an UPDATE
 * that added imagePullPolicy or requests would be refused by the apiserver. Everything else is left alone.
 */
export function decidePodDefaults(request: PodRequest, defaults: PodDefaults): DefaultedPod {
  const isPodCreate =
    request.operation === 'CREATE' && request.kind.group === '' && request.kind.kind === 'Pod' && !request.subResource;
  if (!isPodCreate || request.object === undefined) return { pod: request.object ?? null, changes: [] };
  return applyPodDefaults(request.object, request.namespace, defaults);
}

/** Applies the defaults to a Pod object. Never mutates its input. */
export function applyPodDefaults(pod: JsonValue, namespace: string | undefined, defaults: PodDefaults): DefaultedPod {
  if (!isObject(pod)) return { pod, changes: [] };
  const next = structuredClone(pod);
  const changes: string[] = [];
  defaultContainers(next, defaults, changes);
  copyFromNamespace(next, namespace, defaults, changes);
  return changes.length === 0 ? { pod, changes } : { pod: next, changes };
}

function defaultContainers(pod: JsonObject, defaults: PodDefaults, changes: string[]): void {
  const spec = pod['spec'];
  if (!isObject(spec)) return;
  for (const list of defaults.containerLists) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container, index) => {
      if (!isObject(container)) return;
      const where = `spec.${list}[${typeof container['name'] === 'string' ? container['name'] : index}]`;
      if (defaults.imagePullPolicy !== undefined && container['imagePullPolicy'] === undefined) {
        container['imagePullPolicy'] = defaults.imagePullPolicy;
        changes.push(`${where}.imagePullPolicy`);
      }
      defaultRequests(container, defaults.requests, where, changes);
    });
  }
}

/**
 * A request is defaulted only when the container neither requests nor limits that resource:
 * with a limit and no request the apiserver sets request = limit, and a default above the limit
 * would make the pod invalid.
 */
function defaultRequests(
  container: JsonObject,
  requests: Record<string, string>,
  where: string,
  changes: string[],
): void {
  const wanted = Object.entries(requests);
  if (wanted.length === 0) return;
  const resources = isObject(container['resources']) ? container['resources'] : {};
  const current = isObject(resources['requests']) ? resources['requests'] : {};
  const limits = isObject(resources['limits']) ? resources['limits'] : {};
  let changed = false;
  for (const [name, quantity] of wanted) {
    if (hasMember(current, name) || hasMember(limits, name)) continue;
    current[name] = quantity;
    changes.push(`${where}.resources.requests.${name}`);
    changed = true;
  }
  if (!changed) return;
  resources['requests'] = current;
  container['resources'] = resources;
}

function copyFromNamespace(
  pod: JsonObject,
  namespace: string | undefined,
  defaults: PodDefaults,
  changes: string[],
): void {
  if (namespace === undefined || namespace === '') return;
  // The namespace comes from the request: `constructor` is a valid name, and no configured one.
  if (!Object.hasOwn(defaults.namespaceLabels, namespace)) return;
  const source = defaults.namespaceLabels[namespace]!;
  const metadata = isObject(pod['metadata']) ? pod['metadata'] : {};
  const labels = isObject(metadata['labels']) ? metadata['labels'] : {};
  const annotations = isObject(metadata['annotations']) ? metadata['annotations'] : {};
  const before = changes.length;
  for (const key of defaults.copyLabels) {
    const value = Object.hasOwn(source, key) ? source[key] : undefined;
    if (value === undefined || hasMember(labels, key)) continue;
    labels[key] = value;
    changes.push(`metadata.labels[${key}]`);
  }
  const labelsChanged = changes.length > before;
  for (const [annotation, labelKey] of Object.entries(defaults.copyAnnotations)) {
    const value = Object.hasOwn(source, labelKey) ? source[labelKey] : undefined;
    if (value === undefined || hasMember(annotations, annotation)) continue;
    annotations[annotation] = value;
    changes.push(`metadata.annotations[${annotation}]`);
  }
  if (changes.length === before) return;
  if (labelsChanged) metadata['labels'] = labels;
  if (Object.keys(annotations).length > 0) metadata['annotations'] = annotations;
  pod['metadata'] = metadata;
}

/** An own member that is not undefined: nothing inherited from Object.prototype counts. */
function hasMember(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key) && object[key] !== undefined;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
