/** A Pod CREATE AdmissionReview as the apiserver sends it (no secrets in it: tests grep the logs for its contents). */
export function podCreateReview(overrides: Record<string, unknown> = {}, apiVersion = 'admission.k8s.io/v1') {
  return {
    apiVersion,
    kind: 'AdmissionReview',
    request: {
      uid: 'b7f3c5de-0b3e-4a1f-9d2c-5f1e2a3b4c5d',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      name: 'web',
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'alice', groups: ['system:authenticated'] },
      object: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { secret: 'do-not-log-this-value' } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
      oldObject: null,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
      ...overrides,
    },
  };
}
