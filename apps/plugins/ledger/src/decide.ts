/**
 * The ledger's decisions, pure (the Redis side is in store.ts and lua/):
 *   - at admission, which unique values an object claims and which it gives up (planAdmission);
 *   - at reconciliation, what to do with one side effect given the outcome (planReconcile).
 *
 * A ledger reserves the value of one annotation (say `ledger.hookgate.dev/hostname`) so that no two
 * objects carry the same value, cluster-wide or per namespace. Claims happen at admission (a Redis
 * write, the out-of-band change); whether they stick is decided later, by Reconcile, once the
 * gateway's controller knows whether the object was persisted.
 */
import type { JsonValue } from '@hookgate/admission';

export interface KindPattern {
  group: string;
  kind: string;
}

export interface LedgerSpec {
  /** Names the ledger in keys and messages, e.g. `hostnames`. */
  name: string;
  kinds: KindPattern[];
  /** The annotation whose value is reserved. */
  annotation: string;
  /** Cluster: one owner per value in the cluster. Namespace: one per value in each namespace. */
  scope: 'Cluster' | 'Namespace';
  /** Compare values case-insensitively (hostnames). */
  lowercase: boolean;
}

export interface LedgerConfig {
  /** Prefix of every Redis key the plugin writes. */
  keyPrefix: string;
  ledgers: LedgerSpec[];
}

/** One value in one ledger. `key` is the logical key, without the Redis prefix: it is the side effect's key. */
export interface Claim {
  ledger: string;
  annotation: string;
  value: string;
  key: string;
}

export interface AdmissionPlan {
  /** Who owns the claims: `group/Kind/namespace/name`, or `generated:<token>` while a generateName object has no name. */
  owner: string;
  /** Values to reserve now (new on CREATE, changed on UPDATE). */
  claims: Claim[];
  /** Values given up (changed on UPDATE, all on DELETE): released by Reconcile once the change is persisted. */
  releases: Claim[];
}

export interface LedgerRequest {
  /** The uid of this call: the token that marks this admission's claims. */
  uid: string;
  operation: string;
  kind: { group: string; kind: string };
  subResource?: string;
  namespace?: string;
  name?: string;
  object?: JsonValue;
  oldObject?: JsonValue;
}

export const SIDE_EFFECT_RESERVATION = 'reservation';
export const SIDE_EFFECT_RELEASE = 'release';

/** What the object claims and gives up. Values that did not change on UPDATE are neither: they are already held. */
export function planAdmission(request: LedgerRequest, config: LedgerConfig): AdmissionPlan {
  const owner = ownerOf(request);
  const empty: AdmissionPlan = { owner, claims: [], releases: [] };
  if (request.subResource) return empty;
  const ledgers = config.ledgers.filter((l) => l.kinds.some((k) => matchesKind(k, request.kind)));
  if (ledgers.length === 0) return empty;
  const namespace = request.namespace ?? '';
  const claimsOf = (object: JsonValue | undefined): Claim[] =>
    ledgers.flatMap((ledger) => {
      const value = readValue(object, ledger);
      return value === undefined
        ? []
        : [{ ledger: ledger.name, annotation: ledger.annotation, value, key: logicalKey(ledger, namespace, value) }];
    });
  switch (request.operation) {
    case 'CREATE':
      return { owner, claims: claimsOf(request.object), releases: [] };
    case 'UPDATE': {
      const before = claimsOf(request.oldObject);
      const after = claimsOf(request.object);
      return {
        owner,
        claims: after.filter((c) => !before.some((b) => b.key === c.key)),
        releases: before.filter((b) => !after.some((c) => c.key === b.key)),
      };
    }
    case 'DELETE':
      return { owner, claims: [], releases: claimsOf(request.oldObject) };
    default:
      return empty;
  }
}

export function matchesKind(pattern: KindPattern, kind: { group: string; kind: string }): boolean {
  return (
    (pattern.group === '*' || pattern.group === kind.group) && (pattern.kind === '*' || pattern.kind === kind.kind)
  );
}

/** `hostnames/shop.example.com` (Cluster scope) or `quota-slots/payments/slot-1` (Namespace scope). */
export function logicalKey(ledger: LedgerSpec, namespace: string, value: string): string {
  return ledger.scope === 'Cluster' ? `${ledger.name}/${value}` : `${ledger.name}/${namespace || '_cluster'}/${value}`;
}

export function ownerOf(request: Pick<LedgerRequest, 'uid' | 'kind' | 'namespace' | 'name' | 'object'>): string {
  const name = request.name || objectName(request.object);
  return name ? objectIdentity(request.kind, request.namespace ?? '', name) : `generated:${request.uid}`;
}

export function objectIdentity(kind: { group: string; kind: string }, namespace: string, name: string): string {
  return `${kind.group}/${kind.kind}/${namespace}/${name}`;
}

/** `Ingress shop/web` for messages; `<namespace>/<name>` is shown only to a requester in the same namespace. */
export function describeOwner(owner: string, requesterNamespace: string): string {
  if (owner.startsWith('generated:')) return 'an object being created';
  const [, kind, namespace, name] = owner.split('/');
  if (kind === undefined || namespace === undefined || name === undefined) return 'another object';
  if (namespace === '') return `${kind} ${name}`;
  return namespace === requesterNamespace
    ? `${kind} ${namespace}/${name}`
    : `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind} in another namespace`;
}

/** The ledger's value in an object: the annotation, trimmed (and lowercased when configured); absent or empty is no value. */
export function readValue(
  object: JsonValue | undefined,
  ledger: Pick<LedgerSpec, 'annotation' | 'lowercase'>,
): string | undefined {
  const metadata = isMap(object) ? object['metadata'] : undefined;
  const annotations = isMap(metadata) ? metadata['annotations'] : undefined;
  const raw = isMap(annotations) ? annotations[ledger.annotation] : undefined;
  if (typeof raw !== 'string') return undefined;
  const value = ledger.lowercase ? raw.trim().toLowerCase() : raw.trim();
  return value === '' ? undefined : value;
}

export function describeConflict(request: LedgerRequest, claim: Claim, holder: string): string {
  const name = request.name || objectName(request.object) || '<generated>';
  const where = request.namespace ? `${request.namespace}/${name}` : name;
  return (
    `${request.kind.kind} ${JSON.stringify(where)}: ${JSON.stringify(claim.value)} (annotation ${claim.annotation}) ` +
    `is already reserved in ledger ${JSON.stringify(claim.ledger)} by ${describeOwner(holder, request.namespace ?? '')}; choose another value`
  );
}

/** Payloads travel with the side effects, so that Reconcile needs nothing but the side effect itself. */
export interface ReservationPayload {
  token: string;
  owner: string;
  group: string;
  kind: string;
  namespace: string;
  annotation: string;
  value: string;
  lowercase: boolean;
  /** The object's uid in the admission request, when it had one (recorded when PERSISTED, for resync). */
  uid?: string;
}

export interface ReleasePayload {
  owner: string;
  annotation: string;
  value: string;
  lowercase: boolean;
}

export type ReconcileOutcome = 'PERSISTED' | 'NOT_PERSISTED' | 'UNKNOWN';

export type ReconcileStep =
  /** PERSISTED reservation: confirm it (and restore it if it vanished while the object carries the value). */
  | { action: 'confirm'; token: string; identity: string | undefined; restore: boolean }
  /** NOT_PERSISTED reservation: drop this admission's claim; the key goes when no admission holds it. */
  | { action: 'release-claim'; token: string }
  /** PERSISTED release: the object no longer carries the value; delete the key if it is still the owner's. */
  | { action: 'release-owned'; owner: string }
  | { action: 'retry'; reason: string; retryAfterMs: number }
  | { action: 'done'; reason: string };

export const RETRY_UNKNOWN_MS = 30_000;
export const RETRY_TERMINATING_MS = 15_000;

export function planReconcile(
  sideEffectKind: string,
  payload: ReservationPayload | ReleasePayload,
  outcome: ReconcileOutcome,
  current: JsonValue | undefined,
): ReconcileStep {
  if (outcome === 'UNKNOWN') {
    // Neither keep nor undo on a guess: the reservation stays (blocking duplicates) until the outcome is known.
    return { action: 'retry', reason: 'the outcome of the admission is not known yet', retryAfterMs: RETRY_UNKNOWN_MS };
  }
  const carriesValue = readValue(current, payload) === payload.value;
  if (sideEffectKind === SIDE_EFFECT_RESERVATION) {
    const reservation = payload as ReservationPayload;
    if (outcome === 'NOT_PERSISTED') return { action: 'release-claim', token: reservation.token };
    const name = objectName(current);
    const identity = name ? objectIdentity(reservation, reservation.namespace, name) : undefined;
    return { action: 'confirm', token: reservation.token, identity, restore: carriesValue };
  }
  if (sideEffectKind === SIDE_EFFECT_RELEASE) {
    if (outcome === 'NOT_PERSISTED')
      return { action: 'done', reason: 'the change was not persisted: the object keeps its value' };
    if (isTerminating(current))
      return {
        action: 'retry',
        reason: 'the object is being deleted (finalizers pending)',
        retryAfterMs: RETRY_TERMINATING_MS,
      };
    if (carriesValue) return { action: 'done', reason: 'the object carries the value again: the reservation stays' };
    return { action: 'release-owned', owner: payload.owner };
  }
  return { action: 'done', reason: `unknown side effect kind ${JSON.stringify(sideEffectKind)}: nothing to do` };
}

function isTerminating(object: JsonValue | undefined): boolean {
  const metadata = isMap(object) ? object['metadata'] : undefined;
  return isMap(metadata) && typeof metadata['deletionTimestamp'] === 'string';
}

function objectName(object: JsonValue | undefined): string | undefined {
  const metadata = isMap(object) ? object['metadata'] : undefined;
  const name = isMap(metadata) ? metadata['name'] : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function isMap(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
