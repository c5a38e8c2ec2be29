/**
 * Turning a Namespace object into the frozen answer a NamespaceLookup gives the chain:
 * its labels (for namespaceSelector) and a plain-JSON copy of the object (namespaceObject in CEL).
 * Built once per namespace change, so a lookup is a Map read.
 */
import type { JsonValue, NamespaceLookupResult } from '@hookgate/admission';

/** The apiserver sets this label on every namespace (Kubernetes 1.21+); selectors commonly use it. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

export interface NamespaceLike {
  metadata?: { name?: string; labels?: Record<string, string> | undefined };
}

export const NOT_FOUND: NamespaceLookupResult = Object.freeze({ found: false });

export function buildFoundResult(namespace: NamespaceLike): NamespaceLookupResult {
  const name = namespace.metadata?.name ?? '';
  // Older apiservers did not set the name label; the current ones always do, so behave like them.
  const labels = Object.freeze({
    ...namespace.metadata?.labels,
    [NAMESPACE_NAME_LABEL]: namespace.metadata?.labels?.[NAMESPACE_NAME_LABEL] ?? name,
  });
  // client-node model objects hold Dates; CEL wants the JSON the apiserver would send.
  const object = JSON.parse(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', ...namespace })) as JsonValue;
  return Object.freeze({ found: true, labels, object });
}
