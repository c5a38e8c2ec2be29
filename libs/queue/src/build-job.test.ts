import { describe, expect, it } from 'vitest';
import type { AdmissionRequest, ChainOutcome, Phase, ReportedSideEffect } from '@hookgate/admission';
import { runChainCase, type TestWebhook } from '@hookgate/admission/testing';
import { buildSideEffectJob, decisionFromOutcome, decodeEffectPayload, summarizeAdmission } from './build-job.js';
import { decodeJob } from './decode-job.js';
import type { AdmissionSummary } from './job-schema.js';

const base: AdmissionRequest = {
  uid: 'req-1',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  namespace: 'default',
  operation: 'CREATE',
  userInfo: { username: 'alice' },
};

interface SummaryCase {
  readonly name: string;
  readonly phase: Phase;
  readonly request: AdmissionRequest;
  readonly want: Partial<AdmissionSummary>;
}

describe('summarizeAdmission', () => {
  it.each<SummaryCase>([
    {
      name: 'mutating CREATE with generateName: no name, no uid yet',
      phase: 'mutating',
      request: { ...base, object: { metadata: { generateName: 'web-', labels: { a: 'b' } }, spec: {} } },
      want: { name: '', generateName: 'web-' },
    },
    {
      name: 'validating CREATE: the final name and the uid the object will have',
      phase: 'validating',
      request: {
        ...base,
        name: 'web-x7k2p',
        object: { metadata: { name: 'web-x7k2p', generateName: 'web-', uid: 'u-1' } },
      },
      want: { name: 'web-x7k2p', generateName: 'web-', objectUid: 'u-1' },
    },
    {
      name: 'UPDATE of a subresource: both resourceVersions',
      phase: 'validating',
      request: {
        ...base,
        operation: 'UPDATE',
        name: 'web',
        subResource: 'scale',
        object: { metadata: { name: 'web', uid: 'u-1', resourceVersion: '42' } },
        oldObject: { metadata: { name: 'web', uid: 'u-1', resourceVersion: '41' } },
        dryRun: true,
      },
      want: {
        operation: 'UPDATE',
        name: 'web',
        subResource: 'scale',
        objectUid: 'u-1',
        objectResourceVersion: '42',
        oldObjectResourceVersion: '41',
        oldObjectUid: 'u-1',
        dryRun: true,
      },
    },
    {
      name: 'validating UPDATE: both generations (the object already carries the bump for a spec change)',
      phase: 'validating',
      request: {
        ...base,
        operation: 'UPDATE',
        name: 'web',
        object: { metadata: { name: 'web', uid: 'u-1', resourceVersion: '41', generation: 4 } },
        oldObject: { metadata: { name: 'web', uid: 'u-1', resourceVersion: '41', generation: 3 } },
      },
      want: {
        operation: 'UPDATE',
        name: 'web',
        objectUid: 'u-1',
        objectResourceVersion: '41',
        oldObjectResourceVersion: '41',
        oldObjectUid: 'u-1',
        objectGeneration: 4,
        oldObjectGeneration: 3,
      },
    },
    {
      name: 'a generation that is not a non-negative integer is left out',
      phase: 'validating',
      request: {
        ...base,
        object: { metadata: { generation: -1 } },
        oldObject: { metadata: { generation: '3' } },
      },
      want: {},
    },
    {
      name: 'DELETE: no object, the old one carries the generateName',
      phase: 'validating',
      request: {
        ...base,
        operation: 'DELETE',
        name: 'web-x7k2p',
        oldObject: { metadata: { name: 'web-x7k2p', generateName: 'web-', uid: 'u-1', resourceVersion: '50' } },
      },
      want: {
        operation: 'DELETE',
        name: 'web-x7k2p',
        generateName: 'web-',
        oldObjectResourceVersion: '50',
        oldObjectUid: 'u-1',
      },
    },
    {
      name: 'cluster-scoped, objects that are not objects',
      phase: 'validating',
      request: { ...base, namespace: undefined, object: 'x', oldObject: { metadata: [] } },
      want: {},
    },
  ])('$name', ({ request, phase, want }) => {
    expect(summarizeAdmission(request, phase)).toEqual({
      uid: 'req-1',
      operation: 'CREATE',
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: '',
      namespace: request.namespace ?? '',
      name: '',
      generateName: '',
      dryRun: false,
      phase,
      ...want,
    });
  });
});

describe('decisionFromOutcome', () => {
  const call = (
    hook: string,
    outcome: 'allowed' | 'denied' | 'failed-open' | 'failed-closed' | 'refused' | 'patch-error',
    code: number,
  ) => ({ type: 'call', hook, round: 0, outcome, mutated: false, durationMs: 1, code }) as const;

  it.each([
    { name: 'allowed', outcome: { allowed: true, trace: [] }, want: { allowed: true } },
    {
      name: 'the first hook that denied, after one that allowed',
      outcome: {
        allowed: false,
        status: { code: 403 },
        trace: [call('a', 'allowed', 200), call('b', 'denied', 403), call('c', 'denied', 400)],
      },
      want: { allowed: false, by: 'hook', hook: 'b', code: 403 },
    },
    {
      name: 'a hook failing under failurePolicy Fail',
      outcome: {
        allowed: false,
        status: { code: 500 },
        trace: [call('a', 'failed-open', 500), call('b', 'failed-closed', 500)],
      },
      want: { allowed: false, by: 'error', hook: 'b', code: 500, reason: 'failed-closed' },
    },
    {
      name: 'refused for dryRun (trace code 0: the Status code is used)',
      outcome: { allowed: false, status: { code: 400 }, trace: [call('a', 'refused', 0)] },
      want: { allowed: false, by: 'error', hook: 'a', code: 400, reason: 'refused' },
    },
    {
      name: 'a reject event (matchConditions error, deadline)',
      outcome: {
        allowed: false,
        status: { code: 504 },
        trace: [{ type: 'reject', hook: 'a', round: 0, reason: 'request deadline exceeded', code: 504 } as const],
      },
      want: { allowed: false, by: 'error', hook: 'a', code: 504, reason: 'rejected' },
    },
    {
      name: 'denied with nothing in the trace',
      outcome: { allowed: false, trace: [] },
      want: { allowed: false, by: 'error', code: 500, reason: 'denied' },
    },
  ])('$name', ({ outcome, want }) => {
    expect(decisionFromOutcome(outcome as Pick<ChainOutcome, 'allowed' | 'status' | 'trace'>)).toEqual(want);
  });
});

describe('decisionFromOutcome on real chain runs', () => {
  it.each<{ name: string; phase: 'mutating' | 'validating'; webhooks: TestWebhook[]; want: object }>([
    {
      name: 'validating, all allow',
      phase: 'validating',
      webhooks: [{ name: 'a.example.com', behaviour: 'allow' }],
      want: { allowed: true },
    },
    {
      name: 'validating, the second hook denies',
      phase: 'validating',
      webhooks: [
        { name: 'a.example.com', behaviour: 'allow' },
        { name: 'b.example.com', behaviour: 'disallow' },
      ],
      want: { allowed: false, by: 'hook', hook: 'b.example.com', code: 403 },
    },
    {
      name: 'mutating, a hook failing under failurePolicy Fail',
      phase: 'mutating',
      webhooks: [{ name: 'c.example.com', behaviour: 'internalErr', failurePolicy: 'Fail' }],
      want: { allowed: false, by: 'error', hook: 'c.example.com', reason: 'failed-closed' },
    },
  ])('$name', async ({ phase, webhooks, want }) => {
    const { outcome } = await runChainCase(phase, { name: 'decision', webhooks, expect: { allowed: true } });
    const decision = decisionFromOutcome(outcome);
    expect(decision).toMatchObject(want);
    if (!decision.allowed) expect(decision.code).toBe(outcome.status?.code);
  });
});

describe('buildSideEffectJob', () => {
  const admission = summarizeAdmission({ ...base, name: 'web', object: { metadata: { uid: 'u-1' } } }, 'validating');

  it('builds a job the decoder accepts, payload as base64 and back', () => {
    const payload = new Uint8Array([0, 255, 1, 128, 10]);
    const job = buildSideEffectJob({
      plugin: 'ledger',
      effect: { hook: 'claims.ledger.hookgate.dev', kind: 'ledger-claim', key: 'default/web', payload },
      admission,
      decision: { allowed: true },
      gateway: 'gw-1',
      time: 1_764_143_540_123,
    });
    expect(job).toMatchObject({
      schema: 1,
      plugin: 'ledger',
      hook: 'claims.ledger.hookgate.dev',
      effect: { payload: 'AP8BgAo=' },
    });
    const decoded = decodeJob(JSON.parse(JSON.stringify(job)));
    expect(decoded).toEqual({ ok: true, value: job });
    expect(decodeEffectPayload(job)).toEqual(payload);
  });

  it("takes the chain's ReportedSideEffect as it is", () => {
    const reported: ReportedSideEffect = {
      hook: 'h',
      configuration: 'c',
      plugin: 'p',
      failurePolicy: 'Fail',
      kind: 'k',
      key: 'x',
      violation: 'dry-run',
    };
    const job = buildSideEffectJob({
      plugin: 'p',
      effect: reported,
      admission,
      decision: { allowed: true },
      gateway: 'g',
      time: 1,
    });
    expect(job).toMatchObject({ hook: 'h', effect: { kind: 'k', key: 'x' } });
    expect(job).not.toHaveProperty('configuration');
    expect(job.effect).not.toHaveProperty('violation');
  });

  it('leaves the payload out when the hook sent none', () => {
    const job = buildSideEffectJob({
      plugin: 'ledger',
      effect: { hook: 'h', kind: 'k', key: 'x' },
      admission,
      decision: { allowed: true },
      gateway: 'gw-1',
      time: 1,
    });
    expect(job.effect).toEqual({ kind: 'k', key: 'x' });
    expect(decodeEffectPayload(job)).toBeUndefined();
  });
});
