/** pod-defaults served by the SDK on a real unix socket, called over gRPC (Admit, AdmitStream) as the gateway does. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fastJsonPatch from 'fast-json-patch';
import type { AdmissionRequest, JsonValue } from '@hookgate/admission';
import { podAdmissionRequest } from '@hookgate/admission/testing';
import { parsePodDefaultsConfig } from './config.js';
import { buildPodDefaultsPlugin, DEFAULT_HOOK } from './plugin.js';
import {
  admit,
  admitMessage,
  admitStream,
  parseJson,
  serveOnUnixSocket,
  type ServedPlugin,
} from '@hookgate/plugin-sdk/testing';

const defaults = parsePodDefaultsConfig(
  `
imagePullPolicy: IfNotPresent
resources: { requests: { cpu: 50m, memory: 64Mi } }
namespaceLabels: { shop: { team: shop } }
fromNamespace: { labels: [team] }
`,
  'test.yaml',
);

function podRequest(uid: string, pod: JsonValue, operation: 'CREATE' | 'UPDATE' = 'CREATE'): AdmissionRequest {
  return podAdmissionRequest({
    uid,
    name: 'web-0',
    namespace: 'shop',
    operation,
    object: pod,
    oldObject: operation === 'UPDATE' ? pod : null,
  });
}

const bare: JsonValue = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-0', namespace: 'shop' },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
};
const defaulted: JsonValue = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-0', namespace: 'shop', labels: { team: 'shop' } },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1.27',
        imagePullPolicy: 'IfNotPresent',
        resources: { requests: { cpu: '50m', memory: '64Mi' } },
      },
    ],
  },
};

function applyPatch(object: JsonValue, patch: Buffer): JsonValue {
  const ops = parseJson(patch) as fastJsonPatch.Operation[];
  return fastJsonPatch.applyPatch(structuredClone(object), ops, true, false).newDocument as JsonValue;
}

describe('pod-defaults over gRPC', () => {
  let served: ServedPlugin;
  beforeAll(async () => {
    served = await serveOnUnixSocket(buildPodDefaultsPlugin({ defaults }));
  });
  afterAll(async () => {
    await served.close();
  });

  it('Admit answers a JSON Patch that applies the defaults, and says what it defaulted in the audit', async () => {
    const response = await admit(served.client, admitMessage(DEFAULT_HOOK, 'MUTATING', podRequest('u1', bare)));
    expect(response.allowed).toBe(true);
    expect(response.uid).toBe('u1');
    expect(applyPatch(bare, response.patch)).toEqual(defaulted);
    expect(response.auditAnnotations).toEqual({
      defaulted:
        'spec.containers[web].imagePullPolicy,spec.containers[web].resources.requests.cpu,spec.containers[web].resources.requests.memory,metadata.labels[team]',
    });
  });

  it('reinvocation (round 1) on the defaulted pod changes nothing', async () => {
    const response = await admit(
      served.client,
      admitMessage(DEFAULT_HOOK, 'MUTATING', podRequest('u2', defaulted), { round: 1 }),
    );
    expect(response.allowed).toBe(true);
    expect(response.patch.length).toBe(0);
    expect(response.auditAnnotations).toEqual({});
  });

  it('base_request + patch: the plugin sees the object as patched so far and defaults only what is still absent', async () => {
    // The gateway forwards the original bytes and the patch of earlier hooks (here: a sidecar injector).
    const sidecar = [
      { op: 'add', path: '/spec/containers/-', value: { name: 'proxy', image: 'envoy:1', imagePullPolicy: 'Always' } },
    ];
    const response = await admit(served.client, {
      hook: DEFAULT_HOOK,
      phase: 'MUTATING',
      uid: 'u3',
      baseRequest: Buffer.from(JSON.stringify(podRequest('u3', defaulted))),
      patch: Buffer.from(JSON.stringify(sidecar)),
    });
    const current = applyPatch(defaulted, Buffer.from(JSON.stringify(sidecar)));
    const after = applyPatch(current, response.patch) as { spec: { containers: JsonValue[] } };
    expect(after.spec.containers[1]).toEqual({
      name: 'proxy',
      image: 'envoy:1',
      imagePullPolicy: 'Always',
      resources: { requests: { cpu: '50m', memory: '64Mi' } },
    });
  });

  it('AdmitStream answers each message by id: CREATE patched, defaulted pod untouched, UPDATE untouched', async () => {
    const answers = await admitStream(served.client, [
      admitMessage(DEFAULT_HOOK, 'MUTATING', podRequest('a', bare), { id: 1 }),
      admitMessage(DEFAULT_HOOK, 'MUTATING', podRequest('b', defaulted), { id: 2 }),
      admitMessage(DEFAULT_HOOK, 'MUTATING', podRequest('c', bare, 'UPDATE'), { id: 3 }),
    ]);
    expect([...answers.keys()].sort()).toEqual([1, 2, 3]);
    expect(applyPatch(bare, answers.get(1)!.patch)).toEqual(defaulted);
    expect(answers.get(2)!.patch.length).toBe(0);
    expect(answers.get(3)!.patch.length).toBe(0);
    expect([...answers.values()].every((a) => a.allowed && a.error === null)).toBe(true);
  });
});
