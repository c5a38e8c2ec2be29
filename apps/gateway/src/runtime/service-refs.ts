/** What the service resolver is built from: the configuration's apiserver access and the Services hooks name. */
import type { HookSet } from '@hookgate/admission';
import type { GatewayConfiguration } from '@hookgate/config';
import type { KubernetesAccess } from '@hookgate/kubernetes';

export function kubernetesAccessOf(kubernetes: GatewayConfiguration['kubernetes']): KubernetesAccess {
  return kubernetes.mode === 'inCluster'
    ? { mode: 'inCluster' }
    : { mode: 'kubeconfig', ...(kubernetes.kubeconfig ? { kubeconfig: kubernetes.kubeconfig } : {}) };
}

/** The Services that bridged webhooks name (url and plugin hooks name none). */
export function serviceRefsOf(hooks: HookSet): { namespace: string; name: string }[] {
  return [...hooks.mutating, ...hooks.validating].flatMap((hook) =>
    hook.target.kind === 'service' ? [{ namespace: hook.target.namespace, name: hook.target.name }] : [],
  );
}
