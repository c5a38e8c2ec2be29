/**
 * namespaceSelector with labels from the apiserver: the gateway process runs its namespace informer
 * against a fake kube-apiserver (kubernetes.mode kubeconfig), follows label changes, and answers a
 * namespace that does not exist with the apiserver's 404 for a hook with a selector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient } from '../src/admission-client.js';
import { FakeApiServer } from '../src/fake-apiserver.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startGateway, type GatewayProcess } from '@hookgate/devtools';
import { podCreateReview } from '../src/pod-review.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';

describe('namespace labels from the apiserver', () => {
  let api: FakeApiServer;
  let webhook: TestWebhookServer;
  let gateway: GatewayProcess;
  let client: AdmissionClient;
  const inNamespace = (namespace: string) => podCreateReview({ namespace });

  beforeAll(async () => {
    api = await FakeApiServer.start({ token: 'informer-token' });
    api.addNamespace('prod', { env: 'prod' });
    api.addNamespace('dev', { env: 'dev' });
    webhook = await startWebhookServer();
    const kubeconfig = await api.writeKubeconfig();
    gateway = await startGateway({
      config: gatewayConfigYaml(
        [
          webhookConfiguration('validating', 'prod-only', [
            {
              name: 'prod-policy.example.com',
              clientConfig: { url: `${webhook.origin}/disallowReason` },
              namespaceSelector: { matchLabels: { env: 'prod' } },
            },
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

  const cases = [
    { name: 'a namespace whose labels match calls the hook', namespace: 'prod', allowed: false, code: 403 },
    { name: 'a namespace whose labels do not match skips it', namespace: 'dev', allowed: true },
    {
      name: 'a namespace that does not exist is a 404, whatever the failurePolicy',
      namespace: 'ghost',
      allowed: false,
      code: 404,
      message: 'namespaces "ghost" not found',
    },
  ];
  it.each(cases)('$name', async ({ namespace, allowed, code, message }) => {
    const { review } = await client.post('/validate', inNamespace(namespace), { timeout: '10s' });
    expect(review.response?.allowed).toBe(allowed);
    if (code !== undefined) expect(review.response?.status?.code).toBe(code);
    if (message !== undefined) expect(review.response?.status?.message).toBe(message);
  });

  it('follows label changes through the watch', async () => {
    api.setNamespaceLabels('dev', { env: 'prod' });
    let allowed = true;
    for (let i = 0; i < 100 && allowed; i += 1) {
      allowed = (await client.post('/validate', inNamespace('dev'))).review.response?.allowed ?? true;
      if (allowed) await new Promise((r) => setTimeout(r, 50));
    }
    expect(allowed).toBe(false);
  });
});
