/**
 * The AdmissionReview the apiserver sends us → IncomingReview, or a ReviewError that names the
 * offending field. Total: never throws, whatever the input. Fields are copied into a fresh request
 * (unknown fields dropped, JSON nulls read as "absent" like Go's decoder) and objects are passed
 * through untouched, so labels with non-string values and the like survive.
 */
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

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

const present = (v: unknown): boolean => v !== undefined && v !== null;

function optionalString(o: Obj, key: string, path: string): string | undefined {
  const v = o[key];
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
  if (present(v['groups'])) info.groups = stringList(v['groups'], `${path}.groups`);
  if (present(v['extra'])) {
    const extra = v['extra'];
    if (!isObject(extra)) fail(`${path}.extra`, `must be a map of string lists, got ${describe(extra)}`);
    const out: Record<string, string[]> = {};
    for (const [k, list] of Object.entries(extra as Obj)) {
      // Go reads a null ExtraValue as an empty list. defineProperty: a key named `__proto__` is data too.
      Object.defineProperty(out, k, {
        value: present(list) ? stringList(list, `${path}.extra[${k}]`) : [],
        enumerable: true,
        writable: true,
        configurable: true,
      });
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
  if (!present(r['kind'])) fail(`${path}.kind`, 'is required (the group, version and kind of the object)');
  if (!present(r['resource'])) fail(`${path}.resource`, 'is required (the group, version and resource being admitted)');
  const operation = r['operation'];
  if (typeof operation !== 'string' || !(OPERATIONS as readonly string[]).includes(operation)) {
    fail(
      `${path}.operation`,
      `must be one of CREATE, UPDATE, DELETE, CONNECT, got ${typeof operation === 'string' ? JSON.stringify(operation) : describe(operation)}`,
    );
  }

  const request: AdmissionRequest = {
    uid: uid as string,
    kind: decodeGvk(r['kind'], `${path}.kind`),
    resource: decodeGvr(r['resource'], `${path}.resource`),
    operation: operation as Operation,
    userInfo: decodeUserInfo(r['userInfo'], `${path}.userInfo`),
  };
  const subResource = optionalString(r, 'subResource', path);
  if (subResource !== undefined) request.subResource = subResource;
  if (present(r['requestKind'])) request.requestKind = decodeGvk(r['requestKind'], `${path}.requestKind`);
  if (present(r['requestResource']))
    request.requestResource = decodeGvr(r['requestResource'], `${path}.requestResource`);
  const requestSubResource = optionalString(r, 'requestSubResource', path);
  if (requestSubResource !== undefined) request.requestSubResource = requestSubResource;
  const name = optionalString(r, 'name', path);
  if (name !== undefined) request.name = name;
  const namespace = optionalString(r, 'namespace', path);
  if (namespace !== undefined) request.namespace = namespace;
  // Objects are raw JSON: an explicit null stays null (it means "no object" to the hooks too).
  if ('object' in r && r['object'] !== undefined) request.object = r['object'] as JsonValue;
  if ('oldObject' in r && r['oldObject'] !== undefined) request.oldObject = r['oldObject'] as JsonValue;
  if ('options' in r && r['options'] !== undefined) request.options = r['options'] as JsonValue;
  for (const key of ['object', 'oldObject', 'options'] as const) {
    const raw = r[key];
    if (present(raw) && (typeof raw !== 'object' || Array.isArray(raw)))
      fail(`${path}.${key}`, `must be a JSON object or null, got ${describe(raw)}`);
  }
  const dryRun = r['dryRun'];
  if (present(dryRun)) {
    if (typeof dryRun !== 'boolean') fail(`${path}.dryRun`, `must be a boolean, got ${describe(dryRun)}`);
    request.dryRun = dryRun as boolean;
  }
  return request;
}

/** Decodes a parsed JSON body. Never throws. */
export function decodeReview(body: unknown): Result<IncomingReview, ReviewError> {
  try {
    if (!isObject(body)) {
      return err({ message: `the request body must be a JSON object (an AdmissionReview), got ${describe(body)}` });
    }
    const apiVersion = body['apiVersion'];
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
    if (body['kind'] !== 'AdmissionReview') {
      const kind = body['kind'];
      return err({
        field: 'kind',
        message: `kind: must be "AdmissionReview", got ${typeof kind === 'string' ? JSON.stringify(kind) : describe(kind)}`,
      });
    }
    return ok({ version, request: decodeRequest(body['request']) });
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
