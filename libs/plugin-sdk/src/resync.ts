/**
 * Periodic resync over gRPC: ListHeldEffects → the plugin's `resync.list`, ReconcileOrphan → its
 * `resync.reconcileOrphan`. A plugin without `resync` answers UNIMPLEMENTED to both (the
 * controller then skips its resync and keeps reconciling jobs).
 */
import { status } from '@grpc/grpc-js';
import type {
  HeldEffect as ProtoHeldEffect,
  ListHeldEffectsRequest__Output,
  ListHeldEffectsResponse,
  ReconcileOrphanRequest__Output,
  ReconcileResponse,
} from '@hookgate/proto';
import { HookCallError, describeError } from './hook-call-error.js';
import { encodePayload } from './hook-context.js';
import { readReconcileResult } from './reconcile.js';
import type { HeldEffect, OrphanRequest, Plugin, ResyncSpec } from './types.js';

/** A page size the controller did not set, or set too large, is capped here. */
const MAX_PAGE_SIZE = 1000;
const DEFAULT_PAGE_SIZE = 100;

export async function listHeldEffects(
  plugin: Plugin,
  message: ListHeldEffectsRequest__Output,
): Promise<ListHeldEffectsResponse> {
  const resync = resyncOf(plugin);
  const pageSize = message.pageSize === 0 ? DEFAULT_PAGE_SIZE : Math.min(message.pageSize, MAX_PAGE_SIZE);
  let page;
  try {
    page = await resync.list({ pageToken: message.pageToken, pageSize });
  } catch (error) {
    throw new HookCallError(
      status.INTERNAL,
      `resync list of plugin ${JSON.stringify(plugin.name)} failed: ${describeError(error)}`,
      {
        cause: error,
      },
    );
  }
  if (page === null || typeof page !== 'object' || !Array.isArray(page.effects)) {
    throw new HookCallError(
      status.INTERNAL,
      `resync list of plugin ${JSON.stringify(plugin.name)} must return { effects: HeldEffect[], nextPageToken? }`,
    );
  }
  return { effects: page.effects.map(toProto), nextPageToken: page.nextPageToken ?? '' };
}

export async function reconcileOrphan(
  plugin: Plugin,
  message: ReconcileOrphanRequest__Output,
): Promise<ReconcileResponse> {
  const resync = resyncOf(plugin);
  const request = decodeOrphan(message);
  let result;
  try {
    result = await resync.reconcileOrphan(request);
  } catch (error) {
    throw new HookCallError(
      status.INTERNAL,
      `orphan reconcile of ${JSON.stringify(request.held.sideEffect.kind)} ${JSON.stringify(request.held.sideEffect.key)} failed: ${describeError(error)}`,
      { cause: error },
    );
  }
  return readReconcileResult(plugin, result);
}

function resyncOf(plugin: Plugin): ResyncSpec {
  if (plugin.resync === undefined) {
    throw new HookCallError(status.UNIMPLEMENTED, `plugin ${JSON.stringify(plugin.name)} has no resync handlers`);
  }
  return plugin.resync;
}

function toProto(effect: HeldEffect): ProtoHeldEffect {
  const { object } = effect;
  return {
    hook: effect.hook,
    sideEffect: {
      kind: effect.sideEffect.kind,
      key: effect.sideEffect.key,
      payload: encodePayload(effect.sideEffect.payload),
    },
    object: { ...object, uid: object.uid ?? '' },
    sinceMs: Math.max(0, Math.floor(effect.sinceMs)),
  };
}

function decodeOrphan(message: ReconcileOrphanRequest__Output): OrphanRequest {
  const held = message.held;
  if (held === null || held.sideEffect === null || held.object === null) {
    throw new HookCallError(status.INVALID_ARGUMENT, 'orphan reconcile request carries no held effect or object');
  }
  if (message.reason !== 'absent' && message.reason !== 'replaced') {
    throw new HookCallError(
      status.INVALID_ARGUMENT,
      `orphan reconcile request has reason ${JSON.stringify(message.reason)}; expected absent or replaced`,
    );
  }
  return {
    held: {
      hook: held.hook,
      sideEffect: { kind: held.sideEffect.kind, key: held.sideEffect.key, payload: held.sideEffect.payload },
      object: { ...held.object },
      sinceMs: held.sinceMs,
    },
    reason: message.reason,
    observedUid: message.observedUid,
  };
}
