/**
 * The few facts about an admission request that logs, metrics and sinks may carry: identity and
 * coordinates, never object contents (objects can be Secrets).
 */
import type { AdmissionRequest, Phase } from '@hookgate/admission';

export interface RequestSummary {
  readonly uid: string;
  readonly phase: Phase;
  readonly operation: string;
  /** `group/version/resource[/subresource]`, core group written as `v1/pods`. */
  readonly resource: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly dryRun: boolean;
}

export function summarizeRequest(phase: Phase, request: AdmissionRequest): RequestSummary {
  const { group, version, resource } = request.resource;
  const gvr = group === '' ? `${version}/${resource}` : `${group}/${version}/${resource}`;
  return {
    uid: request.uid,
    phase,
    operation: request.operation,
    resource: request.subResource ? `${gvr}/${request.subResource}` : gvr,
    kind: request.kind.kind,
    namespace: request.namespace ?? '',
    name: request.name ?? '',
    dryRun: request.dryRun === true,
  };
}
