/**
 * The AdmissionReview the apiserver sends us → IncomingReview, or a ReviewError that names the
 * offending field. Total: never throws, whatever the input. Fields are copied into a fresh request
 * (unknown fields dropped, JSON nulls read as "absent" like Go's decoder) and objects are passed
 * through untouched, so non-string label values in a spec and the like survive. Only `metadata`,
 * `metadata.labels` and `metadata.annotations` of the objects are checked: selectors read them.
 *
 * Every member is read as an own member: a `__proto__` member (JSON.parse makes it an own data
 * member) stays data and never supplies a required field, and neither does anything inherited.
 */
import { isPlainObject as isObject, ownMember as own, setOwnMember } from '../own-members.js';
import { err, ok, type Result } from '../result.js';
import type {
  AdmissionRequest,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
  ReviewVersion,
  UserInfo,
} from '../types/review.js';
import type { JsonValue } from '../types/json.js';

export interface IncomingReview {
  /** The version received; the answer must use the same one. */
  readonly version: ReviewVersion;
  readonly request: AdmissionRequest;
}

export interface ReviewError {
  readonly message: string;
  /** JSON path of the offending member, e.g. `request.userInfo.groups[1]`. */
  readonly field?: string;
}

const API_VERSIONS: Readonly<Record<string, ReviewVersion>> = {
  'admission.k8s.io/v1': 'v1',
  'admission.k8s.io/v1beta1': 'v1beta1',
};

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

type Obj = Record<string, unknown>;

/** Thrown internally and caught in decodeReview: keeps the field walkers short. */
class Reject {
  constructor(readonly error: ReviewError) {}
}

const fail = (field: string, message: string): never => {
  throw new Reject({ field, message: `${field}: ${message}` });
};

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

const present = (v: unknown): boolean => v !== undefined && v !== null;

function optionalString(o: Obj, key: string, path: string): string | undefined {
  const v = own(o, key);
  if (!present(v)) return undefined;
  if (typeof v !== 'string') fail(`${path}.${key}`, `must be a string, got ${describe(v)}`);
  return v as string;
}

function stringList(v: unknown, path: string): string[] {
  if (!Array.isArray(v)) return fail(path, `must be a list of strings, got ${describe(v)}`);
  return v.map((item, i) =>
    typeof item === 'string' ? item : fail(`${path}[${i}]`, `must be a string, got ${describe(item)}`),
  );
}

function decodeGvk(v: unknown, path: string): GroupVersionKind {
  if (!isObject(v)) return fail(path, `must be an object {group, version, kind}, got ${describe(v)}`);
  return {
    group: optionalString(v, 'group', path) ?? '',
    version: optionalString(v, 'version', path) ?? '',
    kind: optionalString(v, 'kind', path) ?? '',
  };
}

function decodeGvr(v: unknown, path: string): GroupVersionResource {
  if (!isObject(v)) return fail(path, `must be an object {group, version, resource}, got ${describe(v)}`);
  return {
    group: optionalString(v, 'group', path) ?? '',
    version: optionalString(v, 'version', path) ?? '',
    resource: optionalString(v, 'resource', path) ?? '',
  };
}

function decodeUserInfo(v: unknown, path: string): UserInfo {
  // Go decodes a missing userInfo as the empty struct.
  if (!present(v)) return {};
  if (!isObject(v)) return fail(path, `must be an object, got ${describe(v)}`);
  const info: UserInfo = {};
  const username = optionalString(v, 'username', path);
  if (username !== undefined) info.username = username;
  const uid = optionalString(v, 'uid', path);
  if (uid !== undefined) info.uid = uid;
  const groups = own(v, 'groups');
  if (present(groups)) info.groups = stringList(groups, `${path}.groups`);
  const extra = own(v, 'extra');
  if (present(extra)) {
    if (!isObject(extra)) fail(`${path}.extra`, `must be a map of string lists, got ${describe(extra)}`);
    const out: Record<string, string[]> = {};
    for (const [k, list] of Object.entries(extra as Obj)) {
      // Go reads a null ExtraValue as an empty list. defineProperty: a key named `__proto__` is data too.
      setOwnMember(out, k, present(list) ? stringList(list, `${path}.extra[${k}]`) : []);
    }
    info.extra = out;
  }
  return info;
}

function decodeRequest(v: unknown): AdmissionRequest {
  const path = 'request';
  if (!present(v)) fail(path, 'is missing: an AdmissionReview sent for admission must carry a request');
  if (!isObject(v)) fail(path, `must be an object, got ${describe(v)}`);
  const r = v as Obj;

  const uid = optionalString(r, 'uid', path);
  if (uid === undefined || uid === '') fail(`${path}.uid`, 'is required: the answer must echo the request uid');
  const kind = own(r, 'kind');
  if (!present(kind)) fail(`${path}.kind`, 'is required (the group, version and kind of the object)');
  const resource = own(r, 'resource');
  if (!present(resource)) fail(`${path}.resource`, 'is required (the group, version and resource being admitted)');
  const operation = own(r, 'operation');
  if (typeof operation !== 'string' || !(OPERATIONS as readonly string[]).includes(operation)) {
    fail(
      `${path}.operation`,
      `must be one of CREATE, UPDATE, DELETE, CONNECT, got ${typeof operation === 'string' ? JSON.stringify(operation) : describe(operation)}`,
    );
  }

  const request: AdmissionRequest = {
    uid: uid as string,
    kind: decodeGvk(kind, `${path}.kind`),
    resource: decodeGvr(resource, `${path}.resource`),
    operation: operation as Operation,
    userInfo: decodeUserInfo(own(r, 'userInfo'), `${path}.userInfo`),
  };
  const subResource = optionalString(r, 'subResource', path);
  if (subResource !== undefined) request.subResource = subResource;
  const requestKind = own(r, 'requestKind');
  if (present(requestKind)) request.requestKind = decodeGvk(requestKind, `${path}.requestKind`);
  const requestResource = own(r, 'requestResource');
  if (present(requestResource)) request.requestResource = decodeGvr(requestResource, `${path}.requestResource`);
  const requestSubResource = optionalString(r, 'requestSubResource', path);
  if (requestSubResource !== undefined) request.requestSubResource = requestSubResource;
  const name = optionalString(r, 'name', path);
  if (name !== undefined) request.name = name;
  const namespace = optionalString(r, 'namespace', path);
  if (namespace !== undefined) request.namespace = namespace;
  for (const key of ['object', 'oldObject', 'options'] as const) {
    const raw = own(r, key);
    if (present(raw) && !isObject(raw)) fail(`${path}.${key}`, `must be a JSON object or null, got ${describe(raw)}`);
    // Objects are raw JSON: an explicit null stays null (it means "no object" to the hooks too).
    if (raw !== undefined) request[key] = raw as JsonValue;
  }
  checkMetadata(request.object, `${path}.object`);
  checkMetadata(request.oldObject, `${path}.oldObject`);
  const dryRun = own(r, 'dryRun');
  if (present(dryRun)) {
    if (typeof dryRun !== 'boolean') fail(`${path}.dryRun`, `must be a boolean, got ${describe(dryRun)}`);
    request.dryRun = dryRun as boolean;
  }
  return request;
}

/**
 * The parts of an object that selectors read: `metadata` an object, its `labels` and `annotations`
 * maps of strings (null reads as absent, as Go's unstructured accessors read it). The apiserver
 * always sends them so; anything else is a hand-made review that no selector could be evaluated on.
 */
function checkMetadata(object: JsonValue | undefined, path: string): void {
  if (!isObject(object)) return;
  const metadata = own(object, 'metadata');
  if (!present(metadata)) return;
  if (!isObject(metadata)) fail(`${path}.metadata`, `must be an object, got ${describe(metadata)}`);
  for (const key of ['labels', 'annotations'] as const) {
    const map = own(metadata as Obj, key);
    if (!present(map)) continue;
    if (!isObject(map)) fail(`${path}.metadata.${key}`, `must be a map of strings, got ${describe(map)}`);
    for (const [name, value] of Object.entries(map as Obj)) {
      if (typeof value !== 'string')
        fail(`${path}.metadata.${key}[${name}]`, `must be a string, got ${describe(value)}`);
    }
  }
}

/** Decodes a parsed JSON body. Never throws. */
export function decodeReview(body: unknown): Result<IncomingReview, ReviewError> {
  try {
    if (!isObject(body)) {
      return err({ message: `the request body must be a JSON object (an AdmissionReview), got ${describe(body)}` });
    }
    const apiVersion = own(body, 'apiVersion');
    if (!present(apiVersion) || apiVersion === '') {
      return err({
        field: 'apiVersion',
        message: 'apiVersion: is missing: expected admission.k8s.io/v1 or admission.k8s.io/v1beta1',
      });
    }
    const version = typeof apiVersion === 'string' ? API_VERSIONS[apiVersion] : undefined;
    if (version === undefined) {
      return err({
        field: 'apiVersion',
        message: `apiVersion: unsupported ${typeof apiVersion === 'string' ? JSON.stringify(apiVersion) : describe(apiVersion)}: expected admission.k8s.io/v1 or admission.k8s.io/v1beta1`,
      });
    }
    const kind = own(body, 'kind');
    if (kind !== 'AdmissionReview') {
      return err({
        field: 'kind',
        message: `kind: must be "AdmissionReview", got ${typeof kind === 'string' ? JSON.stringify(kind) : describe(kind)}`,
      });
    }
    return ok({ version, request: decodeRequest(own(body, 'request')) });
  } catch (e) {
    if (e instanceof Reject) return err(e.error);
    // Exotic inputs (getters that throw, proxies): still an answer, never an exception.
    return err({ message: `the request body could not be read as an AdmissionReview: ${String(e)}` });
  }
}

/** Parses and decodes a raw body. Never throws. */
export function decodeReviewText(text: string): Result<IncomingReview, ReviewError> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return err({ message: `the request body is not valid JSON: ${reason}` });
  }
  return decodeReview(body);
}
