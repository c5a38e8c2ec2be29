/**
 * One read of a Service from the apiserver, for `hookgate check-config` (the serving path watches
 * instead: service-resolver.ts). Loads @kubernetes/client-node: import it lazily.
 */
import {
  isKubernetesApiError,
  isNotFound,
  loadKubeConfig,
  resourceClient,
  type KubernetesAccess,
} from '@hookgate/kubernetes';
import type { ServiceLike } from './service-address.js';

const SERVICES = { group: '', version: 'v1', resource: 'services' } as const;

export type ServiceRead =
  | { readonly kind: 'found'; readonly service: ServiceLike }
  | { readonly kind: 'not-found' }
  /** The apiserver refused (RBAC): its answer in one line. */
  | { readonly kind: 'forbidden'; readonly answer: string }
  | { readonly kind: 'error'; readonly error: string };

export type ServiceReader = (namespace: string, name: string, timeoutMs: number) => Promise<ServiceRead>;

/** Throws when the kubeconfig cannot be loaded. */
export function serviceReader(access: KubernetesAccess): ServiceReader {
  const api = resourceClient(loadKubeConfig(access));
  return async (namespace, name, timeoutMs) => {
    try {
      const service = await api.get(SERVICES, name, { namespace, signal: AbortSignal.timeout(timeoutMs) });
      return { kind: 'found', service: service as ServiceLike };
    } catch (error) {
      if (isNotFound(error)) return { kind: 'not-found' };
      if (isKubernetesApiError(error) && (error.status === 401 || error.status === 403))
        return { kind: 'forbidden', answer: error.answer };
      if (isKubernetesApiError(error)) return { kind: 'error', error: error.answer };
      if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'error', error: 'no answer in time' };
      return { kind: 'error', error: error instanceof Error ? error.message : String(error) };
    }
  };
}
