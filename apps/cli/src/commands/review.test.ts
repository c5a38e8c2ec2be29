/**
 * `hookgate review` as a process, against the built-in plugins running as their own processes
 * (used where they answer: the configuration declares no command for them), plus a plugin that
 * nothing serves.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '@hookgate/devtools';
import { startPluginProcess, type PluginProcess } from '@hookgate/plugin-sdk/testing';
import type { ReviewReport } from '../review-report.js';
import { runCli } from '../test/run-cli.js';

const EXAMPLE = join(REPO_ROOT, 'docs/examples/policy-tests');
const PLUGINS = ['pod-defaults', 'required-labels', 'immutable-fields'] as const;

/** The example configuration with the running plugins' sockets, no commands, and two hooks more. */
function configuration(exampleText: string, sockets: Record<string, string>, ghost: string): string {
  // The example's webhook configurations are reused as they are.
  const example = parseAllDocuments(exampleText).map((d) => d.toJS() as Record<string, unknown>);
  const gateway = example[0]!;
  gateway['plugins'] = [
    ...PLUGINS.map((name) => ({ name, target: `unix://${sockets[name]}` })),
    { name: 'ghost', target: `unix://${ghost}` },
  ];
  const extra = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'extra' },
    webhooks: [
      {
        name: 'audited-only.example.com',
        clientConfig: { plugin: 'ghost' },
        rules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }],
        objectSelector: { matchLabels: { audit: 'true' } },
        failurePolicy: 'Ignore',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
      {
        name: 'ghost.example.com',
        clientConfig: { plugin: 'ghost' },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
        failurePolicy: 'Ignore',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  };
  // Secrets: the first mutating hook fails closed (nothing serves ghost), so the second never runs.
  const secretRules = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }];
  const gate = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'gate' },
    webhooks: ['first', 'second'].map((name) => ({
      name: `${name}.example.com`,
      clientConfig: { plugin: 'ghost' },
      rules: secretRules,
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    })),
  };
  return [...example, extra, gate].map((d) => JSON.stringify(d)).join('\n---\n');
}

describe('hookgate review', () => {
  let dir: string;
  let config: string;
  const plugins: PluginProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-cli-review-'));
    const sockets = Object.fromEntries(PLUGINS.map((name) => [name, join(dir, `${name}.sock`)]));
    for (const name of PLUGINS) {
      const pluginDir = join(REPO_ROOT, 'apps/plugins', name);
      plugins.push(
        startPluginProcess({
          cwd: pluginDir,
          args: ['--config', 'config.example.yaml', '--listen', `unix://${sockets[name]}`],
        }),
      );
    }
    await Promise.all(plugins.map((p, i) => p.serving(`unix://${sockets[PLUGINS[i]!]}`)));
    config = join(dir, 'hookgate.yaml');
    await writeFile(config, configuration(await readExample('hookgate.yaml'), sockets, join(dir, 'ghost.sock')));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(plugins.map((p) => p.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  it('reviews every document of files, directories and stdin, and says why each hook ran or not', async () => {
    const objects = join(dir, 'objects');
    await mkdir(objects);
    await writeFile(join(objects, 'pod.yaml'), await readExample('objects/pod.yaml'));
    const stdin = `apiVersion: v1
kind: Pod
metadata: { name: dns, namespace: kube-system }
spec: { containers: [{ name: dns, image: coredns }] }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: settings, namespace: payments }
`;
    const run = await runCli(
      [
        'review',
        '--config',
        config,
        '-f',
        objects,
        '-f',
        join(EXAMPLE, 'objects/deployments.yaml'),
        '-f',
        '-',
        '-o',
        'json',
      ],
      { stdin },
    );
    expect(run.code).toBe(2); // the unlabelled Deployment is denied
    expect(run.stderr).toContain(
      `warning: plugin ghost: nothing answers at unix://${join(dir, 'ghost.sock')} and the configuration declares no command to start it; its hooks fail by their failurePolicy`,
    );
    const reports = JSON.parse(run.stdout) as ReviewReport[];
    expect(reports.map((r) => [r.source, r.request.operation, r.request.resource, r.allowed])).toEqual([
      [join(objects, 'pod.yaml'), 'CREATE', 'v1/pods', true],
      [`${join(EXAMPLE, 'objects/deployments.yaml')}#1`, 'CREATE', 'apps/v1/deployments', true],
      [`${join(EXAMPLE, 'objects/deployments.yaml')}#2`, 'CREATE', 'apps/v1/deployments', false],
      ['-#1', 'CREATE', 'v1/pods', true],
      ['-#2', 'CREATE', 'v1/configmaps', true],
    ]);
    const why = (i: number, hook: string) =>
      reports[i]!.hooks.filter((h) => h.hook === hook).map((h) => `${h.result}: ${h.reason ?? ''}`);

    // Every configured hook is listed for every object, called or not.
    for (const r of reports) expect(r.hooks).toHaveLength(7);
    expect(why(0, 'pod-defaults.hookgate.dev')).toEqual(['patched: ']);
    expect(why(0, 'required-labels.hookgate.dev')).toEqual([
      'skipped: rules: none matches CREATE v1/pods (namespaced)',
    ]);
    expect(why(1, 'audited-only.example.com')).toEqual([
      "skipped: objectSelector {audit=true} does not match the object's labels (team=payments, cost-center=4711, app.kubernetes.io/name=checkout)",
    ]);
    expect(why(1, 'required-labels.hookgate.dev')).toEqual(['allowed: ']);
    // A called hook says why it was called.
    expect(reports[1]!.hooks.find((h) => h.hook === 'required-labels.hookgate.dev')?.matched).toBe(
      'rules[0] matches; namespaceSelector matches namespace "payments"; 1 matchCondition true',
    );
    expect(why(2, 'required-labels.hookgate.dev')[0]).toMatch(
      /^denied: admission webhook "required-labels.hookgate.dev" denied the request: .*missing label "team"/,
    );
    expect(reports[2]!.status).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(why(3, 'pod-defaults.hookgate.dev')).toEqual([
      'skipped: namespaceSelector {kubernetes.io/metadata.name notin (kube-system,kube-node-lease)} does not match namespace "kube-system" (labels: kubernetes.io/metadata.name=kube-system)',
    ]);
    expect(why(4, 'ghost.example.com')[0]).toMatch(/^failed-open: failed to call webhook: .*ENOENT/);

    // The patched object, whole.
    expect(reports[0]!.object).toEqual(parse(await readExample('objects/pod-defaulted.yaml')));
    expect(reports[3]!.object).toEqual(parse(stdin.split('---')[0]!));
  }, 60_000);

  it('says which hooks never ran because an earlier one denied', async () => {
    const run = await runCli(['review', '--config', config, '-f', '-', '-o', 'json'], {
      stdin: 'apiVersion: v1\nkind: Secret\nmetadata: { name: s, namespace: payments }\n',
    });
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as ReviewReport;
    expect(report.hooks.map((h) => [h.hook, h.result, h.result === 'failed-closed' ? '' : h.reason])).toEqual([
      ['first.example.com', 'failed-closed', ''],
      ['second.example.com', 'not-run', 'an earlier hook denied the request'],
      ['pod-defaults.hookgate.dev', 'skipped', 'rules: none matches CREATE v1/secrets (namespaced)'],
      ['audited-only.example.com', 'not-run', 'the mutating phase denied the request'],
      ['ghost.example.com', 'not-run', 'the mutating phase denied the request'],
      ['immutable-fields.hookgate.dev', 'not-run', 'the mutating phase denied the request'],
      ['required-labels.hookgate.dev', 'not-run', 'the mutating phase denied the request'],
    ]);
  }, 30_000);

  it('names the matchCondition that skipped a hook', async () => {
    const run = await runCli([
      'review',
      '--config',
      config,
      '--user',
      'system:serviceaccount:ci:dry-run-bot',
      `${join(EXAMPLE, 'objects/deployments.yaml')}`,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `- validating required-labels.hookgate.dev: skipped: matchConditions: "not-a-dry-run-bot" is false: request.userInfo.username != 'system:serviceaccount:ci:dry-run-bot'`,
    );
  }, 30_000);

  it('sends --old as oldObject of an UPDATE, and refuses an UPDATE without it', async () => {
    const run = await runCli([
      'review',
      '--config',
      config,
      '--cluster-scoped',
      '--old',
      join(EXAMPLE, 'objects/subnet-stored.yaml'),
      join(EXAMPLE, 'objects/subnet-moved.yaml'),
      '-o',
      'yaml',
    ]);
    expect(run.code).toBe(2);
    const report = parse(run.stdout) as ReviewReport;
    expect(report.request).toEqual({
      operation: 'UPDATE',
      resource: 'ec2.aws.crossplane.io/v1beta1/subnets',
      namespace: '',
      name: 'prod-a',
    });
    expect(report.status?.message).toContain(
      'spec.forProvider.vpcId: cannot be changed once set (was "vpc-1234", now "vpc-9999")',
    );

    const same = await runCli([
      'review',
      '--config',
      config,
      '--cluster-scoped',
      '--old',
      join(EXAMPLE, 'objects/subnet-stored.yaml'),
      join(EXAMPLE, 'objects/subnet-stored.yaml'),
    ]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('✓ validating immutable-fields.hookgate.dev: allowed');

    const missing = await runCli([
      'review',
      '--config',
      config,
      '--operation',
      'UPDATE',
      join(EXAMPLE, 'objects/subnet-moved.yaml'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('UPDATE needs the object as stored: give it with --old FILE');
  }, 60_000);

  it('prints a diff of the patched object, in colour only when asked on a pipe', async () => {
    const plain = await runCli(['review', '--config', config, join(EXAMPLE, 'objects/pod.yaml')]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout).toContain('decision: allowed (patched)');
    expect(plain.stdout).toContain(`+++ ${join(EXAMPLE, 'objects/pod.yaml')} (patched)`);
    expect(plain.stdout).toContain('+      imagePullPolicy: IfNotPresent');
    expect(plain.stdout).toContain('+    team: payments');

    const forced = await runCli(['review', '--config', config, join(EXAMPLE, 'objects/pod.yaml')], {
      env: { FORCE_COLOR: '1' },
    });
    expect(forced.stdout).toContain('\u001b[32m+      imagePullPolicy: IfNotPresent');
    const refused = await runCli(['review', '--config', config, join(EXAMPLE, 'objects/pod.yaml')], {
      env: { FORCE_COLOR: '1', NO_COLOR: '1' },
    });
    expect(refused.stdout).not.toContain('\u001b[');
  }, 60_000);

  it('reports a plugin whose command fails, and lets its hooks fail by their failurePolicy', async () => {
    const file = join(dir, 'failing-commands.yaml');
    const hook = (name: string, plugin: string) => ({
      name,
      clientConfig: { plugin },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
      failurePolicy: 'Ignore',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    const docs = [
      {
        apiVersion: 'hookgate.dev/v1alpha1',
        kind: 'GatewayConfiguration',
        plugins: [
          {
            name: 'crashes',
            target: `unix://${join(dir, 'crashes.sock')}`,
            command: [process.execPath, '-e', 'console.error("no config"); process.exit(3)'],
          },
          { name: 'absent', target: `unix://${join(dir, 'absent.sock')}`, command: [join(dir, 'no-such-program')] },
        ],
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'failing' },
        webhooks: [hook('crashes.example.com', 'crashes'), hook('absent.example.com', 'absent')],
      },
    ];
    await writeFile(file, docs.map((d) => JSON.stringify(d)).join('\n---\n'));
    const run = await runCli(['review', '--config', file, '-f', '-'], {
      stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n',
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'warning: plugin crashes: its command exited with 3 before serving: no config; its hooks fail by their failurePolicy',
    );
    expect(run.stderr).toContain(`warning: plugin absent: could not run ${join(dir, 'no-such-program')}: spawn`);
    expect(run.stdout).toContain('! validating crashes.example.com: failed-open');
    expect(run.stdout).toContain('! validating absent.example.com: failed-open');
  }, 30_000);

  it('lists every problem of the input and runs nothing', async () => {
    const broken = join(dir, 'broken.yaml');
    await writeFile(broken, 'apiVersion: v1\nkind: Pod\nmetadata: { name: ok }\n---\nkind: [\n');
    const run = await runCli(['review', '--config', config, broken, join(dir, 'absent.yaml')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`hookgate review: ${broken}#2: not valid YAML or JSON:`);
    expect(run.stderr).toContain(`hookgate review: ${join(dir, 'absent.yaml')}: cannot read: ENOENT`);
  }, 30_000);
});

function readExample(file: string): Promise<string> {
  return readFile(join(EXAMPLE, file), 'utf8');
}
