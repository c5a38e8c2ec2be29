/**
 * The shared case tables of libs/admission (the apiserver's webhook test tables plus Hookgate's
 * own), run over real HTTPS: the gateway serves TLS with its self-managed certificate, every hook is
 * an https webhook verified with its caBundle, and each case is a hot reload of the configuration.
 * The same tables run in the chain's unit tests through a scripted invoker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeApiserverAnnotationKey, type JsonValue, type WebhookConfiguration } from '@hookgate/admission';
import {
  DEFAULT_TEST_NAMESPACES,
  HOOKGATE_COMMON_CASES,
  HOOKGATE_MUTATING_CASES,
  HOOKGATE_VALIDATING_CASES,
  MUTATING_CASES,
  NON_MUTATING_CASES,
  REINVOCATION_CASES,
  applyOutcomePatch,
  buildTestConfiguration,
  buildTestRequest,
  checkExpectation,
  convertToMutatingCases,
  type ChainCase,
} from '@hookgate/admission/testing';
import { AdmissionClient, decodePatch, wrapReview } from '../src/admission-client.js';
import { gatewayConfigYaml } from '../src/gateway-config.js';
import { readGatewayCa, reloadConfig, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { createTestCa } from '../src/test-certificates.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';

/** Service references name `<svc>.<ns>.svc`, which resolves only inside a cluster. */
const reachable = (c: ChainCase) => c.webhooks.every((w) => w.target !== 'service');

const VALIDATING = [...NON_MUTATING_CASES, ...HOOKGATE_COMMON_CASES, ...HOOKGATE_VALIDATING_CASES].filter(reachable);
const MUTATING = [
  ...convertToMutatingCases(NON_MUTATING_CASES),
  ...MUTATING_CASES,
  ...REINVOCATION_CASES,
  ...HOOKGATE_COMMON_CASES,
  ...HOOKGATE_MUTATING_CASES,
].filter(reachable);

/**
 * Patch annotations may carry Secret data: the gateway forwards them only with
 * `audit.patchAnnotations: true`. Mutating cases alternate between the two settings.
 */
const PATCH_ANNOTATION = 'patch.webhook.admission.k8s.io/';

describe('shared case tables over https through the gateway and the bridge', () => {
  let webhook: TestWebhookServer;
  let gateway: GatewayProcess;
  let client: AdmissionClient;
  let caBundle = '';
  const namespaces = Object.entries(DEFAULT_TEST_NAMESPACES).map(([name, labels]) => ({ name, labels: { ...labels } }));

  const configFor = (phase: 'mutating' | 'validating', c: ChainCase, forwardPatches: boolean) => {
    const configuration = buildTestConfiguration(phase, c.webhooks, {
      apiVersion: c.configApiVersion ?? 'v1',
      baseUrl: webhook.origin,
      defaultTarget: 'url',
    });
    const withCa: WebhookConfiguration = {
      ...configuration,
      webhooks: (configuration.webhooks ?? []).map((w) => ({ ...w, clientConfig: { ...w.clientConfig, caBundle } })),
    };
    // The comment keeps consecutive cases with equal webhooks distinct, so every case is a reload.
    const extra = forwardPatches ? { audit: { patchAnnotations: true } } : {};
    return `# case: ${phase} ${c.name}\n${gatewayConfigYaml([withCa], { namespaces, extra })}`;
  };

  beforeAll(async () => {
    const ca = await createTestCa();
    caBundle = ca.caBundle;
    webhook = await startWebhookServer(await ca.issue({ commonName: 'webhook', ips: ['127.0.0.1'] }));
    gateway = await startGateway({ config: gatewayConfigYaml([], { namespaces }), insecureHttp: false });
    expect(gateway.admissionUrl).toMatch(/^https:/);
    client = new AdmissionClient(gateway.admissionUrl, { ca: await readGatewayCa(gateway) });
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await webhook?.close();
  });

  const run = async (phase: 'mutating' | 'validating', c: ChainCase, forwardPatches = false) => {
    await reloadConfig(gateway, configFor(phase, c, forwardPatches));
    webhook.reset();
    const request = buildTestRequest(c.request);
    const { status, review } = await client.post(phase === 'mutating' ? '/mutate' : '/validate', wrapReview(request), {
      timeout: c.timeout ?? '10s',
    });
    expect(status).toBe(200);
    const response = review.response!;
    expect(response.uid).toBe(request.uid);
    const annotations: Record<string, string> = {};
    for (const [key, value] of Object.entries(response.auditAnnotations ?? {}))
      annotations[decodeApiserverAnnotationKey(key) ?? key] = value;
    const expected = { ...c.expect };
    if (expected.annotations && !forwardPatches)
      expected.annotations = Object.fromEntries(
        Object.entries(expected.annotations).filter(([k]) => !k.startsWith(PATCH_ANNOTATION)),
      );
    if (!forwardPatches) expect(Object.keys(annotations).filter((k) => k.startsWith(PATCH_ANNOTATION))).toEqual([]);
    const patch = decodePatch(response.patch) as Parameters<typeof applyOutcomePatch>[1];
    const problems = checkExpectation(expected, {
      allowed: response.allowed,
      ...(response.status ? { status: response.status } : {}),
      auditAnnotations: annotations,
      warnings: response.warnings ?? [],
      finalObject: applyOutcomePatch(request.object, patch) as JsonValue,
      invocations: webhook.invocations(),
    });
    expect(problems).toEqual([]);
  };

  it.each(VALIDATING.map((c) => [c.name, c] as const))('validating: %s', (_name, c) => run('validating', c));
  it.each(MUTATING.map((c, i) => [c.name, i % 2 === 0, c] as const))(
    'mutating: %s (patch annotations forwarded: %s)',
    (_name, forwardPatches, c) => run('mutating', c, forwardPatches),
  );
});
