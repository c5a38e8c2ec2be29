/**
 * Hot reload of the gateway process: on file change and on SIGHUP the configuration is validated
 * whole and swapped in every worker; an invalid one keeps the last good running (log + metric);
 * requests in flight finish on the configuration they started with; hooks reaching beyond the
 * registration printed from the previous configuration get a warning to print and apply it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { appliedGeneration, reloadConfig, rewriteConfig, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { fetchMetrics, sampleValue } from '../src/metrics-text.js';
import { podCreateReview } from '../src/pod-review.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';

describe('configuration reload', () => {
  let webhook: TestWebhookServer;
  let gateway: GatewayProcess;
  let client: AdmissionClient;
  const withHook = (behaviour: string, extra: Record<string, unknown> = {}) =>
    gatewayConfigYaml(
      [
        webhookConfiguration('validating', 'policy', [
          {
            name: `${behaviour.toLowerCase()}.example.com`,
            clientConfig: { url: `${webhook.origin}/${behaviour}` },
            ...extra,
          },
        ]),
      ],
      { workers: 2 },
    );
  const decide = async () => (await client.post('/validate', podCreateReview(), { timeout: '10s' })).review.response;

  beforeAll(async () => {
    webhook = await startWebhookServer();
    gateway = await startGateway({ config: withHook('disallowReason') });
    client = new AdmissionClient(gateway.admissionUrl);
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await webhook?.close();
  });

  it('serves the configuration it started with', async () => {
    expect((await decide())?.allowed).toBe(false);
  });

  it('picks up a changed file without a signal', async () => {
    await rewriteConfig(gateway, withHook('allow'));
    await gateway.waitForLog((l) => l.msg === 'configuration applied by every worker' && l['generation'] === 2);
    expect((await decide())?.allowed).toBe(true);
  });

  it('refuses an invalid configuration, keeps the last good one, and says so in the log and metrics', async () => {
    const before = appliedGeneration(gateway);
    const broken = withHook('disallowReason', { timeoutSeconds: 99, failurePolicy: 'Sometimes' });
    await rewriteConfig(gateway, broken);
    gateway.signal('SIGHUP');
    const refused = await gateway.waitForLog(
      (l) => l.msg === 'configuration reload refused: still serving the last good configuration',
    );
    expect(refused).toMatchObject({ level: 'error', generation: before });
    const problems = gateway.logs.filter(
      (l) => l.level === 'error' && typeof l['field'] === 'string' && String(l['file']).endsWith('hookgate.yaml'),
    );
    expect(problems.map((l) => l['field'])).toEqual(
      expect.arrayContaining(['webhooks[0].timeoutSeconds', 'webhooks[0].failurePolicy']),
    );
    expect((await decide())?.allowed).toBe(true);
    const text = await fetchMetrics(gateway.metricsUrl);
    expect(sampleValue(text, 'hookgate_config_last_reload_successful')).toBe(0);
    expect(sampleValue(text, 'hookgate_config_reloads_total', { result: 'failure' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(text, 'hookgate_config_generation')).toBe(before);
  });

  it('recovers on the next valid configuration (SIGHUP)', async () => {
    const generation = await reloadConfig(gateway, withHook('disallow'));
    expect((await decide())?.status?.message).toBe(
      'admission webhook "disallow.example.com" denied the request without explanation',
    );
    const text = await fetchMetrics(gateway.metricsUrl);
    expect(sampleValue(text, 'hookgate_config_last_reload_successful')).toBe(1);
    expect(sampleValue(text, 'hookgate_config_generation')).toBe(generation);
  });

  it('lets a request in flight finish on the configuration it started with', async () => {
    await reloadConfig(gateway, withHook('slow'));
    webhook.reset();
    const inFlight = decide();
    while (webhook.callsTo('slow').length === 0) await new Promise((r) => setTimeout(r, 20));
    await reloadConfig(gateway, withHook('disallow'));
    expect((await inFlight)?.allowed).toBe(true);
    expect((await decide())?.allowed).toBe(false);
  });

  it('warns when the reloaded hooks reach requests the previous registration does not send to the gateway', async () => {
    const OUTSIDE =
      'the reloaded hooks reach requests the previous registration does not send to the gateway: apply the output of `hookgate print-webhooks` again';
    // The reloads so far kept to pod CREATE/UPDATE: no warning.
    expect(gateway.logs.filter((l) => l.msg === OUTSIDE)).toEqual([]);
    await reloadConfig(
      gateway,
      withHook('allow', {
        rules: [{ operations: ['DELETE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
      }),
    );
    const warning = await gateway.waitForLog((l) => l.msg === OUTSIDE);
    expect(warning).toMatchObject({
      level: 'warn',
      rules: [
        'webhook "allow.example.com" rules[0] reaches requests the gateway\'s registration does not send it (2 request shape(s), ' +
          'e.g. DELETE apps/v1 deployments (cluster-scoped); DELETE apps/v1 deployments (namespaced)): ' +
          'not covered by the registration printed from the previous configuration',
      ],
    });
  });
});
