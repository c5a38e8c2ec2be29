import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@hookgate/admission';
import {
  RETRY_TERMINATING_MS,
  RETRY_UNKNOWN_MS,
  describeOwner,
  planAdmission,
  planReconcile,
  type LedgerConfig,
  type LedgerRequest,
  type ReconcileOutcome,
  type ReconcileStep,
  type ReleasePayload,
  type ReservationPayload,
} from './decide.js';

const HOST = 'ledger.hookgate.dev/hostname';
const SLOT = 'quota.example.com/slot';
const config: LedgerConfig = {
  keyPrefix: 'p:',
  ledgers: [
    {
      name: 'hostnames',
      kinds: [{ group: 'networking.k8s.io', kind: 'Ingress' }],
      annotation: HOST,
      scope: 'Cluster',
      lowercase: true,
    },
    { name: 'slots', kinds: [{ group: '*', kind: '*' }], annotation: SLOT, scope: 'Namespace', lowercase: false },
  ],
};

const obj = (annotations: Record<string, string> | undefined, name = 'web'): JsonValue => ({
  metadata: { name, ...(annotations ? { annotations } : {}) },
});
const request = (r: Partial<LedgerRequest>): LedgerRequest => ({
  uid: 'u1',
  operation: 'CREATE',
  kind: { group: 'networking.k8s.io', kind: 'Ingress' },
  namespace: 'shop',
  name: 'web',
  ...r,
});
const keys = (claims: { key: string }[]): string[] => claims.map((c) => c.key);

describe('planAdmission', () => {
  const cases: { name: string; request: LedgerRequest; owner: string; claims: string[]; releases: string[] }[] = [
    {
      name: 'CREATE claims the (trimmed, lowercased) hostname cluster-wide',
      request: request({ object: obj({ [HOST]: ' Shop.Example.COM ' }) }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: ['hostnames/shop.example.com'],
      releases: [],
    },
    {
      name: 'a namespace-scoped ledger keys by namespace and keeps case',
      request: request({ object: obj({ [SLOT]: 'Gold-1' }) }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: ['slots/shop/Gold-1'],
      releases: [],
    },
    {
      name: 'one object may claim in several ledgers',
      request: request({ object: obj({ [HOST]: 'a.example.com', [SLOT]: 's1' }) }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: ['hostnames/a.example.com', 'slots/shop/s1'],
      releases: [],
    },
    {
      name: 'no annotation, nothing to claim',
      request: request({ object: obj(undefined) }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: [],
      releases: [],
    },
    {
      name: 'an empty value is no value',
      request: request({ object: obj({ [HOST]: '  ' }) }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: [],
      releases: [],
    },
    {
      name: 'a kind outside the ledger is ignored (hostnames is for Ingress only)',
      request: request({
        kind: { group: '', kind: 'Service' },
        object: obj({ [HOST]: 'a.example.com', [SLOT]: 's1' }),
      }),
      owner: '/Service/shop/web',
      claims: ['slots/shop/s1'],
      releases: [],
    },
    {
      name: 'generateName: the owner is the admission until the object has a name',
      request: request({
        name: '',
        object: { metadata: { generateName: 'web-', annotations: { [HOST]: 'g.example.com' } } },
      }),
      owner: 'generated:u1',
      claims: ['hostnames/g.example.com'],
      releases: [],
    },
    {
      name: 'a cluster-scoped object in a namespace-scoped ledger',
      request: request({
        kind: { group: '', kind: 'PersistentVolume' },
        namespace: '',
        name: 'pv1',
        object: obj({ [SLOT]: 's1' }, 'pv1'),
      }),
      owner: '/PersistentVolume//pv1',
      claims: ['slots/_cluster/s1'],
      releases: [],
    },
    {
      name: 'UPDATE with the same value claims nothing (already held)',
      request: request({
        operation: 'UPDATE',
        object: obj({ [HOST]: 'a.example.com' }),
        oldObject: obj({ [HOST]: 'A.example.com' }),
      }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: [],
      releases: [],
    },
    {
      name: 'UPDATE to another value claims the new and releases the old',
      request: request({
        operation: 'UPDATE',
        object: obj({ [HOST]: 'b.example.com' }),
        oldObject: obj({ [HOST]: 'a.example.com' }),
      }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: ['hostnames/b.example.com'],
      releases: ['hostnames/a.example.com'],
    },
    {
      name: 'UPDATE adding the annotation claims it',
      request: request({ operation: 'UPDATE', object: obj({ [HOST]: 'b.example.com' }), oldObject: obj(undefined) }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: ['hostnames/b.example.com'],
      releases: [],
    },
    {
      name: 'UPDATE removing the annotation releases it',
      request: request({ operation: 'UPDATE', object: obj(undefined), oldObject: obj({ [HOST]: 'a.example.com' }) }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: [],
      releases: ['hostnames/a.example.com'],
    },
    {
      name: 'DELETE releases every value of the old object',
      request: request({
        operation: 'DELETE',
        object: null,
        oldObject: obj({ [HOST]: 'a.example.com', [SLOT]: 's1' }),
      }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: [],
      releases: ['hostnames/a.example.com', 'slots/shop/s1'],
    },
    {
      name: 'a subresource request is ignored',
      request: request({
        operation: 'UPDATE',
        subResource: 'status',
        object: obj({ [HOST]: 'b.example.com' }),
        oldObject: obj({ [HOST]: 'a.example.com' }),
      }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: [],
      releases: [],
    },
    {
      name: 'CONNECT is ignored',
      request: request({ operation: 'CONNECT', object: obj({ [HOST]: 'a' }) }),
      owner: 'networking.k8s.io/Ingress/shop/web',
      claims: [],
      releases: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planAdmission(c.request, config);
      expect(plan.owner).toBe(c.owner);
      expect(keys(plan.claims)).toEqual(c.claims);
      expect(keys(plan.releases)).toEqual(c.releases);
    });
  }

  it('is a pure function: the same request plans the same claims (reinvocation, retries)', () => {
    const r = request({ object: obj({ [HOST]: 'a.example.com' }) });
    expect(planAdmission(r, config)).toEqual(planAdmission(r, config));
  });
});

describe('planReconcile', () => {
  const reservation: ReservationPayload = {
    token: 'u1',
    owner: 'generated:u1',
    group: 'networking.k8s.io',
    kind: 'Ingress',
    namespace: 'shop',
    annotation: HOST,
    value: 'a.example.com',
    lowercase: true,
  };
  const release: ReleasePayload = {
    owner: 'networking.k8s.io/Ingress/shop/web',
    annotation: HOST,
    value: 'a.example.com',
    lowercase: true,
  };
  const carrying = obj({ [HOST]: 'A.example.com' }, 'web-x7k2');
  const notCarrying = obj({ [HOST]: 'b.example.com' }, 'web-x7k2');
  const terminating: JsonValue = {
    metadata: { name: 'web', deletionTimestamp: '2026-01-01T00:00:00Z', annotations: { [HOST]: 'a.example.com' } },
  };

  const cases: {
    name: string;
    kind: string;
    payload: ReservationPayload | ReleasePayload;
    outcome: ReconcileOutcome;
    current: JsonValue | undefined;
    step: ReconcileStep;
  }[] = [
    {
      name: 'reservation PERSISTED: confirm under the real identity, restore allowed while the object carries the value',
      kind: 'reservation',
      payload: reservation,
      outcome: 'PERSISTED',
      current: carrying,
      step: { action: 'confirm', token: 'u1', identity: 'networking.k8s.io/Ingress/shop/web-x7k2', restore: true },
    },
    {
      name: 'reservation PERSISTED but the object moved on: confirm, never restore',
      kind: 'reservation',
      payload: reservation,
      outcome: 'PERSISTED',
      current: notCarrying,
      step: { action: 'confirm', token: 'u1', identity: 'networking.k8s.io/Ingress/shop/web-x7k2', restore: false },
    },
    {
      name: 'reservation PERSISTED with the object gone since: confirm without identity',
      kind: 'reservation',
      payload: reservation,
      outcome: 'PERSISTED',
      current: undefined,
      step: { action: 'confirm', token: 'u1', identity: undefined, restore: false },
    },
    {
      name: 'reservation NOT_PERSISTED: drop this claim',
      kind: 'reservation',
      payload: reservation,
      outcome: 'NOT_PERSISTED',
      current: undefined,
      step: { action: 'release-claim', token: 'u1' },
    },
    {
      name: 'reservation UNKNOWN: retry later',
      kind: 'reservation',
      payload: reservation,
      outcome: 'UNKNOWN',
      current: carrying,
      step: {
        action: 'retry',
        reason: 'the outcome of the admission is not known yet',
        retryAfterMs: RETRY_UNKNOWN_MS,
      },
    },
    {
      name: 'release PERSISTED, object gone: release',
      kind: 'release',
      payload: release,
      outcome: 'PERSISTED',
      current: undefined,
      step: { action: 'release-owned', owner: release.owner },
    },
    {
      name: 'release PERSISTED, object carries another value: release',
      kind: 'release',
      payload: release,
      outcome: 'PERSISTED',
      current: notCarrying,
      step: { action: 'release-owned', owner: release.owner },
    },
    {
      name: 'release PERSISTED, object carries the value again: keep',
      kind: 'release',
      payload: release,
      outcome: 'PERSISTED',
      current: carrying,
      step: { action: 'done', reason: 'the object carries the value again: the reservation stays' },
    },
    {
      name: 'release PERSISTED, object terminating: retry until it is gone',
      kind: 'release',
      payload: release,
      outcome: 'PERSISTED',
      current: terminating,
      step: {
        action: 'retry',
        reason: 'the object is being deleted (finalizers pending)',
        retryAfterMs: RETRY_TERMINATING_MS,
      },
    },
    {
      name: 'release NOT_PERSISTED: nothing changed, nothing to do',
      kind: 'release',
      payload: release,
      outcome: 'NOT_PERSISTED',
      current: carrying,
      step: { action: 'done', reason: 'the change was not persisted: the object keeps its value' },
    },
    {
      name: 'release UNKNOWN: retry later',
      kind: 'release',
      payload: release,
      outcome: 'UNKNOWN',
      current: undefined,
      step: {
        action: 'retry',
        reason: 'the outcome of the admission is not known yet',
        retryAfterMs: RETRY_UNKNOWN_MS,
      },
    },
    {
      name: 'an unknown side effect kind is done',
      kind: 'quota',
      payload: release,
      outcome: 'PERSISTED',
      current: undefined,
      step: { action: 'done', reason: 'unknown side effect kind "quota": nothing to do' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(planReconcile(c.kind, c.payload, c.outcome, c.current)).toEqual(c.step);
    });
  }
});

describe('describeOwner', () => {
  const cases: { name: string; owner: string; requester: string; text: string }[] = [
    {
      name: 'same namespace: named',
      owner: 'networking.k8s.io/Ingress/shop/web',
      requester: 'shop',
      text: 'Ingress shop/web',
    },
    {
      name: 'another namespace: not named',
      owner: 'networking.k8s.io/Ingress/other/web',
      requester: 'shop',
      text: 'an Ingress in another namespace',
    },
    {
      name: 'another namespace, consonant',
      owner: '/Service/other/web',
      requester: 'shop',
      text: 'a Service in another namespace',
    },
    { name: 'cluster-scoped: named', owner: '/PersistentVolume//pv1', requester: 'shop', text: 'PersistentVolume pv1' },
    { name: 'an object being created', owner: 'generated:u9', requester: 'shop', text: 'an object being created' },
    { name: 'malformed', owner: 'x', requester: 'shop', text: 'another object' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(describeOwner(c.owner, c.requester)).toBe(c.text);
    });
  }
});
