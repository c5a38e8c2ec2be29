/**
 * Bridged webhooks' `service` references resolved through the apiserver, as kube-apiserver does:
 * the fake apiserver serves the Services, real HTTPS webhooks listen on 127.0.0.x addresses that
 * stand in for ClusterIPs, and their certificates name only `<name>.<namespace>.svc`, so a call
 * verifies only when it is dialled at the ClusterIP with that server name.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  compileHooks,
  defaultConfiguration,
  type HookCall,
  type HookReply,
  type WebhookSpec,
} from '@hookgate/admission';
import { podAdmissionRequest } from '@hookgate/admission/testing';
import { tempDir } from '@hookgate/plugin-sdk/testing';
import { checkServiceReferences, createBridgeInvoker, type BridgeInvoker } from '@hookgate/gateway';
import { apiserverServiceResolver, type ServiceRef, type ServiceResolver } from '@hookgate/gateway/services';
import { loadConfiguration } from '@hookgate/config';
import { loadKubeConfig } from '@hookgate/kubernetes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeApiServer } from './fake-apiserver.js';
import { runCli } from './run-cli.js';
import { createTestCa, type TestCa } from './test-certificates.js';
import { startWebhookServer, type TestWebhookServer } from './webhook-server.js';

const NAMESPACE = 'policy-system';

describe('bridged service references resolved through the apiserver', () => {
  let api: FakeApiServer;
  let ca: TestCa;
  let policy: TestWebhookServer;
  let moved: TestWebhookServer;
  let resolver: ServiceResolver;
  let bridge: BridgeInvoker;
  const unresolved: { hook: string; service: ServiceRef; error: string }[] = [];

  beforeAll(async () => {
    api = await FakeApiServer.start();
    ca = await createTestCa();
    const certificate = await ca.issue({
      commonName: 'policy',
      dns: [`policy.${NAMESPACE}.svc`, `other.${NAMESPACE}.svc`],
    });
    policy = await startWebhookServer(certificate, { host: '127.0.0.2' });
    moved = await startWebhookServer(certificate, { host: '127.0.0.3' });
    // Port 443 maps to a target port kube-proxy would route; the webhook's own port is a second Service port.
    api.addService(NAMESPACE, 'policy', {
      clusterIP: '127.0.0.2',
      ports: [
        { name: 'https', port: 443, targetPort: 8443 },
        { name: 'webhook', port: policy.port, targetPort: 9443 },
      ],
    });
    api.addService(NAMESPACE, 'headless', { clusterIP: 'None', ports: [{ port: 443 }] });
    resolver = apiserverServiceResolver(
      loadKubeConfig({ mode: 'kubeconfig', kubeconfig: await api.writeKubeconfig() }),
      {
        restartBackoffMs: { initial: 50, max: 200 },
      },
    );
    bridge = createBridgeInvoker({
      now: () => performance.now(),
      services: () => resolver,
      onServiceUnresolved: (hook, service, error) => unresolved.push({ hook, service, error }),
    });
  });

  afterAll(async () => {
    await bridge?.close();
    await resolver?.close();
    await policy?.close();
    await moved?.close();
    await api?.close();
  });

  const call = (name: string, service: { name: string; port?: number; path?: string }): Promise<HookReply> =>
    bridge.invoke(
      hookCall({ name, clientConfig: { service: { namespace: NAMESPACE, ...service }, caBundle: ca.caBundle } }),
      new AbortController().signal,
    );

  it('calls the webhook at the ClusterIP and Service port, verifying <name>.<namespace>.svc', async () => {
    const reply = await call('policy.example.com', { name: 'policy', port: policy.port, path: '/hooks/allow' });
    expect(reply).toMatchObject({ ok: true, answer: { allowed: true } });
    expect(policy.callsTo('allow')).toHaveLength(1);
    expect(policy.callsTo('allow')[0]).toMatchObject({ method: 'POST', timeoutParam: '10s' });
  });

  it('refuses a webhook whose certificate does not name the Service it was reached through', async () => {
    api.addService(NAMESPACE, 'impostor', { clusterIP: '127.0.0.2', ports: [{ port: policy.port }] });
    const reply = await call('impostor.example.com', { name: 'impostor', port: policy.port, path: '/allow' });
    expect(reply).toMatchObject({
      ok: false,
      failure: {
        kind: 'transport',
        message: expect.stringContaining(`Host: impostor.${NAMESPACE}.svc. is not in the cert's altnames`) as unknown,
      },
    });
  });

  it('fails a reference to a port the Service does not have, in the apiserver words, and says which hook', async () => {
    const reply = await call('wrong-port.example.com', { name: 'policy', port: 8080, path: '/allow' });
    expect(reply).toMatchObject({
      ok: false,
      failure: {
        kind: 'transport',
        message: `failed to call webhook: Post "https://policy.${NAMESPACE}.svc:8080/allow?timeout=10s": no service port 8080 found for service "policy"`,
      },
    });
    expect(unresolved).toContainEqual({
      hook: 'wrong-port.example.com',
      service: { namespace: NAMESPACE, name: 'policy', port: 8080 },
      error: 'no service port 8080 found for service "policy"',
    });
  });

  it('defaults the port to 443 and dials the ClusterIP there (nothing listens on 127.0.0.2:443)', async () => {
    const reply = await call('default-port.example.com', { name: 'policy', path: '/allow' });
    expect(reply).toMatchObject({
      ok: false,
      failure: {
        kind: 'transport',
        message: `failed to call webhook: Post "https://policy.${NAMESPACE}.svc:443/allow?timeout=10s": dial tcp 127.0.0.2:443: connect: connection refused`,
      },
    });
  });

  it('fails a missing Service and a headless one as the apiserver does', async () => {
    const missing = await call('missing.example.com', { name: 'missing', port: 443 });
    expect(missing).toMatchObject({
      ok: false,
      failure: {
        message: `failed to call webhook: Post "https://missing.${NAMESPACE}.svc:443/?timeout=10s": service "missing" not found`,
      },
    });
    const headless = await call('headless.example.com', { name: 'headless', port: 443 });
    expect(headless).toMatchObject({
      ok: false,
      failure: { message: expect.stringMatching(/: cannot route to service with ClusterIP "None"$/) as unknown },
    });
  });

  it('follows the Service through its watch: recreated with another ClusterIP, calls go there', async () => {
    expect(await call('policy.example.com', { name: 'policy', port: policy.port, path: '/allow' })).toMatchObject({
      ok: true,
    });
    const service = api.store.get(api.store.resourceForKind('v1', 'Service'), 'policy', NAMESPACE);
    if (service === undefined) throw new Error('the policy Service is missing');
    api.update({
      ...service,
      spec: { ...(service.spec as object), clusterIP: '127.0.0.3', ports: [{ port: moved.port }] },
    });
    await expect
      .poll(async () => (await call('policy.example.com', { name: 'policy', port: moved.port, path: '/allow' })).ok, {
        timeout: 10_000,
      })
      .toBe(true);
    expect(moved.callsTo('allow').length).toBeGreaterThan(0);
  });

  it('says why when the apiserver refuses to list the Service (RBAC) and recovers when it is allowed', async () => {
    api.failRequests({ path: `/api/v1/namespaces/${NAMESPACE}/services`, status: 403 });
    const denied = await call('other.example.com', { name: 'other', port: policy.port });
    expect(denied).toMatchObject({
      ok: false,
      failure: {
        message: expect.stringContaining(
          `cannot resolve service "other" in namespace "${NAMESPACE}": HTTP 403`,
        ) as unknown,
      },
    });
    api.clearFailures();
    api.addService(NAMESPACE, 'other', { clusterIP: '127.0.0.2', ports: [{ port: policy.port }] });
    await expect
      .poll(async () => (await call('other.example.com', { name: 'other', port: policy.port, path: '/allow' })).ok, {
        timeout: 10_000,
      })
      .toBe(true);
  });

  it('watches the Services the hooks name and stops watching the ones no hook names any more', async () => {
    // An apiserver of its own: the other tests' watches come and go on the shared one.
    const own = await FakeApiServer.start();
    const resolver = apiserverServiceResolver(
      loadKubeConfig({ mode: 'kubeconfig', kubeconfig: await own.writeKubeconfig() }),
    );
    try {
      resolver.watch([
        { namespace: NAMESPACE, name: 'policy' },
        { namespace: NAMESPACE, name: 'headless' },
      ]);
      await expect.poll(() => own.openWatches, { timeout: 10_000 }).toBe(2);
      resolver.watch([{ namespace: NAMESPACE, name: 'policy' }]);
      await expect.poll(() => own.openWatches, { timeout: 10_000 }).toBe(1);
    } finally {
      await resolver.close();
      await expect.poll(() => own.openWatches, { timeout: 10_000 }).toBe(0);
      await own.close();
    }
  });

  it('check-config: a warning for each reference that will not resolve, none for one that does', async () => {
    api.addService(NAMESPACE, 'stable', { clusterIP: '127.0.0.4', ports: [{ port: 443, targetPort: 8443 }] });
    const dir = await tempDir('hookgate-service-refs-');
    const kubeconfig = await api.writeKubeconfig();
    await writeFile(
      join(dir.dir, 'gateway.yaml'),
      gatewayYaml(`kubernetes: { mode: kubeconfig, kubeconfig: ${kubeconfig} }`),
    );
    const loaded = await loadConfiguration(dir.dir);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
    const warnings = await checkServiceReferences(loaded.value);
    expect(warnings).toEqual([
      {
        configuration: 'ValidatingWebhookConfiguration/bridged',
        hook: 'missing.example.com',
        service: `${NAMESPACE}/missing:443`,
        message: 'service "missing" not found: create it, or give the hook a url',
      },
    ]);

    const cli = await runCli(['check-config', '--config', dir.dir]);
    expect(cli.code).toBe(0);
    expect(cli.stderr).toContain(
      `warning: ValidatingWebhookConfiguration/bridged webhook "missing.example.com": service ${NAMESPACE}/missing:443: service "missing" not found`,
    );
    await dir.cleanup();
  });

  it('check-config without apiserver access: the DNS name will not resolve on a control-plane node', async () => {
    const dir = await tempDir('hookgate-service-refs-');
    await writeFile(join(dir.dir, 'gateway.yaml'), gatewayYaml('kubernetes: { mode: none }'));
    const loaded = await loadConfiguration(dir.dir);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
    const warnings = await checkServiceReferences(loaded.value);
    expect(warnings.map((w) => w.hook)).toEqual(['missing.example.com', 'stable.example.com']);
    expect(warnings[0]?.message).toContain(`kubernetes.mode: none), so it looks up missing.${NAMESPACE}.svc in DNS`);
    await dir.cleanup();
  });
});

function hookCall(webhook: WebhookSpec & { name: string }): HookCall {
  const [hook] = compileHooks([
    defaultConfiguration({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'bridged' },
      webhooks: [
        {
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          ...webhook,
        },
      ],
    }),
  ]).validating;
  if (hook === undefined) throw new Error('the hook did not compile');
  return {
    hook,
    request: podAdmissionRequest({ uid: randomUUID() }),
    version: 'v1',
    round: 0,
    deadline: performance.now() + 10_000,
    timeoutSeconds: 10,
    patchFromOriginal: [],
  };
}

function gatewayYaml(kubernetes: string): string {
  return `apiVersion: hookgate.dev/v1alpha1
kind: GatewayConfiguration
admission: { port: 0, tls: { disabled: true } }
stateDir: ./state
${kubernetes}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: bridged }
webhooks:
  - name: missing.example.com
    clientConfig: { service: { namespace: ${NAMESPACE}, name: missing } }
    rules: [{ operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods] }]
    sideEffects: None
    admissionReviewVersions: [v1]
  - name: stable.example.com
    clientConfig: { service: { namespace: ${NAMESPACE}, name: stable, port: 443 } }
    rules: [{ operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods] }]
    sideEffects: None
    admissionReviewVersions: [v1]
`;
}
