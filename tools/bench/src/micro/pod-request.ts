/** A Pod CREATE AdmissionRequest of about `objectKb` KiB, as the micro-benchmarks send it. */
import type { AdmissionRequest } from '@hookgate/admission';

export function podReviewRequest(objectKb: number): AdmissionRequest {
  const env = [];
  for (let i = 0; JSON.stringify(env).length < objectKb * 1024 - 600; i++)
    env.push({ name: `SETTING_${i}`, value: `value-${i}-${'x'.repeat(40)}` });
  return {
    uid: '3f2c1a9e-8e5b-4d8f-9a57-0b2d6f1c7e44',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    requestKind: { group: '', version: 'v1', kind: 'Pod' },
    requestResource: { group: '', version: 'v1', resource: 'pods' },
    name: 'web-0',
    namespace: 'shop',
    operation: 'CREATE',
    userInfo: {
      username: 'system:serviceaccount:kube-system:replicaset-controller',
      groups: ['system:serviceaccounts', 'system:authenticated'],
    },
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', namespace: 'shop', labels: { app: 'web', tier: 'frontend' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'registry.example.com/shop/web:1.27.3',
            env,
            resources: { requests: { cpu: '100m', memory: '128Mi' } },
          },
        ],
      },
    },
    oldObject: null,
    dryRun: false,
    options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
  };
}
