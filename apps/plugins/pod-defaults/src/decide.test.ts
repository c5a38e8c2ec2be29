import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@hookgate/admission';
import { applyPodDefaults, decidePodDefaults, type PodDefaults, type PodRequest } from './decide.js';

const defaults: PodDefaults = {
  imagePullPolicy: 'IfNotPresent',
  requests: { cpu: '50m', memory: '64Mi' },
  containerLists: ['containers', 'initContainers'],
  namespaceLabels: { payments: { team: 'payments', 'cost-center': '4711', tier: 'prod' } },
  copyLabels: ['team', 'tier'],
  copyAnnotations: { 'example.com/cost-center': 'cost-center' },
};

const containersOnly: PodDefaults = {
  ...defaults,
  requests: {},
  containerLists: ['containers'],
  copyLabels: [],
  copyAnnotations: {},
};

function pod(spec: JsonValue, metadata: JsonValue = { name: 'p' }): JsonValue {
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

describe('applyPodDefaults', () => {
  const cases: {
    name: string;
    pod: JsonValue;
    namespace?: string;
    defaults?: PodDefaults;
    expected: JsonValue;
    changes: string[];
  }[] = [
    {
      name: 'fills imagePullPolicy and requests on a bare container',
      pod: pod({ containers: [{ name: 'app', image: 'nginx:1.27' }] }),
      namespace: 'other',
      expected: pod({
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            imagePullPolicy: 'IfNotPresent',
            resources: { requests: { cpu: '50m', memory: '64Mi' } },
          },
        ],
      }),
      changes: [
        'spec.containers[app].imagePullPolicy',
        'spec.containers[app].resources.requests.cpu',
        'spec.containers[app].resources.requests.memory',
      ],
    },
    {
      name: 'keeps an explicit imagePullPolicy',
      pod: pod({ containers: [{ name: 'app', imagePullPolicy: 'Always' }] }),
      defaults: containersOnly,
      expected: pod({ containers: [{ name: 'app', imagePullPolicy: 'Always' }] }),
      changes: [],
    },
    {
      name: 'keeps explicit requests and fills only the missing resource',
      pod: pod({ containers: [{ name: 'app', imagePullPolicy: 'Never', resources: { requests: { cpu: '2' } } }] }),
      expected: pod({
        containers: [{ name: 'app', imagePullPolicy: 'Never', resources: { requests: { cpu: '2', memory: '64Mi' } } }],
      }),
      changes: ['spec.containers[app].resources.requests.memory'],
    },
    {
      name: 'a limit without a request is left to the apiserver (request = limit)',
      pod: pod({ containers: [{ name: 'app', imagePullPolicy: 'Never', resources: { limits: { cpu: '10m' } } }] }),
      expected: pod({
        containers: [
          {
            name: 'app',
            imagePullPolicy: 'Never',
            resources: { limits: { cpu: '10m' }, requests: { memory: '64Mi' } },
          },
        ],
      }),
      changes: ['spec.containers[app].resources.requests.memory'],
    },
    {
      name: 'init containers get defaults too, named by index when unnamed',
      pod: pod({ initContainers: [{ image: 'busybox' }], containers: [] }),
      defaults: { ...containersOnly, containerLists: ['initContainers'] },
      expected: pod({ initContainers: [{ image: 'busybox', imagePullPolicy: 'IfNotPresent' }], containers: [] }),
      changes: ['spec.initContainers[0].imagePullPolicy'],
    },
    {
      name: 'init containers are skipped when not configured',
      pod: pod({ initContainers: [{ name: 'init' }], containers: [{ name: 'app', imagePullPolicy: 'Always' }] }),
      defaults: containersOnly,
      expected: pod({ initContainers: [{ name: 'init' }], containers: [{ name: 'app', imagePullPolicy: 'Always' }] }),
      changes: [],
    },
    {
      name: 'copies namespace labels and annotations when the pod has none',
      pod: pod({ containers: [] }),
      namespace: 'payments',
      expected: pod(
        { containers: [] },
        { name: 'p', labels: { team: 'payments', tier: 'prod' }, annotations: { 'example.com/cost-center': '4711' } },
      ),
      changes: ['metadata.labels[team]', 'metadata.labels[tier]', 'metadata.annotations[example.com/cost-center]'],
    },
    {
      name: "never overwrites the pod's own labels or annotations",
      pod: pod(
        { containers: [] },
        { name: 'p', labels: { team: 'mine' }, annotations: { 'example.com/cost-center': '1' } },
      ),
      namespace: 'payments',
      expected: pod(
        { containers: [] },
        { name: 'p', labels: { team: 'mine', tier: 'prod' }, annotations: { 'example.com/cost-center': '1' } },
      ),
      changes: ['metadata.labels[tier]'],
    },
    {
      name: 'a namespace missing from the static map gets no labels',
      pod: pod({ containers: [] }),
      namespace: 'unknown',
      expected: pod({ containers: [] }),
      changes: [],
    },
    {
      name: 'a namespace label absent from the map is not invented',
      pod: pod({ containers: [] }),
      namespace: 'payments',
      defaults: { ...containersOnly, copyLabels: ['owner'] },
      expected: pod({ containers: [] }),
      changes: [],
    },
    {
      name: 'a namespace named like an inherited member (constructor) is not in the map',
      pod: pod({ containers: [] }),
      namespace: 'constructor',
      defaults: { ...containersOnly, copyLabels: ['name', 'length'] },
      expected: pod({ containers: [] }),
      changes: [],
    },
    {
      name: 'a request named like an inherited member (constructor) is still defaulted',
      pod: pod({ containers: [{ name: 'app', imagePullPolicy: 'Always', resources: {} }] }),
      defaults: { ...containersOnly, requests: { constructor: '1' } },
      expected: pod({
        containers: [{ name: 'app', imagePullPolicy: 'Always', resources: { requests: { constructor: '1' } } }],
      }),
      changes: ['spec.containers[app].resources.requests.constructor'],
    },
    {
      name: 'no namespace (defensive: pods are namespaced) copies nothing',
      pod: pod({ containers: [] }),
      expected: pod({ containers: [] }),
      changes: [],
    },
    {
      name: 'malformed entries are skipped, not crashed on',
      pod: pod({
        containers: [
          null,
          'x',
          { name: 'ok', imagePullPolicy: 'Always', resources: { requests: { cpu: '1', memory: '1Gi' } } },
        ],
      }),
      expected: pod({
        containers: [
          null,
          'x',
          { name: 'ok', imagePullPolicy: 'Always', resources: { requests: { cpu: '1', memory: '1Gi' } } },
        ],
      }),
      changes: [],
    },
    {
      name: 'a pod without spec is returned unchanged',
      pod: { kind: 'Pod', metadata: { name: 'p' } },
      expected: { kind: 'Pod', metadata: { name: 'p' } },
      changes: [],
    },
    {
      name: 'a non-object is returned unchanged',
      pod: 'not a pod',
      expected: 'not a pod',
      changes: [],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const before = structuredClone(c.pod);
      const result = applyPodDefaults(c.pod, c.namespace, c.defaults ?? defaults);
      expect(result.pod).toEqual(c.expected);
      expect(result.changes).toEqual(c.changes);
      expect(c.pod).toEqual(before); // the input is never mutated
      if (c.changes.length === 0) expect(result.pod).toBe(c.pod);
    });
  }

  for (const c of cases) {
    it(`idempotent: ${c.name}`, () => {
      const once = applyPodDefaults(c.pod, c.namespace, c.defaults ?? defaults);
      const twice = applyPodDefaults(once.pod, c.namespace, c.defaults ?? defaults);
      expect(twice.changes).toEqual([]);
      expect(twice.pod).toBe(once.pod);
    });
  }

  it('reinvocation after another hook added a container defaults only the new one', () => {
    const first = applyPodDefaults(pod({ containers: [{ name: 'app' }] }), 'payments', defaults).pod as {
      spec: { containers: JsonValue[] };
    };
    // A later hook (e.g. a sidecar injector) appends a container, so the gateway reinvokes us.
    const withSidecar = structuredClone(first);
    withSidecar.spec.containers.push({ name: 'sidecar', imagePullPolicy: 'Always' });
    const second = applyPodDefaults(withSidecar as unknown as JsonValue, 'payments', defaults);
    expect(second.changes).toEqual([
      'spec.containers[sidecar].resources.requests.cpu',
      'spec.containers[sidecar].resources.requests.memory',
    ]);
    expect((second.pod as { spec: { containers: JsonValue[] } }).spec.containers[0]).toEqual(first.spec.containers[0]);
  });
});

describe('decidePodDefaults', () => {
  const object = pod({ containers: [{ name: 'app' }] });
  const cases: { name: string; request: PodRequest; changed: boolean }[] = [
    {
      name: 'Pod CREATE is defaulted',
      request: { operation: 'CREATE', kind: { group: '', kind: 'Pod' }, namespace: 'payments', object },
      changed: true,
    },
    {
      name: 'Pod UPDATE is left alone (containers are immutable)',
      request: { operation: 'UPDATE', kind: { group: '', kind: 'Pod' }, namespace: 'payments', object },
      changed: false,
    },
    {
      name: 'a pod subresource is left alone',
      request: { operation: 'CREATE', kind: { group: '', kind: 'Pod' }, subResource: 'binding', object },
      changed: false,
    },
    {
      name: 'another kind is left alone',
      request: { operation: 'CREATE', kind: { group: 'apps', kind: 'Deployment' }, object },
      changed: false,
    },
    {
      name: 'a kind named Pod in another group is left alone',
      request: { operation: 'CREATE', kind: { group: 'example.com', kind: 'Pod' }, object },
      changed: false,
    },
    {
      name: 'DELETE without object is left alone',
      request: { operation: 'DELETE', kind: { group: '', kind: 'Pod' } },
      changed: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(decidePodDefaults(c.request, defaults).changes.length > 0).toBe(c.changed);
    });
  }
});
