/**
 * The ledger served by the SDK on a real unix socket, called over gRPC (Admit, AdmitStream,
 * Reconcile) as the gateway and the controller will, against real Redis.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { Redis } from 'ioredis';
import type { AdmissionRequest, JsonValue } from '@hookgate/admission';
import type { AdmitResponse__Output, ReconcileRequest } from '@hookgate/proto';
import { parseLedgerConfig } from './config.js';
import { buildLedgerPlugin } from './plugin.js';
import { createLedgerStore, type LedgerStore } from './store.js';
import { RETRY_TERMINATING_MS, RETRY_UNKNOWN_MS } from './decide.js';
import {
  admit,
  admitMessage,
  admitStream,
  parseJson,
  reconcile,
  serveOnUnixSocket,
  type ServedPlugin,
} from '@hookgate/plugin-sdk/testing';
import { deletePrefix, openTestRedis, uniquePrefix, type TestRedis } from '../test/redis.js';

const HOOK = 'ledger.hookgate.dev';
const ANNOTATION = 'ledger.hookgate.dev/hostname';
const config = parseLedgerConfig(
  `
ledgers:
  - name: hostnames
    kinds: [networking.k8s.io/Ingress]
    annotation: ${ANNOTATION}
    lowercase: true
`,
  'test.yaml',
);

function ingress(name: string, host: string | undefined, extra: Record<string, JsonValue> = {}): JsonValue {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name,
      namespace: 'shop',
      ...(host !== undefined ? { annotations: { [ANNOTATION]: host } } : {}),
      ...extra,
    },
    spec: {},
  };
}

function ingressRequest(
  operation: 'CREATE' | 'UPDATE' | 'DELETE',
  name: string,
  object: JsonValue,
  oldObject: JsonValue = null,
  dryRun = false,
): AdmissionRequest {
  return {
    uid: randomUUID(),
    kind: { group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' },
    resource: { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' },
    name,
    namespace: 'shop',
    operation,
    userInfo: { username: 'alice' },
    object,
    oldObject,
    dryRun,
  };
}

function reconcileMessage(
  response: AdmitResponse__Output,
  index: number,
  outcome: 'PERSISTED' | 'NOT_PERSISTED' | 'UNKNOWN',
  current: JsonValue | undefined,
): ReconcileRequest {
  const sideEffect = response.sideEffects[index]!;
  return {
    hook: HOOK,
    sideEffect: { kind: sideEffect.kind, key: sideEffect.key, payload: sideEffect.payload },
    outcome,
    object: current === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(current)),
    admission: {
      uid: response.uid,
      operation: 'CREATE',
      group: 'networking.k8s.io',
      version: 'v1',
      resource: 'ingresses',
      namespace: 'shop',
      name: 'web',
      allowed: true,
    },
    attempt: 1,
  };
}

describe('ledger plugin over gRPC (real Redis)', () => {
  let testRedis: TestRedis;
  let redis: Redis;
  let prefix: string;
  let store: LedgerStore;
  let served: ServedPlugin;

  beforeAll(async () => {
    testRedis = await openTestRedis();
    redis = testRedis.redis;
  });
  afterAll(async () => {
    await testRedis.close();
  });
  beforeEach(async () => {
    prefix = uniquePrefix();
    store = createLedgerStore(redis, { keyPrefix: prefix, pendingTtlMs: 60_000 });
    served = await serveOnUnixSocket(buildLedgerPlugin({ config, store }));
  });
  afterEach(async () => {
    await served.close();
    await deletePrefix(redis, prefix);
  });

  const validate = (request: AdmissionRequest): Promise<AdmitResponse__Output> =>
    admit(served.client, admitMessage(HOOK, 'VALIDATING', request));

  it('CREATE reserves the value and reports one reservation side effect', async () => {
    const response = await validate(ingressRequest('CREATE', 'web', ingress('web', 'Shop.Example.com')));
    expect(response.allowed).toBe(true);
    expect(response.sideEffects.map((s) => [s.kind, s.key])).toEqual([['reservation', 'hostnames/shop.example.com']]);
    expect(parseJson(response.sideEffects[0]!.payload)).toMatchObject({
      owner: 'networking.k8s.io/Ingress/shop/web',
      token: response.uid,
      value: 'shop.example.com',
    });
    expect(await store.inspect('hostnames/shop.example.com')).toMatchObject({
      owner: 'networking.k8s.io/Ingress/shop/web',
      state: 'pending',
      tokens: [response.uid],
    });
  });

  it('a duplicate is denied with 409, naming the value and the holder', async () => {
    await validate(ingressRequest('CREATE', 'web', ingress('web', 'shop.example.com')));
    const response = await validate(ingressRequest('CREATE', 'web2', ingress('web2', 'SHOP.example.com ')));
    expect(response.allowed).toBe(false);
    expect(response.status).toEqual({
      code: 409,
      reason: 'Conflict',
      message:
        'Ingress "shop/web2": "shop.example.com" (annotation ledger.hookgate.dev/hostname) is already reserved in ledger "hostnames" by Ingress shop/web; choose another value',
    });
    expect(response.sideEffects).toEqual([]);
  });

  it('dryRun checks but reserves nothing and reports nothing', async () => {
    const dry = await validate(ingressRequest('CREATE', 'web', ingress('web', 'dry.example.com'), null, true));
    expect(dry.allowed).toBe(true);
    expect(dry.sideEffects).toEqual([]);
    expect(await store.inspect('hostnames/dry.example.com')).toBeUndefined();

    await validate(ingressRequest('CREATE', 'other', ingress('other', 'dry.example.com')));
    const dryDuplicate = await validate(ingressRequest('CREATE', 'web', ingress('web', 'dry.example.com'), null, true));
    expect(dryDuplicate.allowed).toBe(false);
    expect(dryDuplicate.status?.code).toBe(409);
  });

  it('objects without the annotation, and other kinds, are allowed untouched', async () => {
    const response = await validate(ingressRequest('CREATE', 'web', ingress('web', undefined)));
    expect(response.allowed).toBe(true);
    expect(response.sideEffects).toEqual([]);
    const pod = await validate({
      ...ingressRequest('CREATE', 'p', ingress('p', 'x.example.com')),
      kind: { group: '', version: 'v1', kind: 'Pod' },
    });
    expect(pod.sideEffects).toEqual([]);
  });

  it('Reconcile NOT_PERSISTED releases the reservation; replaying it is harmless', async () => {
    const response = await validate(ingressRequest('CREATE', 'web', ingress('web', 'gone.example.com')));
    const first = await reconcile(served.client, reconcileMessage(response, 0, 'NOT_PERSISTED', undefined));
    expect(first).toEqual({
      done: true,
      message: 'ledger: hostnames/gone.example.com: reservation released (the object was not persisted)',
      retryAfterMs: 0,
    });
    expect(await store.inspect('hostnames/gone.example.com')).toBeUndefined();
    const again = await reconcile(served.client, reconcileMessage(response, 0, 'NOT_PERSISTED', undefined));
    expect(again.done).toBe(true);
    expect(again.message).toContain('nothing to do');
  });

  it('Reconcile NOT_PERSISTED never releases a value another object reserved since', async () => {
    const lost = await validate(ingressRequest('CREATE', 'web', ingress('web', 'busy.example.com')));
    await reconcile(served.client, reconcileMessage(lost, 0, 'NOT_PERSISTED', undefined));
    const winner = await validate(ingressRequest('CREATE', 'web2', ingress('web2', 'busy.example.com')));
    expect(winner.allowed).toBe(true);
    const replay = await reconcile(served.client, reconcileMessage(lost, 0, 'NOT_PERSISTED', undefined));
    expect(replay.done).toBe(true);
    expect(await store.inspect('hostnames/busy.example.com')).toMatchObject({
      owner: 'networking.k8s.io/Ingress/shop/web2',
      state: 'pending',
    });
  });

  it('Reconcile PERSISTED confirms (no expiry); replaying it changes nothing', async () => {
    const object = ingress('web', 'kept.example.com');
    const response = await validate(ingressRequest('CREATE', 'web', object));
    const first = await reconcile(served.client, reconcileMessage(response, 0, 'PERSISTED', object));
    expect(first).toEqual({
      done: true,
      message: 'ledger: hostnames/kept.example.com: reservation confirmed',
      retryAfterMs: 0,
    });
    expect(await store.inspect('hostnames/kept.example.com')).toMatchObject({
      state: 'confirmed',
      tokens: [],
      ttlMs: -1,
    });
    const again = await reconcile(served.client, reconcileMessage(response, 0, 'PERSISTED', object));
    expect(again.message).toBe('ledger: hostnames/kept.example.com: already settled; nothing changed');
    expect(await store.inspect('hostnames/kept.example.com')).toMatchObject({ state: 'confirmed', tokens: [] });
  });

  it('Reconcile UNKNOWN keeps the reservation and asks to retry later', async () => {
    const response = await validate(ingressRequest('CREATE', 'web', ingress('web', 'unsure.example.com')));
    const answer = await reconcile(served.client, reconcileMessage(response, 0, 'UNKNOWN', undefined));
    expect(answer).toEqual({
      done: false,
      message: 'ledger: hostnames/unsure.example.com: the outcome of the admission is not known yet',
      retryAfterMs: RETRY_UNKNOWN_MS,
    });
    expect(await store.inspect('hostnames/unsure.example.com')).toMatchObject({ state: 'pending' });
  });

  it('UPDATE to another value claims the new one and releases the old one once persisted', async () => {
    const v1 = ingress('web', 'old.example.com');
    const created = await validate(ingressRequest('CREATE', 'web', v1));
    await reconcile(served.client, reconcileMessage(created, 0, 'PERSISTED', v1));

    const v2 = ingress('web', 'new.example.com');
    const updated = await validate(ingressRequest('UPDATE', 'web', v2, v1));
    expect(updated.sideEffects.map((s) => [s.kind, s.key])).toEqual([
      ['reservation', 'hostnames/new.example.com'],
      ['release', 'hostnames/old.example.com'],
    ]);
    // The old value stays reserved until the controller knows the update was persisted.
    expect(await store.inspect('hostnames/old.example.com')).toMatchObject({ state: 'confirmed' });
    const release = await reconcile(served.client, reconcileMessage(updated, 1, 'PERSISTED', v2));
    expect(release.message).toBe('ledger: hostnames/old.example.com: value released (the object gave it up)');
    expect(await store.inspect('hostnames/old.example.com')).toBeUndefined();
    await reconcile(served.client, reconcileMessage(updated, 0, 'PERSISTED', v2));
    expect(await store.inspect('hostnames/new.example.com')).toMatchObject({ state: 'confirmed' });
  });

  it('UPDATE that keeps the value claims and releases nothing', async () => {
    const v1 = ingress('web', 'same.example.com');
    const response = await validate(ingressRequest('UPDATE', 'web', { ...(v1 as object), spec: { rules: [] } }, v1));
    expect(response.allowed).toBe(true);
    expect(response.sideEffects).toEqual([]);
  });

  it('DELETE releases the value only once the object is gone (not while finalizers are pending)', async () => {
    const object = ingress('web', 'bye.example.com');
    const created = await validate(ingressRequest('CREATE', 'web', object));
    await reconcile(served.client, reconcileMessage(created, 0, 'PERSISTED', object));
    const deleted = await validate(ingressRequest('DELETE', 'web', null, object));
    expect(deleted.sideEffects.map((s) => [s.kind, s.key])).toEqual([['release', 'hostnames/bye.example.com']]);

    const terminating = ingress('web', 'bye.example.com', { deletionTimestamp: '2026-01-01T00:00:00Z' });
    const wait = await reconcile(served.client, reconcileMessage(deleted, 0, 'PERSISTED', terminating));
    expect(wait).toMatchObject({ done: false, retryAfterMs: RETRY_TERMINATING_MS });
    expect(await store.inspect('hostnames/bye.example.com')).toBeDefined();

    const gone = await reconcile(served.client, reconcileMessage(deleted, 0, 'PERSISTED', undefined));
    expect(gone.done).toBe(true);
    expect(await store.inspect('hostnames/bye.example.com')).toBeUndefined();
  });

  it('a DELETE that was not persisted keeps the value', async () => {
    const object = ingress('web', 'stay.example.com');
    const created = await validate(ingressRequest('CREATE', 'web', object));
    await reconcile(served.client, reconcileMessage(created, 0, 'PERSISTED', object));
    const deleted = await validate(ingressRequest('DELETE', 'web', null, object));
    const answer = await reconcile(served.client, reconcileMessage(deleted, 0, 'NOT_PERSISTED', object));
    expect(answer.done).toBe(true);
    expect(await store.inspect('hostnames/stay.example.com')).toMatchObject({ state: 'confirmed' });
  });

  it('AdmitStream: concurrent claims of one value on one stream, exactly one wins', async () => {
    const messages = Array.from({ length: 8 }, (_, i) =>
      admitMessage(HOOK, 'VALIDATING', ingressRequest('CREATE', `web-${i}`, ingress(`web-${i}`, 'race.example.com')), {
        id: i + 1,
      }),
    );
    const answers = await admitStream(served.client, messages);
    expect(answers.size).toBe(8);
    const allowed = [...answers.values()].filter((a) => a.allowed);
    expect(allowed).toHaveLength(1);
    expect([...answers.values()].filter((a) => !a.allowed).every((a) => a.status?.code === 409)).toBe(true);
  });

  it('Redis unavailable: the call fails as a hook error (the failurePolicy decides), the plugin keeps serving', async () => {
    const broken = new Redis(testRedis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const brokenServed = await serveOnUnixSocket(
      buildLedgerPlugin({ config, store: createLedgerStore(broken, { keyPrefix: prefix, pendingTtlMs: 60_000 }) }),
    );
    try {
      const error = await admit(
        brokenServed.client,
        admitMessage(HOOK, 'VALIDATING', ingressRequest('CREATE', 'web', ingress('web', 'x.example.com'))),
      ).then(
        () => undefined,
        (e: grpc.ServiceError) => e,
      );
      expect(error?.code).toBe(grpc.status.INTERNAL);
      expect(error?.details).toMatch(/^hook "ledger.hookgate.dev" failed: /);
      const healthy = await validate(ingressRequest('CREATE', 'web', ingress('web', 'x.example.com')));
      expect(healthy.allowed).toBe(true);
    } finally {
      await brokenServed.close();
      broken.disconnect();
    }
  });
});
