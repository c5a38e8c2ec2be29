/**
 * The request `hookgate review` sends through the hooks: an AdmissionReview as-is, or a manifest
 * turned into the request the apiserver would build for it (resource from the kind's plural, the
 * manifest's namespace, a fresh uid; for UPDATE the stored object given with --old).
 */
import { randomUUID } from 'node:crypto';
import {
  decodeReview,
  REVIEW_API_VERSION,
  type AdmissionRequest,
  type JsonValue,
  type Operation,
} from '@hookgate/admission';
import { parseAllDocuments } from 'yaml';

export interface ManifestOptions {
  readonly operation: string;
  /** UPDATE: the object as stored (oldObject); the manifest is the object as sent. */
  readonly old?: unknown;
  readonly resource?: string;
  readonly namespace?: string;
  /** A cluster-scoped kind the built-in table does not know (a custom resource). */
  readonly clusterScoped?: boolean;
  readonly user: string;
  readonly dryRun?: boolean;
}

export type ReviewInput =
  { ok: true; request: AdmissionRequest; from: 'review' | 'manifest' } | { ok: false; error: string };

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** Cluster-scoped kinds of the built-in API: everything else is namespaced ("default" unless given). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'StorageClass',
  'PriorityClass',
  'CustomResourceDefinition',
  'APIService',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'RuntimeClass',
  'IngressClass',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'CertificateSigningRequest',
  'FlowSchema',
  'PriorityLevelConfiguration',
]);

/** The first document of `text` (YAML or JSON) as a request. */
export function readReviewInput(text: string, options: ManifestOptions): ReviewInput {
  let doc: unknown;
  try {
    const docs = parseAllDocuments(text);
    const first = Array.isArray(docs) ? docs[0] : docs;
    if (first === undefined) return { ok: false, error: 'the file holds no document' };
    if (first.errors.length > 0) return { ok: false, error: `not valid YAML or JSON: ${first.errors[0]?.message}` };
    doc = first.toJS();
  } catch (e) {
    return { ok: false, error: `not valid YAML or JSON: ${(e as Error).message}` };
  }
  return reviewRequestOf(doc, options);
}

/** One parsed document (an AdmissionReview or a manifest) as a request. */
export function reviewRequestOf(doc: unknown, options: ManifestOptions): ReviewInput {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    return { ok: false, error: 'expected an object with apiVersion and kind' };
  const obj = doc as Record<string, JsonValue>;
  if (obj['kind'] === 'AdmissionReview') {
    if (options.old !== undefined)
      return { ok: false, error: '--old is for manifests: an AdmissionReview carries its own oldObject' };
    const decoded = decodeReview(obj);
    return decoded.ok
      ? { ok: true, request: decoded.value.request, from: 'review' }
      : { ok: false, error: decoded.error.message };
  }
  return fromManifest(obj, options);
}

function fromManifest(obj: Record<string, JsonValue>, options: ManifestOptions): ReviewInput {
  const apiVersion = obj['apiVersion'];
  const kind = obj['kind'];
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind === '')
    return { ok: false, error: 'a manifest needs apiVersion and kind' };
  const operation = options.operation.toUpperCase() as Operation;
  if (!OPERATIONS.includes(operation))
    return { ok: false, error: `--operation must be one of ${OPERATIONS.join(', ')}` };
  if (operation === 'UPDATE' && options.old === undefined)
    return { ok: false, error: 'UPDATE needs the object as stored: give it with --old FILE' };
  if (options.old !== undefined && operation !== 'UPDATE')
    return { ok: false, error: `--old is for UPDATE, not ${operation}` };
  if (options.old !== undefined && !isObjectOfKind(options.old, apiVersion, kind))
    return { ok: false, error: `--old must be a ${kind} of ${apiVersion} too` };
  const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/', 2) as [string, string]) : ['', apiVersion];
  const metadata = (typeof obj['metadata'] === 'object' && obj['metadata'] !== null ? obj['metadata'] : {}) as Record<
    string,
    JsonValue
  >;
  const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
  const namespace =
    CLUSTER_SCOPED.has(kind) || options.clusterScoped === true
      ? kind === 'Namespace' && operation !== 'CREATE'
        ? name
        : ''
      : typeof metadata['namespace'] === 'string'
        ? metadata['namespace']
        : (options.namespace ?? 'default');
  const gvk = { group, version, kind };
  const gvr = { group, version, resource: options.resource ?? pluralOf(kind) };
  // Through the gateway's own decoder, so a manifest gets the same checks as a review (a metadata
  // that is not an object, labels or annotations that are not maps of strings) and the same errors.
  const decoded = decodeReview({
    apiVersion: REVIEW_API_VERSION.v1,
    kind: 'AdmissionReview',
    request: {
      uid: randomUUID(),
      kind: gvk,
      resource: gvr,
      requestKind: gvk,
      requestResource: gvr,
      name,
      namespace,
      operation,
      userInfo: { username: options.user, groups: ['system:authenticated'] },
      object: operation === 'DELETE' ? null : obj,
      // The apiserver sends the stored object as oldObject: on DELETE that is the manifest itself.
      oldObject: operation === 'UPDATE' ? (options.old as JsonValue) : operation === 'DELETE' ? obj : null,
      dryRun: options.dryRun === true,
      options: null,
    },
  });
  return decoded.ok
    ? { ok: true, request: decoded.value.request, from: 'manifest' }
    : { ok: false, error: decoded.error.message };
}

function isObjectOfKind(value: unknown, apiVersion: string, kind: string): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return v['apiVersion'] === apiVersion && v['kind'] === kind;
}

/** The resource name the API uses for most kinds: lower case, English plural. */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith('endpoints')) return lower;
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}
