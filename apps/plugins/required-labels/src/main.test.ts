/** The required-labels process itself (src/main.ts): serving, graceful SIGTERM, startup errors. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runPluginMain } from '@hookgate/plugin-sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

describe('required-labels main', () => {
  it('serves, then exits 0 on SIGTERM', async () => {
    const run = await runPluginMain({
      pluginDir,
      config: 'rules: [{ name: a, kinds: [Pod], labels: [{ key: team }] }]\n',
    });
    expect(run.health).toBe('SERVING');
    expect(run.exitCode).toBe(0);
  }, 30_000);

  it('an invalid configuration exits 1 naming the field', async () => {
    const run = await runPluginMain({
      pluginDir,
      config: 'rules: [{ name: a, kinds: [pods], labels: [{ key: team }] }]\n',
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('rules[0].kinds[0]: Invalid value: "pods"');
  }, 30_000);
});
