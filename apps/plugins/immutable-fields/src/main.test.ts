/** The immutable-fields process itself (src/main.ts): serving, graceful SIGTERM, startup errors. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runPluginMain } from '@hookgate/plugin-sdk/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

describe('immutable-fields main', () => {
  it('serves, then exits 0 on SIGTERM', async () => {
    const run = await runPluginMain({ pluginDir, config: 'kinds: { apps/Deployment: [spec.selector] }\n' });
    expect(run.health).toBe('SERVING');
    expect(run.exitCode).toBe(0);
  }, 30_000);

  it('an invalid configuration exits 1 naming the field', async () => {
    const run = await runPluginMain({ pluginDir, config: 'kinds: { apps/Deployment: ["spec..x"] }\n' });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('kinds[apps/Deployment][0]: Invalid value: "spec..x"');
  }, 30_000);
});
