import type { JsonValue } from './json.js';

/** Namespace labels for namespaceSelector (§6). Sync when cached; async for a live GET. */
export type NamespaceLookupResult =
  | { readonly found: true; readonly labels: Readonly<Record<string, string>>; readonly object?: JsonValue }
  | { readonly found: false }
  | { readonly error: string };
export type NamespaceLookup = (name: string) => NamespaceLookupResult | Promise<NamespaceLookupResult>;
