/**
 * The ledger as a Hookgate plugin: a validating hook that claims unique values in Redis and reports
 * each claim as a side effect, and the Reconcile handler that settles them.
 *
 * Validating rather than mutating: validating hooks run after every mutation, so the value claimed
 * is the one that will be persisted, and a claim is made once per request (no reinvocation).
 */
import {
  definePlugin,
  type HeldEffectsPage,
  type HookRequest,
  type ListHeldRequest,
  type OrphanRequest,
  type Plugin,
  type ReconcileRequest,
  type ReconcileResult,
  type ValidateResult,
} from '@hookgate/plugin-sdk';
import type { JsonValue } from '@hookgate/admission';
import {
  SIDE_EFFECT_RELEASE,
  SIDE_EFFECT_RESERVATION,
  describeConflict,
  planAdmission,
  planReconcile,
  type LedgerConfig,
  type LedgerRequest,
  type ReleasePayload,
  type ReservationPayload,
} from './decide.js';
import type { LedgerStore, OrphanResult, ReleaseResult, SettleResult } from './store.js';

export const PLUGIN_NAME = 'ledger';
export const DEFAULT_HOOK = 'ledger.hookgate.dev';
/** A release blocked by an admission in flight is retried after this delay. */
export const RETRY_BUSY_MS = 5_000;

export interface LedgerPluginOptions {
  config: LedgerConfig;
  store: LedgerStore;
  /** The webhook name in the gateway's configuration. */
  hook?: string;
}

export function buildLedgerPlugin({ config, store, hook = DEFAULT_HOOK }: LedgerPluginOptions): Plugin {
  return definePlugin({
    name: PLUGIN_NAME,
    hooks: {
      [hook]: { phase: 'validating', validate: (request: HookRequest) => admitToLedger(request, config, store) },
    },
    reconcile: (request: ReconcileRequest) => reconcileSideEffect(request, store),
    resync: {
      list: (request: ListHeldRequest) => listReservations(request, store, hook),
      reconcileOrphan: (request: OrphanRequest) => releaseOrphan(request, store),
    },
  });
}

/** What resync hands back: the owner and the version listed, so orphan.lua changes nothing newer. */
interface OrphanPayload {
  owner: string;
  touchedAt: string;
}

/** One SCAN step per page: the page token is the SCAN cursor (a page may be empty; '0' ends it). */
export async function listReservations(
  request: ListHeldRequest,
  store: LedgerStore,
  hook: string,
): Promise<HeldEffectsPage> {
  const { cursor, held } = await store.listHeld(request.pageToken, request.pageSize);
  return {
    effects: held.map((h) => ({
      hook,
      sideEffect: {
        kind: SIDE_EFFECT_RESERVATION,
        key: h.key,
        payload: { owner: h.owner, touchedAt: h.touchedAt } satisfies OrphanPayload,
      },
      object: { ...h.ref, ...(h.uid === undefined ? {} : { uid: h.uid }) },
      sinceMs: Number(h.touchedAt),
    })),
    nextPageToken: cursor === '0' ? '' : cursor,
  };
}

/** Idempotent: a second call finds the key absent; a key claimed again since the listing is kept. */
export async function releaseOrphan(request: OrphanRequest, store: LedgerStore): Promise<ReconcileResult> {
  const { key, payload } = request.held.sideEffect;
  let parsed: Partial<OrphanPayload> = {};
  try {
    parsed = JSON.parse(payload.toString('utf8')) as Partial<OrphanPayload>;
  } catch {
    // handled below
  }
  if (typeof parsed.owner !== 'string' || typeof parsed.touchedAt !== 'string') {
    return { done: true, message: `ledger: orphan ${JSON.stringify(key)} has no readable payload; nothing done` };
  }
  const result = await store.releaseOrphan(key, parsed.owner, parsed.touchedAt);
  return { done: true, message: `ledger: ${key}: ${ORPHAN_MESSAGES[result]} (object ${request.reason})` };
}

const ORPHAN_MESSAGES: Record<OrphanResult, string> = {
  released: 'reservation released: its object is gone',
  changed: 'claimed again since it was listed; kept',
  'not-owner': 'another object holds the value now; nothing changed',
  absent: 'already released',
};

export async function admitToLedger(
  request: HookRequest,
  config: LedgerConfig,
  store: LedgerStore,
): Promise<ValidateResult> {
  const view: LedgerRequest = {
    uid: request.uid,
    operation: request.operation,
    kind: request.kind,
    subResource: request.subResource,
    namespace: request.namespace,
    name: request.name,
    object: request.object as JsonValue | undefined,
    oldObject: request.oldObject as JsonValue | undefined,
  };
  const plan = planAdmission(view, config);
  const byKey = new Map(config.ledgers.map((l) => [l.name, l]));

  if (plan.claims.length > 0) {
    // dryRun: check for duplicates, write nothing (sideEffects: NoneOnDryRun).
    const result = await store.claim(
      plan.claims.map((c) => c.key),
      plan.owner,
      request.uid,
      request.dryRun,
      { ...request.resource, namespace: request.namespace, name: request.name },
    );
    if (!result.ok) {
      const claim = plan.claims[result.index]!;
      return { allowed: false, code: 409, reason: 'Conflict', message: describeConflict(view, claim, result.holder) };
    }
  }
  if (request.dryRun) return { allowed: true };

  for (const claim of plan.claims) {
    const payload: ReservationPayload = {
      token: request.uid,
      owner: plan.owner,
      group: request.kind.group,
      kind: request.kind.kind,
      namespace: request.namespace,
      annotation: claim.annotation,
      value: claim.value,
      lowercase: byKey.get(claim.ledger)?.lowercase ?? false,
      ...(typeof request.object?.metadata?.uid === 'string' ? { uid: request.object.metadata.uid } : {}),
    };
    request.reportSideEffect(SIDE_EFFECT_RESERVATION, claim.key, payload as unknown as JsonValue);
  }
  for (const release of plan.releases) {
    const payload: ReleasePayload = {
      owner: plan.owner,
      annotation: release.annotation,
      value: release.value,
      lowercase: byKey.get(release.ledger)?.lowercase ?? false,
    };
    request.reportSideEffect(SIDE_EFFECT_RELEASE, release.key, payload as unknown as JsonValue);
  }
  return { allowed: true };
}

export async function reconcileSideEffect(request: ReconcileRequest, store: LedgerStore): Promise<ReconcileResult> {
  const { kind, key } = request.sideEffect;
  const payload = readPayload(kind, request.sideEffect.payload);
  if (payload === undefined) {
    // Retrying cannot fix an unreadable payload; say so and stop.
    return {
      done: true,
      message: `ledger: side effect ${kind} ${JSON.stringify(key)} has no readable payload; nothing done`,
    };
  }
  const step = planReconcile(kind, payload, request.outcome, request.object as JsonValue | undefined);
  switch (step.action) {
    case 'retry':
      return { done: false, message: `ledger: ${key}: ${step.reason}`, retryAfterMs: step.retryAfterMs };
    case 'done':
      return { done: true, message: `ledger: ${key}: ${step.reason}` };
    case 'confirm': {
      const owner = (payload as ReservationPayload).owner;
      const result = await store.settle(key, 'PERSISTED', {
        token: step.token,
        owner,
        restore: step.restore,
        ...(step.identity ? { identity: step.identity } : {}),
        ...(typeof (payload as ReservationPayload).uid === 'string'
          ? { uid: (payload as ReservationPayload).uid }
          : {}),
      });
      return { done: true, message: `ledger: ${key}: ${SETTLE_MESSAGES[result]}` };
    }
    case 'release-claim': {
      const owner = (payload as ReservationPayload).owner;
      const result = await store.settle(key, 'NOT_PERSISTED', { token: step.token, owner, restore: false });
      return { done: true, message: `ledger: ${key}: ${SETTLE_MESSAGES[result]}` };
    }
    case 'release-owned': {
      const result = await store.release(key, step.owner);
      if (result === 'busy')
        return { done: false, message: `ledger: ${key}: ${RELEASE_MESSAGES[result]}`, retryAfterMs: RETRY_BUSY_MS };
      return { done: true, message: `ledger: ${key}: ${RELEASE_MESSAGES[result]}` };
    }
  }
}

const SETTLE_MESSAGES: Record<SettleResult, string> = {
  confirmed: 'reservation confirmed',
  restored: 'reservation had expired or vanished; restored for the persisted object',
  released: 'reservation released (the object was not persisted)',
  kept: 'claim dropped; the reservation stays (confirmed, or held by another admission of the same object)',
  stale: 'already settled; nothing changed',
  absent: 'no reservation left; nothing to do',
  taken: 'another object holds the value now; nothing changed (the persisted object carries a duplicate)',
};

const RELEASE_MESSAGES: Record<ReleaseResult, string> = {
  released: 'value released (the object gave it up)',
  busy: 'an admission of the same object holds a pending claim; retrying once it is settled',
  'not-owner': 'another object holds the value now; nothing changed',
  absent: 'already released',
};

function readPayload(kind: string, bytes: Buffer): ReservationPayload | ReleasePayload | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const p = parsed as Record<string, unknown>;
  const common =
    typeof p['owner'] === 'string' && typeof p['annotation'] === 'string' && typeof p['value'] === 'string';
  if (!common) return undefined;
  if (kind === SIDE_EFFECT_RESERVATION) {
    const ok =
      typeof p['token'] === 'string' &&
      typeof p['group'] === 'string' &&
      typeof p['kind'] === 'string' &&
      typeof p['namespace'] === 'string';
    return ok ? (parsed as ReservationPayload) : undefined;
  }
  return parsed as ReleasePayload;
}
