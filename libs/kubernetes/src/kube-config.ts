/**
 * A KubeConfig as a Hookgate process is told to reach the apiserver (the GatewayConfiguration's
 * `kubernetes` section): in-cluster (service account), or a kubeconfig file.
 */
import { KubeConfig } from '@kubernetes/client-node';

export type KubernetesAccess =
  { readonly mode: 'inCluster' } | { readonly mode: 'kubeconfig'; readonly kubeconfig?: string };

export function loadKubeConfig(access: KubernetesAccess): KubeConfig {
  const kc = new KubeConfig();
  if (access.mode === 'inCluster') kc.loadFromCluster();
  else if (access.kubeconfig !== undefined) kc.loadFromFile(access.kubeconfig);
  // No path: $KUBECONFIG, then ~/.kube/config, then in-cluster, as kubectl does.
  else kc.loadFromDefault();
  return kc;
}
