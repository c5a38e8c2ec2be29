/**
 * The hooks under test, written once and served two ways: as SDK plugins behind the gateway and
 * as plain AdmissionReview webhooks (the baseline). Each hook is a no-op or a realistic one.
 * Realistic mutations change the hook's own copy of the object in place (the patch is computed
 * by diffing, as the SDK does); realistic validations return a denial message or undefined.
 */

export type HookProfile = 'noop' | 'realistic';
export type HookPhase = 'mutating' | 'validating';

/** Decoded JSON: the hooks only read and write plain fields. */
export type JsonObject = Record<string, unknown>;

export type Mutation = (object: JsonObject) => void;
export type Validation = (object: JsonObject) => string | undefined;

export interface BenchHook {
  readonly name: string;
  readonly phase: HookPhase;
  readonly profile: HookProfile;
  /** Undefined for a no-op mutating hook (it answers without a patch, without diffing). */
  readonly mutate?: Mutation;
  readonly validate?: Validation;
}

/** The webhook name, as in `webhooks[].name` and the plugin's hook table. */
export function hookName(profile: HookProfile, phase: HookPhase, index: number): string {
  return `${profile}.${phase === 'mutating' ? 'm' : 'v'}${index}.bench.hookgate.dev`;
}

/** One plugin (and one baseline webhook process) per hook index and phase, serving both profiles. */
export function pluginName(phase: HookPhase, index: number): string {
  return `bench-${phase === 'mutating' ? 'm' : 'v'}${index}`;
}

export function benchHook(profile: HookProfile, phase: HookPhase, index: number): BenchHook {
  const name = hookName(profile, phase, index);
  if (phase === 'mutating')
    return profile === 'noop'
      ? { name, phase, profile }
      : { name, phase, profile, mutate: MUTATIONS[index % MUTATIONS.length]! };
  // Undefined for a no-op validating hook: it allows without looking at the object.
  return profile === 'noop'
    ? { name, phase, profile }
    : { name, phase, profile, validate: VALIDATIONS[index % VALIDATIONS.length]! };
}

/** One hook index of one phase: `m0`, `v2`. */
export interface HookSlot {
  readonly phase: HookPhase;
  readonly index: number;
}

export const slotName = (slot: HookSlot): string => `${slot.phase === 'mutating' ? 'm' : 'v'}${slot.index}`;

/** `m0,m1,v0` → slots; undefined when any item is not `m<N>` or `v<N>`. */
export function parseSlots(text: string): HookSlot[] | undefined {
  const slots: HookSlot[] = [];
  for (const item of text.split(',')) {
    const match = /^([mv])(\d+)$/.exec(item.trim());
    if (match === null) return undefined;
    slots.push({ phase: match[1] === 'm' ? 'mutating' : 'validating', index: Number(match[2]) });
  }
  return slots.length > 0 ? slots : undefined;
}

const MUTATIONS: readonly Mutation[] = [addOwnershipLabels, defaultContainerSettings, defaultSecurityContext];
const VALIDATIONS: readonly Validation[] = [requireLabels, requirePinnedImages, requireLimitsAndNoPrivilege];

function metadataOf(object: JsonObject): JsonObject {
  object['metadata'] ??= {};
  return object['metadata'] as JsonObject;
}

function mapAt(parent: JsonObject, key: string): Record<string, string> {
  parent[key] ??= {};
  return parent[key] as Record<string, string>;
}

function containersOf(object: JsonObject): JsonObject[] {
  const spec = (object['spec'] ?? {}) as JsonObject;
  return [
    ...((spec['initContainers'] as JsonObject[] | undefined) ?? []),
    ...((spec['containers'] as JsonObject[] | undefined) ?? []),
  ];
}

function addOwnershipLabels(object: JsonObject): void {
  const metadata = metadataOf(object);
  const labels = mapAt(metadata, 'labels');
  labels['app.kubernetes.io/managed-by'] ??= 'hookgate-bench';
  labels['hookgate.dev/admitted'] ??= 'true';
  mapAt(metadata, 'annotations')['shop.example.com/cost-center'] ??= 'cc-1234';
}

function defaultContainerSettings(object: JsonObject): void {
  for (const container of containersOf(object)) {
    container['imagePullPolicy'] ??= 'IfNotPresent';
    const resources = (container['resources'] ??= {}) as JsonObject;
    const requests = mapAt(resources, 'requests');
    requests['cpu'] ??= '50m';
    requests['memory'] ??= '64Mi';
    requests['ephemeral-storage'] ??= '100Mi';
  }
}

function defaultSecurityContext(object: JsonObject): void {
  const spec = (object['spec'] ??= {}) as JsonObject;
  const pod = (spec['securityContext'] ??= {}) as JsonObject;
  pod['runAsNonRoot'] ??= true;
  pod['seccompProfile'] ??= { type: 'RuntimeDefault' };
  for (const container of containersOf(object)) {
    const security = (container['securityContext'] ??= {}) as JsonObject;
    security['allowPrivilegeEscalation'] ??= false;
  }
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const REQUIRED_LABELS = ['app', 'team', 'app.kubernetes.io/name'];

function requireLabels(object: JsonObject): string | undefined {
  const labels = (metadataOf(object)['labels'] ?? {}) as Record<string, unknown>;
  const missing = REQUIRED_LABELS.filter((key) => typeof labels[key] !== 'string' || labels[key] === '');
  if (missing.length > 0) return `missing required labels: ${missing.join(', ')}`;
  const invalid = Object.entries(labels).filter(
    ([, value]) => typeof value !== 'string' || value.length > 63 || !LABEL_VALUE.test(value),
  );
  return invalid.length > 0 ? `invalid label values for: ${invalid.map(([key]) => key).join(', ')}` : undefined;
}

const ALLOWED_REGISTRIES = ['registry.example.com/', 'mirror.example.com/'];

function requirePinnedImages(object: JsonObject): string | undefined {
  for (const container of containersOf(object)) {
    const image = String(container['image'] ?? '');
    if (!ALLOWED_REGISTRIES.some((registry) => image.startsWith(registry)))
      return `container ${String(container['name'])}: image from a registry that is not allowed`;
    const digest = image.includes('@sha256:');
    const tag = image.slice(image.lastIndexOf('/') + 1).split(':')[1];
    if (!digest && (tag === undefined || tag === 'latest'))
      return `container ${String(container['name'])}: pin the image to a version or digest`;
  }
  return undefined;
}

function requireLimitsAndNoPrivilege(object: JsonObject): string | undefined {
  const spec = (object['spec'] ?? {}) as JsonObject;
  if (spec['hostNetwork'] === true || spec['hostPID'] === true) return 'host namespaces are not allowed';
  for (const volume of (spec['volumes'] as JsonObject[] | undefined) ?? [])
    if (volume['hostPath'] !== undefined) return `volume ${String(volume['name'])}: hostPath is not allowed`;
  for (const container of containersOf(object)) {
    const limits = ((container['resources'] as JsonObject | undefined)?.['limits'] ?? {}) as JsonObject;
    if (limits['cpu'] === undefined || limits['memory'] === undefined)
      return `container ${String(container['name'])}: set cpu and memory limits`;
    if ((container['securityContext'] as JsonObject | undefined)?.['privileged'] === true)
      return `container ${String(container['name'])}: privileged containers are not allowed`;
  }
  return undefined;
}
