/**
 * Namespace labels from the configuration, for standalone use without an apiserver
 * (GatewayConfiguration `namespaces: [{name, labels}]`). A namespace not listed is not found,
 * as a missing namespace is for the apiserver.
 */
import type { NamespaceLookupResult } from '@hookgate/admission';
import { NOT_FOUND, buildFoundResult } from './namespace-result.js';
import type { LookupOutcome, LookupSource, NamespaceSource } from './namespace-source.js';

export interface StaticNamespace {
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** `onLookup` is called once per lookup with source `static`, for hookgate_namespace_lookups_total. */
export function staticNamespaces(
  list: readonly StaticNamespace[],
  onLookup: (source: LookupSource, outcome: LookupOutcome) => void = () => undefined,
): NamespaceSource {
  const byName = new Map<string, NamespaceLookupResult>(
    list.map((ns) => [ns.name, buildFoundResult({ metadata: { name: ns.name, labels: { ...ns.labels } } })]),
  );
  return {
    lookup: (name) => {
      const found = byName.get(name);
      onLookup('static', found === undefined ? 'not_found' : 'found');
      return found ?? NOT_FOUND;
    },
    ready: () => true,
    whenSynced: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
