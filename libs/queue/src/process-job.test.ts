/**
 * processJob end to end without Redis: an in-memory apiserver read (the one thing faked), and real
 * SDK plugins on unix sockets reached through the real PluginClient (pluginClientReconciler).
 * Each case is a job, what an earlier run left, the clock, what the reads return, and what the
 * worker is told to do; the plugin's view of the call is checked where it was called.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPluginClient, type PluginClient } from '@hookgate/plugin-client';
import { definePlugin, servePlugin, type PluginServer, type ReconcileRequest } from '@hookgate/plugin-sdk';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import type { ObservedObject } from './decide-persistence.js';
import type { SideEffectJob } from './job-schema.js';
import type { ObjectRef, ReadUnavailable } from './object-reader.js';
import { pluginClientReconciler } from './plugin-reconciler.js';
import { processJob, type ProcessJobDeps } from './process-job.js';
import { SAMPLE_TIME, sampleJob } from './testing/sample-job.js';

const T0 = SAMPLE_TIME;
const TIMING = { gracePeriodMs: 10_000, confirmDelayMs: 90_000, unavailableDelayMs: 5_000 };
const AFTER_GRACE = T0 + 12_000;

const seen: ReconcileRequest[] = [];

/** The ledger: what it answers depends on the effect's kind. */
const ledger = definePlugin({
  name: 'ledger',
  hooks: { 'claims.ledger.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
  reconcile(request) {
    seen.push(request);
    switch (request.sideEffect.kind) {
      case 'busy':
        return { done: false, message: 'ledger busy', retryAfterMs: 1500 };
      case 'later':
        return { done: false, message: 'claim still settling' };
      case 'broken':
        throw new Error('ledger database unreachable');
      default:
        return { done: true, message: `claim ${request.sideEffect.key} ${request.outcome}` };
    }
  },
});

const admitOnly = definePlugin({
  name: 'admit-only',
  hooks: { 'labels.example.com': { phase: 'validating', validate: () => ({ allowed: true }) } },
});

/** The shared sample job (ledger, validating CREATE of deployments.apps shop/web, at T0). */
const job = sampleJob;

const stored = (overrides: Partial<ObservedObject> = {}): ObservedObject => ({
  uid: 'u-1',
  name: 'web',
  resourceVersion: '7',
  ...overrides,
});
const unavailable = (retryAfterMs?: number): ReadUnavailable => ({
  kind: 'unavailable',
  reason: 'GET /apis/apps/v1/namespaces/shop/deployments/web: HTTP 503',
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
});
type Read = ObservedObject | 'absent' | ReadUnavailable | Error;

interface Case {
  readonly name: string;
  readonly data: unknown;
  readonly state?: unknown;
  readonly now: number;
  /** What the one read returns; absent when the case must not read. */
  readonly read?: Read;
  readonly attempt?: number;
  readonly want: Record<string, unknown>;
  /** The reason contains this. */
  readonly reasonHas?: string;
  /** What the plugin received (outcome, attempt); absent when it must not be called. */
  readonly plugin?: { readonly outcome: string; readonly attempt: number };
}

const confirming = { stage: 'confirming', confirmAt: AFTER_GRACE + 90_000, rule: 'create-absent' } as const;

const cases: Case[] = [
  {
    name: 'an undecodable job fails at once, unrecoverable, naming the field',
    data: { ...job(), admission: 'x' },
    now: AFTER_GRACE,
    want: { kind: 'fail' },
    reasonHas: 'job field admission: must be a JSON object',
  },
  {
    name: 'a request a later hook denied: NOT_PERSISTED at once, no read, even within the grace period',
    data: job({ decision: { allowed: false, by: 'hook', hook: 'later.example.com', code: 403 } }),
    now: T0 + 1,
    want: {
      kind: 'done',
      outcome: 'NOT_PERSISTED',
      rule: 'denied-by-gateway',
      message: 'claim shop/web NOT_PERSISTED',
    },
    plugin: { outcome: 'NOT_PERSISTED', attempt: 1 },
  },
  {
    name: 'a dryRun request: NOT_PERSISTED at once, no read',
    data: job({}, { dryRun: true }),
    now: T0 + 1,
    attempt: 3,
    want: { kind: 'done', outcome: 'NOT_PERSISTED', rule: 'dry-run' },
    plugin: { outcome: 'NOT_PERSISTED', attempt: 3 },
  },
  {
    name: 'within the grace period: delayed to its end, no attempt used, no read',
    data: job(),
    now: T0 + 4_000,
    want: { kind: 'delay', untilMs: T0 + 10_000, consumesAttempt: false },
    reasonHas: 'grace period',
  },
  {
    name: 'stored with the admitted uid: PERSISTED, the plugin told so',
    data: job(),
    now: AFTER_GRACE,
    read: stored(),
    want: { kind: 'done', outcome: 'PERSISTED', rule: 'create-stored', message: 'claim shop/web PERSISTED' },
    plugin: { outcome: 'PERSISTED', attempt: 1 },
  },
  {
    name: 'absent on the first read: delayed to the confirming read, state saved, plugin not told yet',
    data: job(),
    now: AFTER_GRACE,
    read: 'absent',
    want: {
      kind: 'delay',
      untilMs: AFTER_GRACE + 90_000,
      consumesAttempt: false,
      state: { stage: 'confirming', confirmAt: AFTER_GRACE + 90_000, rule: 'create-absent' },
    },
    reasonHas: 'reading again to confirm',
  },
  {
    name: 'woken before the confirming read is due: delayed again, no read',
    data: job(),
    state: confirming,
    now: AFTER_GRACE + 30_000,
    want: { kind: 'delay', untilMs: confirming.confirmAt, consumesAttempt: false, state: confirming },
  },
  {
    name: 'still absent on the confirming read: NOT_PERSISTED',
    data: job(),
    state: confirming,
    now: confirming.confirmAt,
    read: 'absent',
    want: { kind: 'done', outcome: 'NOT_PERSISTED', rule: 'create-absent' },
    plugin: { outcome: 'NOT_PERSISTED', attempt: 1 },
  },
  {
    name: 'a late write landed before the confirming read: PERSISTED',
    data: job(),
    state: confirming,
    now: confirming.confirmAt + 5,
    read: stored(),
    want: { kind: 'done', outcome: 'PERSISTED', rule: 'create-stored' },
    plugin: { outcome: 'PERSISTED', attempt: 1 },
  },
  {
    name: 'a replaced object (another uid) on an UPDATE: confirm later',
    data: job({}, { operation: 'UPDATE', oldObjectUid: 'u-1', oldObjectResourceVersion: '6' }),
    now: AFTER_GRACE,
    read: stored({ uid: 'u-2' }),
    want: {
      kind: 'delay',
      consumesAttempt: false,
      state: { stage: 'confirming', confirmAt: AFTER_GRACE + 90_000, rule: 'update-other-uid' },
    },
  },
  {
    name: 'the apiserver answers 503: delayed, no attempt used, the confirming stage kept',
    data: job(),
    state: confirming,
    now: confirming.confirmAt,
    read: unavailable(),
    want: { kind: 'delay', untilMs: confirming.confirmAt + 5_000, consumesAttempt: false, state: confirming },
    reasonHas: 'apiserver unavailable (GET /apis/apps/v1/namespaces/shop/deployments/web: HTTP 503)',
  },
  {
    name: 'the apiserver answers 429 with a retry hint: delayed by the hint',
    data: job(),
    now: AFTER_GRACE,
    read: unavailable(2_000),
    want: { kind: 'delay', untilMs: AFTER_GRACE + 2_000, consumesAttempt: false },
  },
  {
    name: 'the read fails otherwise (403): retried with an attempt, the reason says what to check',
    data: job(),
    now: AFTER_GRACE,
    read: new Error('GET /apis/apps/v1/namespaces/shop/deployments/web: HTTP 403: forbidden'),
    want: { kind: 'retry' },
    reasonHas: "check the controller's RBAC",
  },
  {
    name: 'the plugin asks to be called again later: delayed by its retry_after_ms, using an attempt',
    data: job({ effect: { kind: 'busy', key: 'shop/web' } }),
    now: AFTER_GRACE,
    read: stored(),
    attempt: 2,
    want: {
      kind: 'delay',
      untilMs: AFTER_GRACE + 1_500,
      consumesAttempt: true,
      state: { stage: 'settled', outcome: 'PERSISTED', rule: 'create-stored' },
    },
    reasonHas: 'said not done: ledger busy, retry after 1500 ms',
    plugin: { outcome: 'PERSISTED', attempt: 2 },
  },
  {
    name: 'the plugin says not done without a delay: retried with the backoff, the decision kept',
    data: job({ effect: { kind: 'later', key: 'shop/web' } }),
    now: confirming.confirmAt,
    read: 'absent',
    state: confirming,
    want: { kind: 'retry', state: { stage: 'settled', outcome: 'NOT_PERSISTED', rule: 'create-absent' } },
    reasonHas: 'said not done: claim still settling',
    plugin: { outcome: 'NOT_PERSISTED', attempt: 1 },
  },
  {
    name: 'a decision kept from an earlier run: no read, the plugin told it again',
    data: job(),
    state: { stage: 'settled', outcome: 'NOT_PERSISTED', rule: 'create-other-uid' },
    now: AFTER_GRACE,
    attempt: 4,
    want: { kind: 'done', outcome: 'NOT_PERSISTED', rule: 'create-other-uid' },
    plugin: { outcome: 'NOT_PERSISTED', attempt: 4 },
  },
  {
    name: 'a state this build did not write (outcome not the rule’s) is ignored: read again',
    data: job(),
    state: { stage: 'settled', outcome: 'PERSISTED', rule: 'create-absent' },
    now: AFTER_GRACE,
    read: stored(),
    want: { kind: 'done', outcome: 'PERSISTED', rule: 'create-stored' },
    plugin: { outcome: 'PERSISTED', attempt: 1 },
  },
  {
    name: 'the handler throws: retried with an attempt, the reason has the gRPC status',
    data: job({ effect: { kind: 'broken', key: 'shop/web' } }),
    now: AFTER_GRACE,
    read: stored(),
    want: { kind: 'retry', state: { stage: 'settled', outcome: 'PERSISTED', rule: 'create-stored' } },
    reasonHas: 'ledger database unreachable',
    plugin: { outcome: 'PERSISTED', attempt: 1 },
  },
  {
    name: 'a plugin without a reconcile handler: retried, the reason says to give it one',
    data: job({ plugin: 'admit-only' }),
    now: AFTER_GRACE,
    read: stored(),
    want: { kind: 'retry' },
    reasonHas: 'serves no Reconcile',
  },
  {
    name: 'a plugin this controller does not know: delayed, no attempt used',
    data: job({ plugin: 'unregistered' }),
    now: AFTER_GRACE,
    read: stored(),
    want: { kind: 'delay', untilMs: AFTER_GRACE + 5_000, consumesAttempt: false },
    reasonHas: 'no plugin named unregistered is known to this controller',
  },
  {
    name: 'a plugin that is down (no socket): delayed, no attempt used, the decision kept',
    data: job({ plugin: 'down' }),
    now: AFTER_GRACE,
    read: stored(),
    want: {
      kind: 'delay',
      untilMs: AFTER_GRACE + 5_000,
      consumesAttempt: false,
      state: { stage: 'settled', outcome: 'PERSISTED', rule: 'create-stored' },
    },
    reasonHas: 'plugin down is unreachable',
  },
];

describe('processJob: in-memory reads, real SDK plugins over unix sockets', () => {
  let tmp: TempDir;
  let servers: PluginServer[];
  const clients = new Map<string, PluginClient>();

  beforeAll(async () => {
    tmp = await tempDir('hookgate-process-job-');
    servers = await Promise.all([
      servePlugin(ledger, { listen: `unix://${path.join(tmp.dir, 'ledger.sock')}`, logger: false }),
      servePlugin(admitOnly, { listen: `unix://${path.join(tmp.dir, 'admit-only.sock')}`, logger: false }),
    ]);
    clients.set('ledger', createPluginClient('ledger', servers[0]!.target));
    clients.set('admit-only', createPluginClient('admit-only', servers[1]!.target));
    clients.set('down', createPluginClient('down', `unix://${path.join(tmp.dir, 'nobody-listens.sock')}`));
  }, 30_000);

  afterAll(async () => {
    for (const client of clients.values()) client.close();
    await Promise.all(servers.map((server) => server.shutdown(200)));
    await tmp.cleanup();
  });

  it.each(cases)('$name', async ({ data, state, now, read, attempt, want, reasonHas, plugin }) => {
    const reads: ObjectRef[] = [];
    const deps: ProcessJobDeps = {
      ...TIMING,
      now: () => now,
      readObject: async (ref) => {
        reads.push(ref);
        if (read === undefined) throw new Error('this case must not read the object');
        if (read instanceof Error) throw read;
        return read;
      },
      reconcile: pluginClientReconciler((name) => clients.get(name), { timeoutMs: 5_000 }),
    };
    seen.length = 0;

    const result = await processJob({ data, state }, deps, attempt ?? 1);

    expect(result).toMatchObject(want);
    if (reasonHas !== undefined) expect((result as { reason: string }).reason).toContain(reasonHas);
    expect(reads).toEqual(
      read === undefined
        ? []
        : [{ group: 'apps', version: 'v1', resource: 'deployments', namespace: 'shop', name: 'web' }],
    );
    if (plugin === undefined) {
      expect(seen.filter((request) => request.sideEffect.kind === 'claim')).toEqual([]);
      return;
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      hook: 'claims.ledger.example.com',
      outcome: plugin.outcome,
      attempt: plugin.attempt,
      object: undefined,
      admission: {
        uid: 'call-1',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        namespace: 'shop',
        name: 'web',
        allowed: (data as SideEffectJob).decision.allowed,
      },
    });
  });

  it('a reconcile that throws (a bug, not an answer) is retried with the decision kept', async () => {
    const deps: ProcessJobDeps = {
      ...TIMING,
      now: () => AFTER_GRACE,
      readObject: async () => stored(),
      reconcile: async () => {
        throw new Error('client map corrupted');
      },
    };
    expect(await processJob({ data: job() }, deps, 1)).toMatchObject({
      kind: 'retry',
      reason: expect.stringContaining('threw: client map corrupted'),
      state: { stage: 'settled', outcome: 'PERSISTED', rule: 'create-stored' },
    });
  });

  it('hands the effect’s payload bytes to the plugin as the gateway took them', async () => {
    seen.length = 0;
    const deps: ProcessJobDeps = {
      ...TIMING,
      now: () => AFTER_GRACE,
      readObject: async () => stored(),
      reconcile: pluginClientReconciler((name) => clients.get(name), { timeoutMs: 5_000 }),
    };
    expect(await processJob({ data: job() }, deps, 1)).toMatchObject({ kind: 'done' });
    expect(seen[0]!.sideEffect.payload.toString()).toBe('{"cpu":2}');
    expect(seen[0]!.sideEffect.key).toBe('shop/web');
  });
});
