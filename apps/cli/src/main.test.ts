/** `hookgate` as a process: --version, and where --config comes from when it is not given. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './test/run-cli.js';
import { CLI_VERSION } from './version.js';

describe('hookgate', () => {
  it('prints its version', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await runCli([flag]);
      expect(run).toEqual({ code: 0, stdout: `hookgate ${CLI_VERSION}\n`, stderr: '' });
    }
    expect(CLI_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('shows the default --config in help: /etc/hookgate, or $HOOKGATE_CONFIG when set', async () => {
    const standard = await runCli(['check-config', '--help']);
    expect(standard.stdout.replace(/\s+/g, ' ')).toContain(
      '--config <path> a YAML file or a directory; webhook configurations without a GatewayConfiguration are checked on their own (env HOOKGATE_CONFIG, else /etc/hookgate) (default: /etc/hookgate)',
    );
    const fromEnv = await runCli(['review', '--help'], { env: { HOOKGATE_CONFIG: '/srv/hookgate.yaml' } });
    expect(fromEnv.stdout.replace(/\s+/g, ' ')).toContain('(default: $HOOKGATE_CONFIG: /srv/hookgate.yaml)');
  });

  it('reads the configuration $HOOKGATE_CONFIG names when --config is not given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookgate-cli-main-'));
    try {
      const file = join(dir, 'gateway.yaml');
      await writeFile(file, 'apiVersion: hookgate.dev/v1alpha1\nkind: GatewayConfiguration\n');
      const run = await runCli(['check-config'], { env: { HOOKGATE_CONFIG: file } });
      expect(run.stdout).toBe(
        `${file}: configuration is valid: 0 mutating and 0 validating hook(s) in 0 webhook configuration(s), 0 plugin(s)\n`,
      );
      expect(run.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
