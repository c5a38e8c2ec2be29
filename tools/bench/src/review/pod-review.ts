/**
 * The benchmark's request: a realistic Pod CREATE AdmissionReview (v1) of about 8 KB, as a
 * ReplicaSet controller sends it: three containers and an init container, env, probes, volumes
 * (ConfigMap, Secret, projected token, emptyDir), labels, annotations, affinity, tolerations.
 * It passes every realistic validating hook as is, before and after the realistic mutations.
 */

export interface PodReview {
  readonly apiVersion: 'admission.k8s.io/v1';
  readonly kind: 'AdmissionReview';
  readonly request: PodRequest;
}

export interface PodRequest {
  readonly uid: string;
  readonly object: Record<string, unknown>;
  readonly [field: string]: unknown;
}

export const REVIEW_NAMESPACE = 'shop';

export function podReview(uid = '00000000-0000-4000-8000-000000000000'): PodReview {
  const object = pod();
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: '',
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      requestSubResource: '',
      name: '',
      namespace: REVIEW_NAMESPACE,
      operation: 'CREATE',
      userInfo: {
        username: 'system:serviceaccount:kube-system:replicaset-controller',
        uid: '95c8f0ca-d31a-4d3f-9f27-9a2a2661ab3c',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
      },
      object,
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    },
  };
}

function pod(): Record<string, unknown> {
  const labels = {
    app: 'checkout',
    'app.kubernetes.io/name': 'checkout',
    'app.kubernetes.io/instance': 'checkout-prod',
    'app.kubernetes.io/version': '4.12.1',
    'app.kubernetes.io/component': 'api',
    'app.kubernetes.io/part-of': 'shop',
    team: 'payments',
    'pod-template-hash': '7d9f8c6b5d',
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: 'checkout-7d9f8c6b5d-',
      namespace: REVIEW_NAMESPACE,
      labels,
      annotations: {
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9090',
        'prometheus.io/path': '/metrics',
        'kubectl.kubernetes.io/restartedAt': '2026-11-20T09:14:03Z',
        'checksum/config': 'b1946ac92492d2347c6235b4d2611184e2f1f3a5c7b9d0e8f6a4c2b0d9e8f7a6',
        'checksum/secret': '591785b794601e212b260e25925636fd2e2f1f3a5c7b9d0e8f6a4c2b0d9e8f7a',
        'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
        'shop.example.com/owners': 'payments-oncall@example.com',
        'shop.example.com/runbook': 'https://runbooks.example.com/shop/checkout',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'checkout-7d9f8c6b5d',
          uid: 'c0a8f3e2-5b1d-4e7a-9c3f-2d6b8e1a4f70',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      serviceAccountName: 'checkout',
      priorityClassName: 'business-critical',
      terminationGracePeriodSeconds: 45,
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      enableServiceLinks: false,
      initContainers: [
        {
          name: 'migrate',
          image: 'registry.example.com/shop/checkout-migrate:4.12.1',
          command: ['/bin/migrate', '--wait-for-db', '--timeout=120s'],
          env: [databaseEnv(), { name: 'MIGRATION_LOCK_TABLE', value: 'schema_lock' }],
          resources: resources('100m', '128Mi', '500m', '256Mi'),
          volumeMounts: [{ name: 'config', mountPath: '/etc/checkout', readOnly: true }],
        },
      ],
      containers: [
        {
          name: 'api',
          image: 'registry.example.com/shop/checkout:4.12.1',
          args: ['serve', '--config=/etc/checkout/config.yaml', '--listen=:8080', '--metrics=:9090'],
          ports: [
            { name: 'http', containerPort: 8080, protocol: 'TCP' },
            { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
          ],
          env: [
            databaseEnv(),
            { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
            { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
            { name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
            { name: 'PAYMENTS_URL', value: 'https://payments.payments.svc.cluster.local:8443' },
            { name: 'INVENTORY_URL', value: 'http://inventory.shop.svc.cluster.local:8080' },
            {
              name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
              value: 'http://otel-collector.observability.svc.cluster.local:4317',
            },
            { name: 'OTEL_SERVICE_NAME', value: 'checkout' },
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'HTTP_READ_TIMEOUT', value: '15s' },
            { name: 'HTTP_WRITE_TIMEOUT', value: '30s' },
            { name: 'DB_MAX_OPEN_CONNS', value: '40' },
            { name: 'DB_MAX_IDLE_CONNS', value: '10' },
            { name: 'CACHE_TTL', value: '5m' },
            { name: 'RATE_LIMIT_PER_CLIENT', value: '200' },
            { name: 'CACHE_URL', value: 'redis://checkout-cache.shop.svc.cluster.local:6379/0' },
            {
              name: 'GOMAXPROCS',
              valueFrom: { resourceFieldRef: { containerName: 'api', resource: 'limits.cpu', divisor: '1' } },
            },
            { name: 'STRIPE_API_KEY', valueFrom: { secretKeyRef: { name: 'checkout-stripe', key: 'api-key' } } },
            {
              name: 'FEATURE_FLAGS',
              valueFrom: { configMapKeyRef: { name: 'checkout-flags', key: 'flags', optional: true } },
            },
          ],
          envFrom: [{ configMapRef: { name: 'checkout-env' } }],
          resources: resources('500m', '512Mi', '2', '1Gi'),
          readinessProbe: {
            httpGet: { path: '/readyz', port: 'http', scheme: 'HTTP' },
            periodSeconds: 5,
            timeoutSeconds: 2,
            failureThreshold: 3,
          },
          livenessProbe: {
            httpGet: { path: '/livez', port: 'http', scheme: 'HTTP' },
            initialDelaySeconds: 10,
            periodSeconds: 10,
            timeoutSeconds: 2,
          },
          startupProbe: {
            httpGet: { path: '/livez', port: 'http', scheme: 'HTTP' },
            periodSeconds: 2,
            failureThreshold: 30,
          },
          volumeMounts: [
            { name: 'config', mountPath: '/etc/checkout', readOnly: true },
            { name: 'tls', mountPath: '/etc/checkout/tls', readOnly: true },
            { name: 'tmp', mountPath: '/tmp' },
            { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
          ],
          securityContext: { readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
        {
          name: 'envoy',
          image: 'registry.example.com/mesh/envoy:1.31.2',
          args: ['--config-path', '/etc/envoy/envoy.yaml', '--log-level', 'warn', '--concurrency', '2'],
          ports: [
            { name: 'proxy', containerPort: 15001, protocol: 'TCP' },
            { name: 'admin', containerPort: 15000, protocol: 'TCP' },
          ],
          env: [
            { name: 'ENVOY_UID', value: '1337' },
            { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
          ],
          resources: resources('100m', '64Mi', '1', '256Mi'),
          readinessProbe: { httpGet: { path: '/ready', port: 15000, scheme: 'HTTP' }, periodSeconds: 5 },
          volumeMounts: [
            { name: 'envoy-config', mountPath: '/etc/envoy', readOnly: true },
            { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
          ],
          securityContext: { runAsUser: 1337, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        },
        {
          name: 'log-shipper',
          image: 'registry.example.com/observability/fluent-bit:3.1.9',
          env: [{ name: 'FLUENT_ELASTICSEARCH_HOST', value: 'logs.observability.svc.cluster.local' }],
          resources: resources('50m', '32Mi', '200m', '128Mi'),
          volumeMounts: [{ name: 'tmp', mountPath: '/var/log/app', readOnly: true }],
          securityContext: { readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        },
      ],
      volumes: [
        { name: 'config', configMap: { name: 'checkout-config', defaultMode: 420 } },
        { name: 'envoy-config', configMap: { name: 'checkout-envoy', defaultMode: 420 } },
        { name: 'tls', secret: { secretName: 'checkout-tls', defaultMode: 288 } },
        { name: 'tmp', emptyDir: { sizeLimit: '256Mi' } },
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
                },
              },
            ],
          },
        },
      ],
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                topologyKey: 'kubernetes.io/hostname',
                labelSelector: { matchLabels: { app: 'checkout' } },
              },
            },
          ],
        },
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'node.kubernetes.io/pool', operator: 'In', values: ['general', 'general-arm'] },
                ],
              },
            ],
          },
        },
      },
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { app: 'checkout' } },
        },
      ],
      imagePullSecrets: [{ name: 'registry-example-com' }],
    },
    status: {},
  };
}

function databaseEnv(): Record<string, unknown> {
  return { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'checkout-db', key: 'url' } } };
}

function resources(
  cpuRequest: string,
  memoryRequest: string,
  cpuLimit: string,
  memoryLimit: string,
): Record<string, unknown> {
  return { requests: { cpu: cpuRequest, memory: memoryRequest }, limits: { cpu: cpuLimit, memory: memoryLimit } };
}
