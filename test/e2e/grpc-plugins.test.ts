/**
 * Real gRPC plugins as separate processes (test/fixtures/plugins), over a unix socket and TCP,
 * behind the gateway process: allow, deny, patch chains, slow and hanging plugins under Fail and
 * Ignore, a bad patch, a wrong uid, a crash, circuit breaking and recovery, and side effects.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient, decodePatch } from '../src/admission-client.js';
import { createRulesFor, gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startGateway, type GatewayProcess } from '@hookgate/devtools';
import { fetchMetrics, sampleValue } from '../src/metrics-text.js';
import { startPlugin, type PluginProcess } from '../src/plugin-process.js';
import { createReviewOf, podCreateReview } from '../src/pod-review.js';

const plugin = (name: string) => ({ plugin: name });

describe('gRPC plugins through the gateway process', () => {
  let dir: string;
  let behaviours: PluginProcess;
  let crashy: PluginProcess;
  let wrongUid: PluginProcess;
  let gateway: GatewayProcess;
  let client: AdmissionClient;
  let crashySocket: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-plugins-'));
    crashySocket = `unix://${join(dir, 'crashy.sock')}`;
    [behaviours, crashy, wrongUid] = await Promise.all([
      startPlugin('behaviour-plugin.ts', [`unix://${join(dir, 'behaviours.sock')}`, 'behaviours']),
      startPlugin('behaviour-plugin.ts', [crashySocket, 'crashy']),
      startPlugin('wrong-uid-plugin.ts', ['127.0.0.1:0']),
    ]);
    gateway = await startGateway({
      config: gatewayConfigYaml(
        [
          webhookConfiguration('mutating', 'a-plugin-patches', [
            { name: 'patch.plugin.test', clientConfig: plugin('behaviours'), rules: createRulesFor('pods') },
            { name: 'second-patch.plugin.test', clientConfig: plugin('behaviours'), rules: createRulesFor('pods') },
            {
              name: 'bad-patch.plugin.test',
              clientConfig: plugin('behaviours'),
              rules: createRulesFor('secrets'),
              failurePolicy: 'Ignore',
            },
          ]),
          webhookConfiguration('validating', 'plugin-checks', [
            { name: 'allow.plugin.test', clientConfig: plugin('behaviours'), rules: createRulesFor('pods') },
            { name: 'warn.plugin.test', clientConfig: plugin('behaviours'), rules: createRulesFor('pods') },
            { name: 'deny.plugin.test', clientConfig: plugin('behaviours'), rules: createRulesFor('secrets') },
            {
              name: 'slow.plugin.test',
              clientConfig: plugin('behaviours'),
              rules: createRulesFor('configmaps'),
              timeoutSeconds: 1,
              failurePolicy: 'Fail',
            },
            {
              name: 'hang.plugin.test',
              clientConfig: plugin('behaviours'),
              rules: createRulesFor('services'),
              timeoutSeconds: 1,
              failurePolicy: 'Ignore',
            },
            {
              name: 'side-effect.plugin.test',
              clientConfig: plugin('behaviours'),
              rules: createRulesFor('resourcequotas'),
              sideEffects: 'NoneOnDryRun',
            },
            { name: 'wrong-uid.plugin.test', clientConfig: plugin('wrong-uid'), rules: createRulesFor('limitranges') },
          ]),
          webhookConfiguration('validating', 'crashy-checks', [
            { name: 'crash.plugin.test', clientConfig: plugin('crashy'), rules: createRulesFor('endpoints') },
            {
              name: 'allow.plugin.test',
              clientConfig: plugin('crashy'),
              rules: createRulesFor('persistentvolumeclaims'),
            },
          ]),
        ],
        {
          plugins: [
            { name: 'behaviours', target: behaviours.target },
            { name: 'crashy', target: crashySocket },
            { name: 'wrong-uid', target: wrongUid.target },
          ],
        },
      ),
    });
    client = new AdmissionClient(gateway.admissionUrl);
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await Promise.all([behaviours?.stop(), crashy?.stop(), wrongUid?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('allows through plugins and passes their warnings and audit annotations on', async () => {
    const { review } = await client.post('/validate', podCreateReview(), { timeout: '10s' });
    expect(review.response).toMatchObject({
      allowed: true,
      warnings: ['this is a plugin warning'],
      auditAnnotations: { 'warn.plugin.test_checked': 'yes' },
    });
  });

  it('denies with the apiserver message naming the hook', async () => {
    const { review } = await client.post('/validate', createReviewOf('secrets', 'Secret'));
    expect(review.response?.allowed).toBe(false);
    expect(review.response?.status).toMatchObject({
      code: 403,
      message: 'admission webhook "deny.plugin.test" denied the request: Secret web is not allowed here',
    });
  });

  it('chains plugin patches: the second hook sees the first one applied', async () => {
    const { review } = await client.post('/mutate', podCreateReview());
    expect(review.response?.allowed).toBe(true);
    expect(decodePatch(review.response?.patch)).toEqual([
      { op: 'add', path: '/metadata/labels/plugin', value: 'patched' },
      { op: 'add', path: '/metadata/labels/second', value: 'patched' },
    ]);
  });

  const failures = [
    {
      name: 'a patch that does not apply rejects the request whatever the policy',
      path: '/mutate',
      review: () => createReviewOf('secrets', 'Secret'),
      expected: { allowed: false, status: { code: 500, reason: 'InternalError' } },
    },
    {
      name: 'a plugin slower than its timeout fails closed under Fail',
      path: '/validate',
      review: () => createReviewOf('configmaps', 'ConfigMap'),
      expected: {
        allowed: false,
        status: {
          code: 500,
          message:
            'Internal error occurred: failed calling webhook "slow.plugin.test": failed to call webhook: Post "plugin://behaviours/slow.plugin.test?timeout=1s": context deadline exceeded',
        },
      },
    },
    {
      name: 'a hanging plugin is ignored under Ignore',
      path: '/validate',
      review: () => createReviewOf('services', 'Service'),
      expected: { allowed: true, auditAnnotations: { 'failed-open.validating_round_0_index_0': 'hang.plugin.test' } },
    },
    {
      name: 'a wrong uid from a plugin is a calling error',
      path: '/validate',
      review: () => createReviewOf('limitranges', 'LimitRange'),
      expected: {
        allowed: false,
        status: {
          code: 500,
          message: expect.stringContaining('received invalid webhook response: expected response.uid='),
        },
      },
    },
  ];
  it.each(failures)('$name', async ({ path, review, expected }) => {
    const answer = await client.post(path, review(), { timeout: '10s' });
    expect(answer.status).toBe(200);
    expect(answer.review.response).toMatchObject(expected);
  });

  it('counts and logs reported side effects, and flags one reported for a dryRun request', async () => {
    await client.post('/validate', createReviewOf('resourcequotas', 'ResourceQuota'));
    await client.post('/validate', createReviewOf('resourcequotas', 'ResourceQuota', { dryRun: true }));
    const text = await fetchMetrics(gateway.metricsUrl);
    expect(
      sampleValue(text, 'hookgate_admission_webhook_side_effects_total', {
        name: 'side-effect.plugin.test',
        kind: 'reservation',
        violation: 'none',
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'hookgate_admission_webhook_side_effects_total', {
        name: 'side-effect.plugin.test',
        kind: 'reservation',
        violation: 'dry-run',
      }),
    ).toBe(1);
    const violation = await gateway.waitForLog((l) => l.level === 'warn' && l['hook'] === 'side-effect.plugin.test');
    expect(violation).toMatchObject({
      kind: 'reservation',
      key: 'default/web',
      uid: 'b7f3c5de-0b3e-4a1f-9d2c-5f1e2a3b4c5d',
    });
    expect(violation.msg).toContain('dryRun');
  });

  it('survives a crashing plugin, opens its circuit, and closes it once the plugin is back', async () => {
    const crash = await client.post('/validate', createReviewOf('endpoints', 'Endpoints'));
    expect(crash.review.response?.allowed).toBe(false);
    expect(crash.review.response?.status?.message).toContain(
      'failed calling webhook "crash.plugin.test": failed to call webhook: Post "plugin://crashy/crash.plugin.test',
    );
    expect(await crashy.exited).toBe(70);

    // The dead plugin keeps failing its hook (Fail) until the breaker opens; then calls fail at once.
    let message = '';
    for (let i = 0; i < 20 && !message.includes('circuit open'); i += 1) {
      const { review } = await client.post(
        '/validate',
        createReviewOf('persistentvolumeclaims', 'PersistentVolumeClaim'),
      );
      expect(review.response?.allowed).toBe(false);
      message = review.response?.status?.message ?? '';
    }
    expect(message).toMatch(/circuit open for plugin "crashy" after \d+ consecutive failures/);
    expect(
      sampleValue(await fetchMetrics(gateway.metricsUrl), 'hookgate_plugin_circuit_state', {
        plugin: 'crashy',
        state: 'open',
      }),
    ).toBe(1);

    crashy = await startPlugin('behaviour-plugin.ts', [crashySocket, 'crashy']);
    let allowed = false;
    for (let i = 0; i < 100 && !allowed; i += 1) {
      const { review } = await client.post(
        '/validate',
        createReviewOf('persistentvolumeclaims', 'PersistentVolumeClaim'),
      );
      allowed = review.response?.allowed === true;
      if (!allowed) await new Promise((r) => setTimeout(r, 200));
    }
    expect(allowed).toBe(true);
    expect(
      sampleValue(await fetchMetrics(gateway.metricsUrl), 'hookgate_plugin_circuit_state', {
        plugin: 'crashy',
        state: 'closed',
      }),
    ).toBe(1);
  });

  it('kept serving throughout: no worker crashed', () => {
    expect(gateway.logs.filter((l) => l.msg === 'gateway worker exited unexpectedly; starting a replacement')).toEqual(
      [],
    );
    expect(gateway.exitCode()).toBeNull();
  });
});
