/**
 * Strict validation of Kubernetes manifests against the Kubernetes API schemas, offline, as
 * `kubectl apply --validate=strict` would judge them:
 *
 * - the JSON schemas of kubernetes-models (generated from the Kubernetes OpenAPI document, checked
 *   by ajv): types, required fields, enums, formats (int-or-string, quantities);
 * - unknown fields, which those schemas let through, against the field lists of
 *   @kubernetes/client-node's models (generated from the same OpenAPI document by the Kubernetes
 *   client project): any field the typed decode would drop is an error, with its path.
 *
 * (kubeconform and the strict JSON schemas it uses are not in the npm registry or Debian.)
 * A kind neither knows is an error too: nothing passes unchecked.
 */
import * as k8s from '@kubernetes/client-node';

export interface ManifestObject {
  readonly apiVersion?: unknown;
  readonly kind?: unknown;
  readonly metadata?: { readonly name?: unknown };
  readonly [field: string]: unknown;
}

/** Every problem of one object, as `<Kind>/<name>: <path>: <message>` lines; [] when valid. */
export async function validateManifest(object: ManifestObject): Promise<string[]> {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const kind = typeof object.kind === 'string' ? object.kind : '';
  const name = typeof object.metadata?.name === 'string' ? object.metadata.name : '(no name)';
  const prefix = `${kind || '(no kind)'}/${name}`;
  if (apiVersion === '' || kind === '') return [`${prefix}: apiVersion and kind are required`];
  const schema = await schemaProblems(apiVersion, kind, object);
  const model = modelName(apiVersion, kind);
  const strict =
    modelOf(model) === undefined ? [`no Kubernetes model for ${apiVersion} ${kind}`] : unknownFields(object, model);
  return [...schema, ...strict].map((problem) => `${prefix}: ${problem}`);
}

async function schemaProblems(apiVersion: string, kind: string, object: ManifestObject): Promise<string[]> {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const modulePath =
    group === '' ? `kubernetes-models/${version}/${kind}` : `kubernetes-models/${group}/${version}/${kind}`;
  let Model: (new (data: unknown) => { validate(): void }) | undefined;
  try {
    const module = (await import(modulePath)) as Record<string, new (data: unknown) => { validate(): void }>;
    Model = module[kind];
  } catch {
    Model = undefined;
  }
  if (Model === undefined) return [`no Kubernetes schema for ${apiVersion} ${kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    // ajv's text: "data/spec/hostNetwork must be boolean, data/spec/... must be ..."
    return (error as Error).message.split(', ').map((line) => line.replace(/^data/, ''));
  }
}

/** client-node's model class name: V1Pod, V1Deployment, V1MutatingWebhookConfiguration, V2HorizontalPodAutoscaler. */
function modelName(apiVersion: string, kind: string): string {
  const version = apiVersion.split('/').at(-1) ?? '';
  return `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
}

interface Attribute {
  readonly baseName: string;
  readonly type: string;
}
type ModelClass = { getAttributeTypeMap(): Attribute[] };

const MAP_TYPE = /^\{ \[key: string\]: (.+); \}$/;
const ARRAY_TYPE = /^Array<(.+)>$/;

/** Fields the model of `type` does not have, at any depth, with their JSON paths. */
function unknownFields(value: unknown, type: string, path = ''): string[] {
  if (value === null || value === undefined || typeof value !== 'object') return [];
  const array = ARRAY_TYPE.exec(type);
  if (array) {
    return Array.isArray(value) ? value.flatMap((item, i) => unknownFields(item, array[1] ?? '', `${path}/${i}`)) : [];
  }
  const map = MAP_TYPE.exec(type);
  if (map) {
    return Object.entries(value).flatMap(([key, item]) => unknownFields(item, map[1] ?? '', `${path}/${key}`));
  }
  const model = modelOf(type);
  // Primitives, IntOrString, Date and free-form objects (RawExtension, JSON) have no field list.
  if (model === undefined) return [];
  const fields = new Map(model.getAttributeTypeMap().map((a) => [a.baseName, a.type]));
  return Object.entries(value).flatMap(([key, item]) => {
    const fieldType = fields.get(key);
    if (fieldType === undefined) return [`${path || '/'}: unknown field "${key}" in ${type}`];
    return unknownFields(item, fieldType, `${path}/${key}`);
  });
}

function modelOf(type: string): ModelClass | undefined {
  const model = (k8s as unknown as Record<string, ModelClass | undefined>)[type];
  return typeof model?.getAttributeTypeMap === 'function' ? model : undefined;
}
