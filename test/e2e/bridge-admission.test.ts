/**
 * The gateway as its own process (two workers) in front of real AdmissionReview webhooks on
 * loopback http (the bridge): decisions, combined patches, exact messages, `?timeout=` handling,
 * timeouts under Fail and Ignore, warnings, metrics aggregated across workers, and logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient, decodePatch } from '../src/admission-client.js';
import { createRulesFor, failingBridgeHooks, gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startGateway, type GatewayProcess } from '@hookgate/devtools';
import { fetchMetrics, sampleValue } from '../src/metrics-text.js';
import { createReviewOf, podCreateReview } from '../src/pod-review.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';

describe('bridge webhooks through the gateway process', () => {
  let webhook: TestWebhookServer;
  let gateway: GatewayProcess;
  let client: AdmissionClient;

  beforeAll(async () => {
    webhook = await startWebhookServer();
    const url = (behaviour: string) => ({ url: `${webhook.origin}/${behaviour}` });
    gateway = await startGateway({
      config: gatewayConfigYaml(
        [
          webhookConfiguration('mutating', 'a-labels', [
            { name: 'add-label.example.com', clientConfig: url('addLabel'), rules: createRulesFor('pods') },
            { name: 'hookgate-label.example.com', clientConfig: url('patch-add-label'), rules: createRulesFor('pods') },
          ]),
          webhookConfiguration('validating', 'checks', [
            { name: 'allow.example.com', clientConfig: url('allow'), rules: createRulesFor('pods'), timeoutSeconds: 2 },
            { name: 'warn.example.com', clientConfig: url('allowWithWarnings'), rules: createRulesFor('pods') },
            ...failingBridgeHooks(webhook.origin),
            {
              name: 'hang-long.example.com',
              clientConfig: url('timeout'),
              rules: createRulesFor('configmaps'),
              timeoutSeconds: 30,
              failurePolicy: 'Fail',
            },
            { name: 'status.example.com', clientConfig: url('statusError'), rules: createRulesFor('limitranges') },
            { name: 'wrong-uid.example.com', clientConfig: url('wrongUid'), rules: createRulesFor('resourcequotas') },
          ]),
        ],
        { workers: 2 },
      ),
    });
    client = new AdmissionClient(gateway.admissionUrl);
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await webhook?.close();
  });

  it('runs mutating hooks in order and answers one combined patch', async () => {
    const { status, review } = await client.post('/mutate', podCreateReview(), { timeout: '10s' });
    expect(status).toBe(200);
    expect(review.response?.uid).toBe('b7f3c5de-0b3e-4a1f-9d2c-5f1e2a3b4c5d');
    expect(review.response?.allowed).toBe(true);
    expect(review.response?.patchType).toBe('JSONPatch');
    expect(decodePatch(review.response?.patch)).toEqual([
      { op: 'add', path: '/metadata/labels/added', value: 'test' },
      { op: 'add', path: '/metadata/labels/hookgate', value: 'added' },
    ]);
    expect(review.response?.auditAnnotations).toEqual({
      mutation_round_0_index_0: JSON.stringify({
        configuration: 'a-labels',
        webhook: 'add-label.example.com',
        mutated: true,
      }),
      mutation_round_0_index_1: JSON.stringify({
        configuration: 'a-labels',
        webhook: 'hookgate-label.example.com',
        mutated: true,
      }),
    });
  });

  it('sends each hook the request the apiserver would: POST json, a fresh uid, ?timeout= from the budget', async () => {
    webhook.reset();
    await client.post('/validate', podCreateReview(), { timeout: '5s' });
    const calls = webhook.calls;
    expect(calls.map((c) => c.behaviour).sort()).toEqual(['allow', 'allowWithWarnings']);
    for (const call of calls) {
      expect(call.method).toBe('POST');
      expect(call.contentType).toBe('application/json');
      expect(call.apiVersion).toBe('admission.k8s.io/v1');
      expect(call.uid).not.toBe('b7f3c5de-0b3e-4a1f-9d2c-5f1e2a3b4c5d');
    }
    expect(new Set(calls.map((c) => c.uid)).size).toBe(2);
    // As the apiserver tells them: allow min(timeoutSeconds 2, 5 s) → 2s; warn min(10, 5) → 5s (the
    // gateway's safety margin is enforced, not advertised).
    expect(webhook.callsTo('allow')[0]?.timeoutParam).toBe('2s');
    expect(webhook.callsTo('allowWithWarnings')[0]?.timeoutParam).toBe('5s');
  });

  it('passes warnings on, deduplicated, and re-encodes audit annotation keys', async () => {
    const { review } = await client.post('/validate', podCreateReview());
    expect(review.response?.allowed).toBe(true);
    expect(review.response?.warnings).toEqual(['first warning', 'second warning']);
    expect(review.response?.auditAnnotations).toEqual({ 'allow.example.com_key1': 'value1' });
  });

  it('answers in the AdmissionReview version it received', async () => {
    const { review } = await client.post('/validate', podCreateReview({}, 'admission.k8s.io/v1beta1'));
    expect(review.apiVersion).toBe('admission.k8s.io/v1beta1');
    expect(review.response?.allowed).toBe(true);
  });

  it('answers a review that matches no hook without calling any', async () => {
    webhook.reset();
    const deployment = podCreateReview({
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    });
    const { review } = await client.post('/validate', deployment);
    expect(review.response).toEqual({ uid: 'b7f3c5de-0b3e-4a1f-9d2c-5f1e2a3b4c5d', allowed: true });
    expect(webhook.calls).toHaveLength(0);
  });

  const decisions = [
    {
      name: 'a denial carries the hook name and its code',
      resource: ['secrets', 'Secret'],
      status: { code: 403, message: 'admission webhook "deny.example.com" denied the request: you shall not pass' },
    },
    {
      name: 'a hook that times out under Fail rejects with the apiserver message',
      resource: ['services', 'Service'],
      status: {
        code: 500,
        reason: 'InternalError',
        message: (origin: string) =>
          `Internal error occurred: failed calling webhook "hang-fail.example.com": failed to call webhook: Post "${origin}/timeout?timeout=1s": context deadline exceeded`,
      },
    },
    {
      name: 'a non-2xx answer with a Status is a calling error quoting it',
      resource: ['limitranges', 'LimitRange'],
      status: {
        code: 500,
        message:
          'Internal error occurred: failed calling webhook "status.example.com": failed to call webhook: the webhook says no via a Status',
      },
    },
    {
      name: 'a wrong uid is a calling error',
      resource: ['resourcequotas', 'ResourceQuota'],
      status: {
        code: 500,
        message: (_origin: string) =>
          expect.stringContaining('received invalid webhook response: expected response.uid=') as unknown as string,
      },
    },
  ];
  it.each(decisions)('$name', async ({ resource, status }) => {
    const { review } = await client.post('/validate', createReviewOf(resource[0]!, resource[1]!), { timeout: '10s' });
    expect(review.response?.allowed).toBe(false);
    const message = typeof status.message === 'function' ? status.message(webhook.origin) : status.message;
    expect(review.response?.status).toMatchObject({ ...status, message });
  });

  it('ignores a hook that times out under Ignore and records the fail-open annotation', async () => {
    const { review } = await client.post('/validate', createReviewOf('endpoints', 'Endpoints'), { timeout: '10s' });
    expect(review.response?.allowed).toBe(true);
    expect(review.response?.auditAnnotations).toEqual({
      'failed-open.validating_round_0_index_0': 'hang-ignore.example.com',
    });
  });

  it('answers within the apiserver ?timeout= even when the hook allows itself longer', async () => {
    const { review } = await client.post('/validate', createReviewOf('configmaps', 'ConfigMap'), { timeout: '2s' });
    expect(review.response?.allowed).toBe(false);
    // The hook was told the apiserver's 2 s, not its own 30 s, and cut off before them (the safety margin).
    expect(review.response?.status?.message).toBe(
      `Internal error occurred: failed calling webhook "hang-long.example.com": failed to call webhook: Post "${webhook.origin}/timeout?timeout=2s": context deadline exceeded`,
    );
  });

  it('aggregates request metrics across both workers', async () => {
    const before =
      sampleValue(await fetchMetrics(gateway.metricsUrl), 'hookgate_admission_requests_total', {
        type: 'validating',
        operation: 'CREATE',
        outcome: 'denied',
      }) ?? 0;
    await Promise.all(Array.from({ length: 6 }, () => client.post('/validate', createReviewOf('secrets', 'Secret'))));
    const text = await fetchMetrics(gateway.metricsUrl);
    expect(
      sampleValue(text, 'hookgate_admission_requests_total', {
        type: 'validating',
        operation: 'CREATE',
        outcome: 'denied',
      }),
    ).toBe(before + 6);
    expect(
      sampleValue(text, 'hookgate_admission_webhook_rejection_count', {
        name: 'deny.example.com',
        error_type: 'no_error',
        rejection_code: '403',
      }),
    ).toBeGreaterThanOrEqual(6);
    expect(
      sampleValue(text, 'hookgate_admission_webhook_timeouts_total', {
        name: 'hang-fail.example.com',
        type: 'validating',
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'hookgate_admission_webhook_fail_open_count', {
        name: 'hang-ignore.example.com',
        type: 'validating',
      }),
    ).toBe(1);
    expect(sampleValue(text, 'hookgate_config_generation')).toBe(1);
  });

  it('logs a decision trace per request and never object contents', async () => {
    const line = await gateway.waitForLog((l) => l.msg === 'admission decision' && l['resource'] === 'v1/secrets');
    expect(line).toMatchObject({
      level: 'debug',
      uid: 'b7f3c5de-0b3e-4a1f-9d2c-5f1e2a3b4c5d',
      namespace: 'default',
      objectName: 'web',
      allowed: false,
      code: 403,
    });
    expect(line['trace']).toEqual([
      expect.objectContaining({ hook: 'deny.example.com', outcome: 'denied', code: 403 }),
    ]);
    const warn = await gateway.waitForLog((l) => l.level === 'error' && l['hook'] === 'hang-fail.example.com');
    expect(warn).toMatchObject({
      resource: 'v1/services',
      namespace: 'default',
      objectName: 'web',
      uid: 'b7f3c5de-0b3e-4a1f-9d2c-5f1e2a3b4c5d',
      failure: 'timeout',
    });
    expect(JSON.stringify(gateway.logs)).not.toContain('do-not-log-this-value');
  });
});
