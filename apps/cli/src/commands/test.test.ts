/**
 * `hookgate test` as a process: the example suite against the built-in plugins, which the CLI
 * starts from their `command` in the example configuration; a failing suite; an invalid one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@hookgate/devtools';
import { runCli } from '../test/run-cli.js';

const EXAMPLE = join(REPO_ROOT, 'docs/examples/policy-tests');

describe('hookgate test', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-cli-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the example suite (a directory) against the plugins it starts, and passes', async () => {
    const run = await runCli(['test', EXAMPLE]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('✓ a Deployment without them is denied, naming what is missing');
    expect(run.stdout).toMatch(/^7 passed, 0 failed$/m);
    expect(run.code).toBe(0);
  }, 90_000);

  it('writes JUnit XML and JSON', async () => {
    const junit = await runCli(['test', join(EXAMPLE, 'hookgate-test.yaml'), '-o', 'junit']);
    expect(junit.code).toBe(0);
    expect(junit.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(junit.stdout).toContain('<testsuite name="built-in plugins" tests="7" failures="0" errors="0"');
    expect(junit.stdout).toContain('name="moving a Subnet to another VPC is refused on UPDATE"');

    const json = await runCli(['test', join(EXAMPLE, 'hookgate-test.yaml'), '-o', 'json']);
    const data = JSON.parse(json.stdout) as {
      passed: number;
      failed: number;
      suites: {
        cases: { name: string; result: string; allowed: boolean; hooks: { hook: string; result: string }[] }[];
      }[];
    };
    expect(data).toMatchObject({ passed: 7, failed: 0 });
    const denied = data.suites[0]!.cases.find((c) => c.name.startsWith('a Deployment without'))!;
    expect(denied).toMatchObject({ result: 'passed', allowed: false, status: { code: 403 } });
    expect(denied.hooks).toContainEqual(
      expect.objectContaining({ hook: 'required-labels.hookgate.dev', result: 'denied' }),
    );
  }, 90_000);

  it('reports each expectation that is not met, and exits 1', async () => {
    const suite = join(dir, 'failing.yaml');
    await writeFile(
      suite,
      `apiVersion: hookgate.dev/v1alpha1
kind: TestSuite
metadata: { name: failing }
configuration: ${join(EXAMPLE, 'hookgate.yaml')}
tests:
  - name: expects the wrong things
    object: ${join(EXAMPLE, 'objects/deployments.yaml')}#2
    expect:
      allowed: true
      hooks:
        required-labels.hookgate.dev: skipped
        no-such-hook.example.com: allowed
  - name: names a document that is not there
    object: ${join(EXAMPLE, 'objects/pod.yaml')}#3
    expect: { allowed: true }
`,
    );
    const run = await runCli(['test', suite]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ expects the wrong things');
    expect(run.stdout).toContain('expected allowed, got denied: admission webhook "required-labels.hookgate.dev"');
    expect(run.stdout).toContain('hook required-labels.hookgate.dev: expected skipped, got denied');
    expect(run.stdout).toContain(
      'hook no-such-hook.example.com: not in the configuration (configured: immutable-fields.hookgate.dev, pod-defaults.hookgate.dev, required-labels.hookgate.dev)',
    );
    expect(run.stdout).toContain('! names a document that is not there (error)');
    expect(run.stdout).toContain('has no document 3 (it has 1)');
    expect(run.stdout).toMatch(/^0 passed, 1 failed, 1 could not run$/m);
  }, 90_000);

  it('refuses an invalid suite with every problem, and exits 2 without running anything', async () => {
    const suite = join(dir, 'invalid.yaml');
    await writeFile(
      suite,
      `apiVersion: hookgate.dev/v1alpha1
kind: TestSuite
tests:
  - name: typo
    object: { apiVersion: v1, kind: Pod, metadata: { name: p } }
    expct: { allowed: true }
  - name: a result that does not exist
    expect: { hooks: { a.example.com: approved } }
`,
    );
    const run = await runCli(['test', suite]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      `hookgate test: ${suite}: tests[0].expct: Unknown field: did you mean "expect"?`,
      `hookgate test: ${suite}: tests[1].object: Required value: a file (relative to the suite, file.yaml#2 for its second document) or an object`,
      `hookgate test: ${suite}: tests[1].expect.hooks[a.example.com]: Unsupported value: "approved": supported values: "allowed", "patched", "denied", "failed-open", "failed-closed", "refused", "patch-error", "rejected", "skipped", "not-run"`,
    ]);
  }, 30_000);
});
