/** `hookgate check-config` as a process: standalone webhook files, problem order, JSON, plugin names. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigError } from '@hookgate/config';
import { runCli } from '../test/run-cli.js';

const GATEWAY = `apiVersion: hookgate.dev/v1alpha1
kind: GatewayConfiguration
plugins:
  - { name: pod-defaults, target: "unix:///run/hookgate/pod-defaults.sock" }
  - { name: required-labels, target: "unix:///run/hookgate/required-labels.sock" }
`;

const webhooks = (name: string, plugin: string, operation = 'CREATE') => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: ${name} }
webhooks:
  - name: ${name}.example.com
    clientConfig: { plugin: ${plugin} }
    rules:
      - { operations: [${operation}], apiGroups: [""], apiVersions: [v1], resources: [pods] }
    sideEffects: None
    admissionReviewVersions: [v1]
`;

describe('hookgate check-config', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-cli-check-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('checks a webhook configuration file on its own, and says what it could not check', async () => {
    const file = join(dir, 'standalone.yaml');
    await writeFile(file, webhooks('alone', 'anything'));
    const run = await runCli(['check-config', '--config', file]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      'note: no GatewayConfiguration: checked as webhook configurations on their own (plugin names not checked; `hookgate serve` needs one)',
      `${file}: configuration is valid: 0 mutating and 1 validating hook(s) in 1 webhook configuration(s), 0 plugin(s)`,
      '',
    ]);
  });

  it('prints problems in file and line order, with JSON carrying the same', async () => {
    const configDir = join(dir, 'ordered');
    await mkdir(configDir);
    // a.yaml holds a webhook configuration (a problem on line 8) before the GatewayConfiguration
    // (one on line 14): the loader finds the second first; the report is in line order.
    await writeFile(
      join(configDir, 'a.yaml'),
      `${webhooks('one', 'pod-defaults', 'PATCH')}---\n${GATEWAY.replace('plugins:', 'workers: many\nplugins:')}`,
    );
    await writeFile(join(configDir, 'b.yaml'), webhooks('two', 'pod-defaults', 'PATCH'));
    const unsupported =
      'webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"';
    const text = await runCli(['check-config', '--config', configDir]);
    expect(text.code).toBe(1);
    expect(text.stderr.split('\n')).toEqual([
      `${join(configDir, 'a.yaml')}:8 (document 1, ValidatingWebhookConfiguration "one"): ${unsupported}`,
      `${join(configDir, 'a.yaml')}:14 (document 2, GatewayConfiguration): workers: Invalid value: "many": must be an integer`,
      `${join(configDir, 'b.yaml')}:8 (document 1, ValidatingWebhookConfiguration "two"): ${unsupported}`,
      `${configDir}: 3 problem(s)`,
      '',
    ]);

    const json = await runCli(['check-config', '--config', configDir, '-o', 'json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { valid: boolean; problems: ConfigError[] };
    expect(report.valid).toBe(false);
    expect(report.problems.map((p) => [p.file, p.line, p.field, p.rule])).toEqual([
      [join(configDir, 'a.yaml'), 8, 'webhooks[0].rules[0].operations[0]', 'FieldValueNotSupported'],
      [join(configDir, 'a.yaml'), 14, 'workers', 'FieldValueInvalid'],
      [join(configDir, 'b.yaml'), 8, 'webhooks[0].rules[0].operations[0]', 'FieldValueNotSupported'],
    ]);
  });

  it('answers an unknown plugin name with the declared ones', async () => {
    const file = join(dir, 'typo.yaml');
    await writeFile(file, `${GATEWAY}---\n${webhooks('typo', 'pod-default')}`);
    const run = await runCli(['check-config', '--config', file, '-o', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { problems: ConfigError[] };
    expect(report.problems.map((p) => p.message)).toEqual([
      'webhooks[0].clientConfig.plugin: Unsupported value: "pod-default": supported values: "pod-defaults", "required-labels"',
    ]);
  });

  it('says so when a hook names a plugin and none is declared; JSON marks a standalone check', async () => {
    const file = join(dir, 'none-declared.yaml');
    await writeFile(
      file,
      `apiVersion: hookgate.dev/v1alpha1\nkind: GatewayConfiguration\n---\n${webhooks('x', 'opa')}`,
    );
    const run = await runCli(['check-config', '--config', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'webhooks[0].clientConfig.plugin: Invalid value: "opa": no plugin is declared to serve it',
    );

    const standalone = join(dir, 'standalone-json.yaml');
    await writeFile(standalone, webhooks('alone', 'opa'));
    const json = await runCli(['check-config', '--config', standalone, '-o', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, standalone: true, problems: [] });
  });

  it('reports a valid configuration as JSON', async () => {
    const file = join(dir, 'valid.yaml');
    await writeFile(file, `${GATEWAY}---\n${webhooks('ok', 'required-labels')}`);
    const run = await runCli(['check-config', '--config', file, '-o', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      config: file,
      valid: true,
      summary: '0 mutating and 1 validating hook(s) in 1 webhook configuration(s), 2 plugin(s)',
      problems: [],
      warnings: [],
    });
  });
});
