/**
 * Where a webhook `service` reference is dialled, by the rule kube-apiserver's default webhook
 * service resolver applies (k8s.io/apiserver util/proxy ResolveCluster): the Service's ClusterIP
 * and the Service port the reference names (kube-proxy maps it to the target port), or the
 * ExternalName host with the referenced port. The error texts are the apiserver's.
 */

/** The parts of a v1 Service the rule reads. */
export interface ServiceLike {
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
  readonly spec?: {
    readonly type?: string;
    readonly clusterIP?: string;
    readonly externalName?: string;
    readonly ports?: readonly { readonly port?: number }[];
  };
}

/** What to dial: an IP address (or the ExternalName host) and a port. */
export interface ServiceAddress {
  readonly host: string;
  readonly port: number;
}

/** A reference to a Service port, as a webhook's `clientConfig.service` holds it (port defaulted to 443). */
export interface ServiceRef {
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
}

export type ServiceAddressResult = { ok: true; address: ServiceAddress } | { ok: false; error: string };

export const serviceKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/** The address a webhook call to `port` of this Service goes to. */
export function serviceAddress(service: ServiceLike, name: string, port: number): ServiceAddressResult {
  const spec = service.spec ?? {};
  // The apiserver defaults an absent type to ClusterIP.
  const type = spec.type ?? 'ClusterIP';
  if (type === 'ClusterIP' && spec.clusterIP === 'None')
    return { ok: false, error: 'cannot route to service with ClusterIP "None"' };
  if (type === 'ClusterIP' || type === 'LoadBalancer' || type === 'NodePort') {
    if (!spec.ports?.some((p) => p.port === port))
      return { ok: false, error: `no service port ${port} found for service "${name}"` };
    if (spec.clusterIP === undefined || spec.clusterIP === '')
      return { ok: false, error: `service "${name}" has no clusterIP yet` };
    return { ok: true, address: { host: spec.clusterIP, port } };
  }
  if (type === 'ExternalName') {
    if (spec.externalName === undefined || spec.externalName === '')
      return { ok: false, error: `service "${name}" of type ExternalName has no externalName` };
    return { ok: true, address: { host: spec.externalName, port } };
  }
  return { ok: false, error: `unsupported service type "${type}"` };
}

/** `host:port` with an IPv6 address in brackets, as Go's net.JoinHostPort writes it. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
