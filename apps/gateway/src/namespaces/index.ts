/**
 * Namespace labels for namespaceSelector: static (configuration) or from the apiserver (informer).
 *
 *   const source = gateway.kubernetes.mode === 'none'
 *     ? staticNamespaces(gateway.namespaces)
 *     : informerNamespaces(loadKubeConfig(gateway.kubernetes), { log, onLookup });
 *   env.namespaces = source.lookup; readyz: source.ready()
 */
export { staticNamespaces } from './static-namespaces.js';
export type { StaticNamespace } from './static-namespaces.js';
export { informerNamespaces } from './informer-namespaces.js';
export type { InformerNamespacesOptions } from './informer-namespaces.js';
// Re-exported so that the worker loads @hookgate/kubernetes (client-node) with this module, lazily.
export { loadKubeConfig, type KubernetesAccess } from '@hookgate/kubernetes';
export { NAMESPACE_NAME_LABEL } from './namespace-result.js';
export type { NamespaceSource, LookupSource, LookupOutcome } from './namespace-source.js';
