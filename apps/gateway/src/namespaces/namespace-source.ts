import type { NamespaceLookup } from '@hookgate/admission';

/** Where namespace labels come from: static configuration or an apiserver informer. */
export interface NamespaceSource {
  readonly lookup: NamespaceLookup;
  /** True once labels can be served from a complete cache (for /readyz). */
  ready(): boolean;
  /** Resolves when ready() first becomes true. */
  whenSynced(): Promise<void>;
  close(): Promise<void>;
}

/** For metrics (hookgate_namespace_lookups_total) and logs. */
export type LookupSource = 'static' | 'cache' | 'live';
export type LookupOutcome = 'found' | 'not_found' | 'error';
