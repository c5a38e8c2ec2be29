/**
 * A bridged webhook named by a `service` reference, through the gateway process: with
 * `kubernetes.mode: kubeconfig` the gateway resolves the Service through the (fake) apiserver to its
 * ClusterIP (a 127.0.0.x address here) and calls the HTTPS webhook there, verifying its certificate
 * for `<name>.<namespace>.svc`; a reference that does not resolve fails by its failurePolicy with
 * the apiserver's wording and one warn line naming the hook, the Service and what to do.
 */
import { startGateway, type GatewayProcess } from '@hookgate/devtools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient } from '../src/admission-client.js';
import { FakeApiServer } from '../src/fake-apiserver.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { podCreateReview } from '../src/pod-review.js';
import { createTestCa } from '../src/test-certificates.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';

describe('bridged service references through the gateway process', () => {
  let api: FakeApiServer;
  let webhook: TestWebhookServer;
  let gateway: GatewayProcess;
  let client: AdmissionClient;

  beforeAll(async () => {
    api = await FakeApiServer.start({ token: 'gateway-token' });
    api.addNamespace('default');
    const ca = await createTestCa();
    webhook = await startWebhookServer(await ca.issue({ commonName: 'policy', dns: ['policy.policy-system.svc'] }), {
      host: '127.0.0.2',
    });
    api.addService('policy-system', 'policy', {
      clusterIP: '127.0.0.2',
      ports: [{ name: 'https', port: webhook.port, targetPort: 8443 }],
    });
    const kubeconfig = await api.writeKubeconfig();
    // Each hook sees only pods labelled with its Service's name, so each case gets one answer.
    const hook = (name: string, service: string, failurePolicy: string) => ({
      name,
      failurePolicy,
      objectSelector: { matchLabels: { service } },
      clientConfig: {
        service: { namespace: 'policy-system', name: service, port: webhook.port, path: '/hooks/disallow' },
        caBundle: ca.caBundle,
      },
    });
    gateway = await startGateway({
      config: gatewayConfigYaml(
        [
          webhookConfiguration('validating', 'policies', [
            hook('policy.example.com', 'policy', 'Fail'),
            hook('gone.example.com', 'gone', 'Fail'),
          ]),
        ],
        { namespaces: [], extra: { kubernetes: { mode: 'kubeconfig', kubeconfig } } },
      ),
    });
    client = new AdmissionClient(gateway.admissionUrl);
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await webhook?.close();
    await api?.close();
  });

  const podFor = (service: string) =>
    podCreateReview({
      object: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', namespace: 'default', labels: { service } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    });

  it('calls the webhook at the Service ClusterIP and port, verifying <name>.<namespace>.svc', async () => {
    const { review } = await client.post('/validate', podFor('policy'), { timeout: '10s' });
    expect(review.response).toMatchObject({ allowed: false, status: { code: 403 } });
    expect(review.response?.status?.message).toContain('admission webhook "policy.example.com" denied the request');
    expect(webhook.callsTo('disallow')).toHaveLength(1);
  });

  it('fails a Service that does not exist by its failurePolicy, in the apiserver words, with a warn line', async () => {
    const { review } = await client.post('/validate', podFor('gone'), { timeout: '10s' });
    expect(review.response?.allowed).toBe(false);
    expect(review.response?.status?.message).toBe(
      `Internal error occurred: failed calling webhook "gone.example.com": failed to call webhook: Post "https://gone.policy-system.svc:${webhook.port}/hooks/disallow?timeout=10s": service "gone" not found`,
    );
    const warn = await gateway.waitForLog((l) => l.hook === 'gone.example.com' && l.level === 'warn', 10_000);
    expect(warn).toMatchObject({
      service: 'policy-system/gone',
      port: webhook.port,
      error: 'service "gone" not found',
    });
  });
});
