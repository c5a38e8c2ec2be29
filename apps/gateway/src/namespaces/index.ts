/**
 * Namespace labels for namespaceSelector: static (configuration) or from the apiserver (informer).
 * Importing this barrel loads client-node (informerNamespaces): import static-namespaces.js directly
 * when that is all you need.
 *
 *   const source = gateway.kubernetes.mode === 'none'
 *     ? staticNamespaces(gateway.namespaces)
 *     : informerNamespacesFor(gateway.kubernetes, { log, onLookup }); // or informerNamespaces(kubeConfig, …)
 *   env.namespaces = source.lookup; readyz: source.ready()
 */
export { staticNamespaces } from './static-namespaces.js';
export type { StaticNamespace } from './static-namespaces.js';
export { informerNamespaces, informerNamespacesFor } from './informer-namespaces.js';
export type { InformerNamespacesOptions } from './informer-namespaces.js';
export { NAMESPACE_NAME_LABEL } from './namespace-result.js';
export type { NamespaceSource, LookupSource, LookupOutcome } from './namespace-source.js';
