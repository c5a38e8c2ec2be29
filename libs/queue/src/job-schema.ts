/**
 * The side-effect reconciliation job, schema version 1: what the gateway tells the controller about
 * one side effect a hook reported. Plain JSON (BullMQ stores `JSON.stringify(data)`), no object
 * bodies: only what the controller needs to find the object again and to decide whether the
 * admitted request was stored. Adding an optional field keeps version 1 (decoders ignore fields
 * they do not know); changing or removing one makes version 2.
 */

import type { Operation, Phase } from '@hookgate/admission';

export const JOB_SCHEMA_VERSION = 1;

/** The side effect as the hook reported it. */
export interface JobEffect {
  /** The hook's own vocabulary (`ledger-claim`, `dns-record`, ...). */
  readonly kind: string;
  /** Deterministic in the hook: what the effect touched, so a retried reconcile finds it. */
  readonly key: string;
  /** Opaque bytes from the hook, standard base64; absent when the hook sent none. */
  readonly payload?: string;
}

/** The admission request, without its object: enough to read the object's real state later. */
export interface AdmissionSummary {
  /** The apiserver's uid of this webhook call (a retry by the apiserver has another). */
  readonly uid: string;
  readonly operation: Operation;
  readonly resource: { readonly group: string; readonly version: string; readonly resource: string };
  /** '' when the request is for the resource itself. */
  readonly subResource: string;
  /** '' for cluster-scoped resources. */
  readonly namespace: string;
  /** '' on a mutating CREATE with generateName (the name is assigned after mutating admission). */
  readonly name: string;
  /** metadata.generateName of the object, '' when it has none. */
  readonly generateName: string;
  /** metadata.uid of the object in the request, when it has one (validating CREATE, UPDATE, DELETE). */
  readonly objectUid?: string;
  /** metadata.resourceVersion of the object in the request, when it has one. */
  readonly objectResourceVersion?: string;
  /** metadata.resourceVersion of oldObject (UPDATE, DELETE), when the request has one. */
  readonly oldObjectResourceVersion?: string;
  /**
   * metadata.uid of oldObject (UPDATE, DELETE): a DELETE request has no object, so this is how the
   * controller tells the deleted object from another one created under the same name since.
   */
  readonly oldObjectUid?: string;
  /**
   * metadata.generation of the object in the request, when it has one. In the validating phase of an
   * UPDATE it already carries the apiserver's bump for a spec change (the controller compares it).
   */
  readonly objectGeneration?: number;
  /** metadata.generation of oldObject (UPDATE, DELETE), when it has one. */
  readonly oldObjectGeneration?: number;
  readonly dryRun: boolean;
  readonly phase: Phase;
}

/**
 * The gateway's answer to the whole request, not just this hook's: a side effect of a request
 * the gateway denied is NOT_PERSISTED at once, without reading the cluster.
 */
export type GatewayDecision =
  | { readonly allowed: true }
  /** A hook answered allowed: false; `code` is the HTTP code of its Status. */
  | { readonly allowed: false; readonly by: 'hook'; readonly hook: string; readonly code: number }
  /**
   * The gateway refused on a failure: a hook failing under failurePolicy Fail, a dryRun request to
   * a hook with side effects, a bad patch, a matchConditions error. `hook` is absent when no hook
   * is to blame; `reason` is the trace's word for it (`failed-closed`, `refused`, ...).
   */
  | {
      readonly allowed: false;
      readonly by: 'error';
      readonly hook?: string;
      readonly code: number;
      readonly reason: string;
    };

export interface SideEffectJob {
  readonly schema: typeof JOB_SCHEMA_VERSION;
  /** The plugin serving the hook: its queue, and whose Reconcile is called. */
  readonly plugin: string;
  /** The hook (webhook name) that reported the effect. */
  readonly hook: string;
  readonly effect: JobEffect;
  readonly admission: AdmissionSummary;
  readonly decision: GatewayDecision;
  /** The gateway that admitted the request (its configured id, or host name and pid). */
  readonly gateway: string;
  /** When the gateway knew the outcome: milliseconds since the epoch, the gateway's clock. */
  readonly time: number;
}
