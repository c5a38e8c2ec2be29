/**
 * For `hookgate check-config`: can every bridged webhook's `service` reference be resolved where
 * the gateway runs? With apiserver access (the configuration's `kubernetes` section) each Service is
 * read once and the apiserver's rule applied (service-address.ts); without it the gateway falls back
 * to DNS for `<name>.<namespace>.svc`, which a control-plane node's host resolver does not answer.
 * Answers one warning per reference that will not resolve; nothing for url and plugin hooks.
 */
import type { LoadedConfiguration } from '@hookgate/config';
import { serviceAddress } from './service-address.js';
import type { ServiceRead } from './service-reader.js';

export interface ServiceReferenceWarning {
  /** `MutatingWebhookConfiguration/<name>` and the webhook's name. */
  readonly configuration: string;
  readonly hook: string;
  /** `<namespace>/<name>:<port>`. */
  readonly service: string;
  /** Why it does not resolve and what to do. */
  readonly message: string;
}

export interface CheckServiceReferencesOptions {
  /** Bound on each read of a Service. Default 5000. */
  readonly timeoutMs?: number;
}

interface Reference {
  readonly configuration: string;
  readonly hook: string;
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
}

export async function checkServiceReferences(
  loaded: LoadedConfiguration,
  options: CheckServiceReferencesOptions = {},
): Promise<ServiceReferenceWarning[]> {
  const references = serviceReferences(loaded);
  if (references.length === 0) return [];
  const { kubernetes } = loaded.gateway;
  if (kubernetes.mode === 'none') {
    return references.map((ref) =>
      warning(
        ref,
        `the gateway has no apiserver access (kubernetes.mode: none), so it looks up ${ref.name}.${ref.namespace}.svc ` +
          "in DNS, which only the cluster's DNS answers (not a control-plane node's host network): set kubernetes.mode " +
          'to kubeconfig (with get, list and watch on services) or give the hook a url',
      ),
    );
  }
  // client-node costs a second to load: only when there is something to resolve.
  const { serviceReader } = await import('./service-reader.js');
  let read;
  try {
    read = serviceReader(
      kubernetes.mode === 'inCluster'
        ? { mode: 'inCluster' }
        : { mode: 'kubeconfig', ...(kubernetes.kubeconfig ? { kubeconfig: kubernetes.kubeconfig } : {}) },
    );
  } catch (error) {
    const why = `the gateway's apiserver access cannot be loaded (${(error as Error).message})`;
    return references.map((ref) => warning(ref, `${why}: fix the kubernetes section`));
  }
  const timeoutMs = options.timeoutMs ?? 5000;
  const warnings: ServiceReferenceWarning[] = [];
  for (const ref of references) {
    const result = await read(ref.namespace, ref.name, timeoutMs);
    const problem = problemOf(result, ref);
    if (problem !== undefined) warnings.push(warning(ref, problem));
  }
  return warnings;
}

function problemOf(result: ServiceRead, ref: Reference): string | undefined {
  switch (result.kind) {
    case 'found': {
      const address = serviceAddress(result.service, ref.name, ref.port);
      return address.ok ? undefined : `${address.error}: point the hook at a port the Service has, or give it a url`;
    }
    case 'not-found':
      return `service "${ref.name}" not found: create it, or give the hook a url`;
    case 'forbidden':
      return (
        `the gateway kubeconfig may not read it (${result.answer}): grant get, list and watch on services ` +
        '(deploy/base/gateway/rbac.yaml)'
      );
    case 'error':
      return `reading it from the apiserver failed (${result.error}): check the kubernetes section`;
  }
}

/** Every `clientConfig.service` of the loaded webhook configurations, port defaulted to 443. */
function serviceReferences(loaded: LoadedConfiguration): Reference[] {
  return loaded.webhookConfigurations.flatMap((configuration) =>
    configuration.webhooks.flatMap((webhook) => {
      const service = webhook.clientConfig?.service;
      if (service === undefined) return [];
      return [
        {
          configuration: `${configuration.kind}/${configuration.name}`,
          hook: webhook.name ?? '',
          namespace: service.namespace ?? '',
          name: service.name ?? '',
          port: service.port ?? 443,
        },
      ];
    }),
  );
}

function warning(ref: Reference, message: string): ServiceReferenceWarning {
  return {
    configuration: ref.configuration,
    hook: ref.hook,
    service: `${ref.namespace}/${ref.name}:${ref.port}`,
    message,
  };
}
