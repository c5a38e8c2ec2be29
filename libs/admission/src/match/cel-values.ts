/**
 * JSON → CEL values for match conditions (k8s-semantics §9).
 * Kubernetes decodes JSON integers as int64, so `object.spec.replicas + 1` is int arithmetic there;
 * here every integral number in int64 range becomes a BigInt (cel-js's int). Other numbers stay
 * doubles. Conversion runs once per object (cached by identity), not once per expression.
 * Gap: a JSON integer beyond 2^53 has already lost precision in JSON.parse.
 */
import type { AdmissionRequest } from '../types/review.js';
import type { JsonValue } from '../types/json.js';
import type { CelActivation } from '../types/hook.js';

const INT64_MIN = -(2 ** 63);
const INT64_LIMIT = 2 ** 63;

const converted = new WeakMap<object, unknown>();

/** Objects get a null prototype so keys such as `__proto__` or `constructor` stay plain map keys. */
function convert(value: JsonValue): unknown {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= INT64_MIN && value < INT64_LIMIT ? BigInt(value) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(convert);
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) out[key] = convert(value[key]!);
  return out;
}

/** The CEL value of a JSON document; cached per object so several expressions share one conversion. */
export function toCelValue(value: JsonValue | undefined): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') return convert(value);
  const hit = converted.get(value);
  if (hit !== undefined) return hit;
  const result = convert(value);
  converted.set(value, result);
  return result;
}

/** The request stanza without object/oldObject, as CreateAdmissionRequest builds it (uid left empty). */
export function buildCelRequest(request: AdmissionRequest): CelActivation['request'] {
  const { object: _object, oldObject: _oldObject, ...rest } = request;
  return { ...rest, uid: '' };
}

/** The JSON → CEL shape of `request`: typed fields, omitempty ones absent when empty. */
export function toCelRequest(request: CelActivation['request']): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: gvk(request.kind),
    resource: gvr(request.resource),
    requestKind: gvk(request.requestKind ?? request.kind),
    requestResource: gvr(request.requestResource ?? request.resource),
    operation: request.operation,
    userInfo: userInfo(request.userInfo),
    dryRun: request.dryRun === true,
    options: toCelValue(request.options ?? null),
  };
  const subResource = request.subResource ?? '';
  const requestSubResource = request.requestSubResource ?? subResource;
  if (subResource !== '') out['subResource'] = subResource;
  if (requestSubResource !== '') out['requestSubResource'] = requestSubResource;
  if (request.name) out['name'] = request.name;
  if (request.namespace) out['namespace'] = request.namespace;
  return out;
}

const gvk = (k: AdmissionRequest['kind']): Record<string, string> => ({
  group: k.group ?? '',
  version: k.version ?? '',
  kind: k.kind ?? '',
});

const gvr = (r: AdmissionRequest['resource']): Record<string, string> => ({
  group: r.group ?? '',
  version: r.version ?? '',
  resource: r.resource ?? '',
});

function userInfo(u: AdmissionRequest['userInfo'] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (u?.username) out['username'] = u.username;
  if (u?.uid) out['uid'] = u.uid;
  if (u?.groups && u.groups.length > 0) out['groups'] = [...u.groups];
  if (u?.extra && Object.keys(u.extra).length > 0) {
    const extra: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
    for (const [k, v] of Object.entries(u.extra)) extra[k] = [...v];
    out['extra'] = extra;
  }
  return out;
}
