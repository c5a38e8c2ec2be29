import { describe, expect, it } from 'vitest';
import { joinHostPort, serviceAddress, type ServiceLike } from './service-address.js';

/** kube-apiserver's ResolveCluster, case by case (k8s.io/apiserver pkg/util/proxy). */
describe('serviceAddress', () => {
  const ports = [{ port: 443 }, { port: 8443 }];
  const cases: { name: string; service: ServiceLike; port: number; want: ReturnType<typeof serviceAddress> }[] = [
    {
      name: 'ClusterIP: the ClusterIP and the Service port named (not the target port)',
      service: { spec: { type: 'ClusterIP', clusterIP: '10.96.0.10', ports } },
      port: 8443,
      want: { ok: true, address: { host: '10.96.0.10', port: 8443 } },
    },
    {
      name: 'no type is ClusterIP, as the apiserver defaults it',
      service: { spec: { clusterIP: '10.96.0.10', ports } },
      port: 443,
      want: { ok: true, address: { host: '10.96.0.10', port: 443 } },
    },
    {
      name: 'NodePort and LoadBalancer go to the ClusterIP too',
      service: { spec: { type: 'LoadBalancer', clusterIP: 'fd00::a', ports } },
      port: 443,
      want: { ok: true, address: { host: 'fd00::a', port: 443 } },
    },
    {
      name: 'a port the Service does not have',
      service: { spec: { type: 'NodePort', clusterIP: '10.96.0.10', ports } },
      port: 9443,
      want: { ok: false, error: 'no service port 9443 found for service "hooks"' },
    },
    {
      name: 'a headless Service',
      service: { spec: { type: 'ClusterIP', clusterIP: 'None', ports } },
      port: 443,
      want: { ok: false, error: 'cannot route to service with ClusterIP "None"' },
    },
    {
      name: 'ExternalName: its host with the referenced port',
      service: { spec: { type: 'ExternalName', externalName: 'hooks.example.net' } },
      port: 8443,
      want: { ok: true, address: { host: 'hooks.example.net', port: 8443 } },
    },
    {
      name: 'an unknown type',
      service: { spec: { type: 'Magic', clusterIP: '10.96.0.10', ports } },
      port: 443,
      want: { ok: false, error: 'unsupported service type "Magic"' },
    },
    {
      name: 'a ClusterIP Service without its address yet',
      service: { spec: { type: 'ClusterIP', ports } },
      port: 443,
      want: { ok: false, error: 'service "hooks" has no clusterIP yet' },
    },
  ];
  it.each(cases)('$name', ({ service, port, want }) => {
    expect(serviceAddress(service, 'hooks', port)).toEqual(want);
  });

  it('joins hosts and ports as Go does, IPv6 in brackets', () => {
    expect(joinHostPort('10.96.0.10', 443)).toBe('10.96.0.10:443');
    expect(joinHostPort('fd00::a', 443)).toBe('[fd00::a]:443');
  });
});
