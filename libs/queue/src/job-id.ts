/**
 * Deterministic job ids: the same side effect of the same apiserver call always gets the same id,
 * so a replay from the spool or a repeated hand-over finds the job already there (BullMQ ignores
 * an add whose id exists) and never makes a second one.
 *
 *   id = 'se1-' + hex(sha256(JSON.stringify([plugin, requestUid, hook, effectKind, effectKey])))
 *
 * The JSON array keeps the parts apart whatever characters they hold (no separator to escape).
 * The prefix makes the id never all digits (BullMQ reads those as its own counter ids) and names
 * the scheme's version; hex has no ':' (BullMQ's key separator). 68 characters in all.
 */
import { hash } from 'node:crypto';

export const JOB_ID_PREFIX = 'se1-';

export interface JobIdentity {
  readonly plugin: string;
  /** The apiserver's request uid (AdmissionRequest.uid), not a per-hook-call uid. */
  readonly requestUid: string;
  readonly hook: string;
  readonly effectKind: string;
  readonly effectKey: string;
}

export function computeJobId(identity: JobIdentity): string {
  const canonical = JSON.stringify([
    identity.plugin,
    identity.requestUid,
    identity.hook,
    identity.effectKind,
    identity.effectKey,
  ]);
  // One-shot hash: the same digest as createHash, without a Hash object per job (a few µs less each).
  return JOB_ID_PREFIX + hash('sha256', canonical, 'hex');
}

/** The id of a built job. */
export function jobIdOf(job: {
  readonly plugin: string;
  readonly hook: string;
  readonly admission: { readonly uid: string };
  readonly effect: { readonly kind: string; readonly key: string };
}): string {
  return computeJobId({
    plugin: job.plugin,
    requestUid: job.admission.uid,
    hook: job.hook,
    effectKind: job.effect.kind,
    effectKey: job.effect.key,
  });
}
