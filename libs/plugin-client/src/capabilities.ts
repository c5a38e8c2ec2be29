/** What a plugin offers, from its Describe answer. A plugin without Describe gets the plain contract. */
import type { DescribeResponse__Output } from '@hookgate/proto';

export interface PluginCapabilities {
  /** Serves AdmitStream: the gateway multiplexes calls over one long-lived stream. */
  readonly stream: boolean;
  /** Accepts base_request + patch instead of the whole patched request. */
  readonly applyPatch: boolean;
  readonly reconcile: boolean;
  /** Serves ListHeldEffects and ReconcileOrphan (periodic resync). */
  readonly resync: boolean;
  /** Accepts several calls in one AdmitStream message (AdmitRequest.batch); implies `stream`. */
  readonly batch: boolean;
  /** The hooks it declares (informational: an unknown hook answers NOT_FOUND). */
  readonly hooks: ReadonlyMap<string, 'MUTATING' | 'VALIDATING' | 'PHASE_UNSPECIFIED'>;
  readonly implementation: string;
}

/** For plugins that answer Describe with UNIMPLEMENTED: unary Admit with the whole request. */
export const PLAIN_CAPABILITIES: PluginCapabilities = Object.freeze({
  stream: false,
  applyPatch: false,
  reconcile: false,
  resync: false,
  batch: false,
  hooks: new Map(),
  implementation: '',
});

export function capabilitiesFrom(reply: DescribeResponse__Output): PluginCapabilities {
  return Object.freeze({
    stream: reply.admitStream,
    applyPatch: reply.applyPatch,
    reconcile: reply.reconcile,
    resync: reply.resync,
    batch: reply.admitBatch && reply.admitStream,
    hooks: new Map(reply.hooks.map((h) => [h.name, h.phase])),
    implementation: reply.implementation,
  });
}
