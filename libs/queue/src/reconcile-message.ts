/**
 * The Reconcile call's message (the plugin contract's ReconcileRequest) from a job and the
 * controller's verdict. The object is sent empty: the controller reads metadata only, and the
 * contract's `object` is the whole object or nothing.
 */
import type { ReconcileRequest } from '@hookgate/proto';
import { decodeEffectPayload } from './build-job.js';
import type { Persistence } from './decide-persistence.js';
import type { SideEffectJob } from './job-schema.js';

export function buildReconcileRequest(job: SideEffectJob, outcome: Persistence, attempt: number): ReconcileRequest {
  const { admission } = job;
  return {
    hook: job.hook,
    sideEffect: { kind: job.effect.kind, key: job.effect.key, payload: decodeEffectPayload(job) ?? new Uint8Array() },
    outcome,
    object: new Uint8Array(),
    admission: {
      uid: admission.uid,
      operation: admission.operation,
      group: admission.resource.group,
      version: admission.resource.version,
      resource: admission.resource.resource,
      subResource: admission.subResource,
      namespace: admission.namespace,
      name: admission.name,
      allowed: job.decision.allowed,
      dryRun: admission.dryRun,
    },
    attempt,
  };
}
