/**
 * The `hookgate` command as an operator runs it from the repository root: `npx hookgate`,
 * check-config (every problem, exit 1), print-webhooks (the apiserver-side registrations whose
 * caBundle verifies the running gateway), and review (a manifest dry-run through the hooks).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startGateway } from '@hookgate/devtools';
import { podCreateReview } from '../src/pod-review.js';
import { runCli } from '../src/run-cli.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';

const POD_MANIFEST = `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: default
  labels: { app: web }
spec:
  containers: [{ name: app, image: nginx:1.27 }]
`;

describe('hookgate CLI', () => {
  let dir: string;
  let webhook: TestWebhookServer;
  const file = (name: string) => join(dir, name);
  const hooks = (denyBehaviour: string) => [
    webhookConfiguration('mutating', 'labels', [
      { name: 'add-label.example.com', clientConfig: { url: `${webhook.origin}/addLabel` } },
    ]),
    webhookConfiguration('validating', 'policy', [
      { name: 'policy.example.com', clientConfig: { url: `${webhook.origin}/${denyBehaviour}` }, timeoutSeconds: 5 },
    ]),
  ];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-cli-'));
    webhook = await startWebhookServer();
    await writeFile(file('allow.yaml'), gatewayConfigYaml(hooks('allow'), { extra: { stateDir: './state' } }));
    await writeFile(file('deny.yaml'), gatewayConfigYaml(hooks('disallowReason'), { extra: { stateDir: './state' } }));
    await writeFile(file('pod.yaml'), POD_MANIFEST);
    await writeFile(
      file('broken.yaml'),
      gatewayConfigYaml([
        webhookConfiguration('validating', 'broken', [
          { name: 'no-dots', clientConfig: { url: 'http://example.com/x' }, timeoutSeconds: 0 },
          { name: 'ok.example.com', clientConfig: { plugin: 'missing' }, failurePolicy: 'Sometimes' },
        ]),
      ]),
    );
  });
  afterAll(async () => {
    await webhook?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs through npx from the repository root', async () => {
    const result = await runCli(['check-config', '--config', file('allow.yaml')], { viaNpx: true });
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(
      'configuration is valid: 1 mutating and 1 validating hook(s) in 2 webhook configuration(s), 0 plugin(s)',
    );
  });

  it('check-config prints every problem with file and line, and exits 1', async () => {
    const result = await runCli(['check-config', '--config', file('broken.yaml')]);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    for (const field of [
      'webhooks[0].name',
      'webhooks[0].clientConfig.url',
      'webhooks[0].timeoutSeconds',
      'webhooks[1].failurePolicy',
      'webhooks[1].clientConfig.plugin',
    ]) {
      expect(lines.some((l) => l.includes(field) && l.startsWith(`${file('broken.yaml')}:`))).toBe(true);
    }
    expect(lines.at(-1)).toMatch(/\d+ problem\(s\)$/);
  });

  it('print-webhooks prints the two registrations, narrowed to the hooks, and their caBundle verifies the gateway', async () => {
    const result = await runCli(['print-webhooks', '--config', file('allow.yaml')]);
    expect(result.code).toBe(0);
    type Registration = {
      kind: string;
      webhooks: { clientConfig: { url: string; caBundle?: string }; reinvocationPolicy?: string }[];
    };
    const docs = parseAllDocuments(result.stdout).map((d) => d.toJS() as Registration);
    expect(docs.map((d) => d.kind)).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
    const [mutating, validating] = docs.map((d) => d.webhooks[0]!);
    // Both hooks are Fail hooks on pod CREATE/UPDATE: one Fail webhook per phase, with their rules.
    expect(docs.map((d) => d.webhooks.length)).toEqual([1, 1]);
    expect(mutating).toMatchObject({
      name: 'mutate-fail.hookgate.dev',
      clientConfig: { url: 'https://127.0.0.1:8443/mutate/fail' },
      rules: [
        { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' },
      ],
      matchPolicy: 'Exact',
      reinvocationPolicy: 'Never',
      namespaceSelector: {
        matchExpressions: [
          { key: 'runlevel', operator: 'NotIn', values: ['0', '1'] },
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'kube-node-lease'] },
        ],
      },
      sideEffects: 'NoneOnDryRun',
      admissionReviewVersions: ['v1', 'v1beta1'],
      failurePolicy: 'Fail',
    });
    expect(validating).toMatchObject({
      name: 'validate-fail.hookgate.dev',
      clientConfig: { url: 'https://127.0.0.1:8443/validate/fail' },
      matchPolicy: 'Exact',
      timeoutSeconds: 6,
    });
    expect(validating!.reinvocationPolicy).toBeUndefined();

    const caBundle = mutating!.clientConfig.caBundle ?? '';
    expect(validating!.clientConfig.caBundle).toBe(caBundle);
    const gateway = await startGateway({
      config: gatewayConfigYaml(hooks('allow'), { extra: { stateDir: join(dir, 'state') } }),
      insecureHttp: false,
      extraArgs: ['--state-dir', join(dir, 'state')],
    });
    const client = new AdmissionClient(gateway.admissionUrl, { ca: Buffer.from(caBundle, 'base64').toString('utf8') });
    try {
      const { status, review } = await client.post('/validate/fail', podCreateReview());
      expect(status).toBe(200);
      expect(review.response?.allowed).toBe(true);
    } finally {
      await client.close();
      await gateway.stop();
    }
  });

  it('print-webhooks --url-host changes the host in both URLs', async () => {
    const result = await runCli(['print-webhooks', '--config', file('allow.yaml'), '--url-host', 'localhost']);
    expect(result.stdout).toContain('url: https://localhost:8443/mutate/fail');
    expect(result.stdout).toContain('url: https://localhost:8443/validate/fail');
  });

  const reviews = [
    {
      name: 'a manifest the hooks allow (mutated)',
      config: 'allow.yaml',
      code: 0,
      contains: [
        '✓ mutating add-label.example.com: patched',
        '✓ validating policy.example.com: allowed',
        'decision: allowed (patched)',
        '+    added: test',
      ],
    },
    {
      name: 'a manifest a hook denies',
      config: 'deny.yaml',
      code: 2,
      contains: [
        '✓ mutating add-label.example.com: patched',
        '✗ validating policy.example.com: denied',
        'admission webhook "policy.example.com" denied the request: you shall not pass',
        'decision: denied (403)',
      ],
    },
  ];
  it.each(reviews)('review: $name', async ({ config, code, contains }) => {
    const result = await runCli(['review', '--config', file(config), file('pod.yaml')]);
    expect(result.code).toBe(code);
    expect(result.stdout).toContain(`${file('pod.yaml')}: CREATE v1/pods default/web`);
    for (const text of contains) expect(result.stdout).toContain(text);
  });

  it('review --output json prints the decision as data', async () => {
    const result = await runCli(['review', '--config', file('deny.yaml'), '--output', 'json', file('pod.yaml')]);
    const report = JSON.parse(result.stdout);
    expect(report.allowed).toBe(false);
    expect(report.status.code).toBe(403);
    expect(report.hooks[0]).toMatchObject({ phase: 'mutating', hook: 'add-label.example.com', result: 'patched' });
    expect(report.patch).toEqual([{ op: 'add', path: '/metadata/labels/added', value: 'test' }]);
    expect(report.object.metadata.labels).toEqual({ app: 'web', added: 'test' });
  });

  it('review refuses a file that is neither a review nor a manifest', async () => {
    await writeFile(file('junk.yaml'), '- just\n- a list\n');
    const result = await runCli(['review', '--config', file('allow.yaml'), file('junk.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('expected an object with apiVersion and kind');
  });
});
