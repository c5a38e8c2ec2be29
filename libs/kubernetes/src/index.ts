/**
 * @hookgate/kubernetes: how Hookgate processes reach the apiserver. Loading client-node costs
 * about a second: import this package only when an apiserver is configured.
 *
 *   const kubeConfig = loadKubeConfig({ mode: 'kubeconfig', kubeconfig: '/etc/hookgate/kubeconfig' });
 *   const api = resourceClient(kubeConfig);
 *   const web = await api.get({ group: 'apps', version: 'v1', resource: 'deployments' }, 'web', { namespace: 'shop' });
 *   const namespaces = startInformer(kubeConfig, { group: '', version: 'v1', resource: 'namespaces' }, { handlers });
 */
export { loadKubeConfig, type KubernetesAccess } from './kube-config.js';
export { resourcePath, qualifiedResource, type ResourceRef, type ObjectScope } from './resource.js';
export {
  resourceClient,
  isNotFound,
  isKubernetesApiError,
  KubernetesApiError,
  type ResourceClient,
  type GetOptions,
  type ListOptions,
  type PartialObjectMetadata,
} from './resource-client.js';
export { startInformer, type InformerHandlers, type InformerOptions, type ResourceInformer } from './informer.js';
export type { KubeConfig, KubernetesObject, KubernetesListObject } from '@kubernetes/client-node';
