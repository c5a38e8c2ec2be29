/**
 * The decision lines on real log lines: a request through the gateway (inject, real bridge, a
 * loopback webhook with the shared scripted behaviours), its lines read back as written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionReviewOf, podAdmissionRequest } from '@hookgate/admission/testing';
import { startLoopbackWebhook, type LoopbackWebhook } from '../testing/loopback-webhook.js';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness.js';

const SECRET_VALUE = 'do-not-log-this-value';

function validating(hook: { name: string; url: string; failurePolicy?: string; matchConditions?: object[] }) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'v' },
    webhooks: [
      {
        name: hook.name,
        clientConfig: { url: hook.url },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: hook.failurePolicy ?? 'Fail',
        timeoutSeconds: 5,
        ...(hook.matchConditions ? { matchConditions: hook.matchConditions } : {}),
      },
    ],
  };
}

describe('decision lines', () => {
  let webhook: LoopbackWebhook;
  let gateway: TestGateway;

  beforeAll(async () => {
    webhook = await startLoopbackWebhook();
    gateway = startTestGateway([]);
  });
  afterAll(async () => {
    await gateway.close();
    await webhook.close();
  });

  /** Sends one CREATE pods review (whose object holds SECRET_VALUE) and returns the lines logged for its uid. */
  async function decide(uid: string, hook: Parameters<typeof validating>[0]) {
    gateway.swap([validating({ ...hook, url: `${webhook.origin}/${hook.url}` })]);
    const object = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', annotations: { secret: SECRET_VALUE } },
      spec: { containers: [{ name: 'app', image: 'example/app:1' }] },
    };
    await gateway.app.inject({
      method: 'POST',
      url: '/validate',
      payload: admissionReviewOf(podAdmissionRequest({ uid, object })),
    });
    const lines = gateway.logs.filter((l) => l['uid'] === uid);
    return { lines, decisions: lines.filter((l) => 'decision' in l) };
  }

  const where = {
    level: 'info',
    component: 'gateway',
    phase: 'validating',
    operation: 'CREATE',
    resource: 'v1/pods',
    namespace: 'default',
    objectName: 'web',
  };

  const cases = [
    {
      name: 'a denial',
      hook: { name: 'deny.example.com', url: 'disallowReason' },
      line: { decision: 'denied', hook: 'deny.example.com', code: 403 },
      reason: 'admission webhook "deny.example.com" denied the request: you shall not pass',
    },
    {
      name: 'a fail-open call (failurePolicy Ignore)',
      hook: { name: 'broken.example.com', url: 'internalErr', failurePolicy: 'Ignore' },
      line: { decision: 'fail-open', hook: 'broken.example.com', failure: 'http-status' },
      reason: /^failed to call webhook: an error on the server/,
    },
    {
      name: 'fail-open matchConditions (failurePolicy Ignore)',
      hook: {
        name: 'conditions.example.com',
        url: 'disallow',
        failurePolicy: 'Ignore',
        matchConditions: [{ name: 'missing-field', expression: 'object.metadata.labels.team == "a"' }],
      },
      line: { decision: 'fail-open', hook: 'conditions.example.com' },
      reason: /matchConditions/,
    },
    {
      name: 'fail-closed matchConditions (failurePolicy Fail)',
      hook: {
        name: 'strict-conditions.example.com',
        url: 'allow',
        matchConditions: [{ name: 'missing-field', expression: 'object.metadata.labels.team == "a"' }],
      },
      line: { decision: 'fail-closed', hook: 'strict-conditions.example.com', code: 403 },
      reason: /^pods "web" is forbidden: expression /,
    },
    {
      name: 'a fail-closed call (failurePolicy Fail)',
      hook: { name: 'uid.example.com', url: 'wrongUid' },
      line: { decision: 'fail-closed', hook: 'uid.example.com', code: 500 },
      reason: /^Internal error occurred: failed calling webhook "uid.example.com"/,
    },
  ];
  it.each(cases.map((c, i) => ({ ...c, uid: `decision-${i}` })))(
    '$name gives exactly one info decision line with its fields and no object content',
    async ({ uid, hook, line, reason }) => {
      const { lines, decisions } = await decide(uid, hook);
      expect(decisions).toHaveLength(1);
      const decision = decisions[0]!;
      expect(decision).toMatchObject({ ...where, ...line, uid });
      expect(decision['reason']).toEqual(typeof reason === 'string' ? reason : expect.stringMatching(reason));
      expect(decision['reqId']).toEqual(expect.any(String));
      expect(decision['time']).toEqual(expect.any(String));
      expect(decision).not.toHaveProperty('name');
      expect(JSON.stringify(lines)).not.toContain(SECRET_VALUE);
      expect(JSON.stringify(gateway.logs)).not.toContain(SECRET_VALUE);
    },
  );

  it('gives an allowed request no decision line', async () => {
    const { lines, decisions } = await decide('allowed-1', { name: 'allow.example.com', url: 'allow' });
    expect(lines.length).toBeGreaterThan(0); // the debug trace
    expect(decisions).toEqual([]);
  });
});

describe('request ids', () => {
  it('differ between requests and between two gateways (two workers)', async () => {
    const workers = [startTestGateway([]), startTestGateway([])];
    try {
      for (const worker of workers)
        for (let i = 0; i < 2; i++)
          await worker.app.inject({
            method: 'POST',
            url: '/validate',
            payload: '{}',
            headers: { 'content-type': 'application/json' },
          });
      const ids = workers.flatMap((w) =>
        w.logs.filter((l) => l['msg'] === 'bad admission request').map((l) => l['reqId']),
      );
      expect(ids).toHaveLength(4);
      expect(new Set(ids).size).toBe(4);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  });

  it('leave no empty err object on a bad-request line', async () => {
    const worker = startTestGateway([]);
    try {
      await worker.app.inject({
        method: 'POST',
        url: '/validate',
        payload: '{',
        headers: { 'content-type': 'application/json' },
      });
      const line = worker.logs.find((l) => l['msg'] === 'bad admission request');
      expect(line).toMatchObject({ level: 'warn', code: 400, errorCode: 'HG_ERR_GATEWAY_BAD_REQUEST' });
      expect(line?.['error']).toMatch(/^request body is not valid JSON/);
      expect(line).not.toHaveProperty('err');
    } finally {
      await worker.close();
    }
  });
});
