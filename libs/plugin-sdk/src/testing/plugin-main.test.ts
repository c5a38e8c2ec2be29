import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runPluginMain } from './plugin-main.js';
import { startPluginProcess } from './plugin-process.js';
import { tempDir } from './temp-dir.js';

const SDK_DIR = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = 'src/testing/fixtures/team-label-main.ts';

describe('runPluginMain', () => {
  const cases: { name: string; config: string; health: string | undefined; exitCode: number; stderr: string }[] = [
    {
      name: 'a valid configuration: serves, then exits 0 on SIGTERM',
      config: 'team: shop\n',
      health: 'SERVING',
      exitCode: 0,
      stderr: '',
    },
    {
      name: 'an invalid configuration: exits 1 without serving, naming the field',
      config: 'team: [shop]\n',
      health: undefined,
      exitCode: 1,
      stderr: 'team: Invalid value: []string{"shop"}: must be a string',
    },
  ];
  for (const c of cases) {
    it(
      c.name,
      async () => {
        const run = await runPluginMain({ pluginDir: SDK_DIR, entry: ENTRY, config: c.config });
        expect(run.health).toBe(c.health);
        expect(run.exitCode).toBe(c.exitCode);
        expect(run.stderr).toContain(c.stderr);
      },
      30_000,
    );
  }
});

describe('startPluginProcess', () => {
  it('kill() ends the process by pid', async () => {
    const plugin = startPluginProcess({
      cwd: SDK_DIR,
      entry: ENTRY,
      args: ['--config', '/nonexistent/config.yaml', '--listen', 'unix:///nonexistent/x.sock'],
    });
    plugin.kill();
    await plugin.exited();
    expect(plugin.child.exitCode !== null || plugin.child.signalCode !== null).toBe(true);
  }, 30_000);

  it('serving() throws with stderr when the process exits first', async () => {
    const plugin = startPluginProcess({
      cwd: SDK_DIR,
      entry: ENTRY,
      args: ['--config', '/nonexistent/config.yaml', '--listen', 'unix:///nonexistent/x.sock'],
    });
    try {
      await expect(plugin.serving('unix:///nonexistent/x.sock')).rejects.toThrow(
        /plugin exited with 1: team-label: invalid configuration in \/nonexistent\/config\.yaml:\n {2}- cannot read the file: ENOENT/,
      );
    } finally {
      plugin.kill();
    }
  }, 30_000);

  it('waitForOutput() sees what it prints and stop() ends it with SIGTERM', async () => {
    const tmp = await tempDir('hookgate-plugin-process-');
    // A stand-in for a plugin that logs a line once it listens and exits 0 on SIGTERM.
    const entry = path.join(tmp.dir, 'prints.mjs');
    await writeFile(
      entry,
      "process.on('SIGTERM', () => process.exit(0));\nsetInterval(() => {}, 1000);\nconsole.log('listening unix:///x.sock');\n",
    );
    const plugin = startPluginProcess({ cwd: SDK_DIR, entry, args: [] });
    try {
      expect((await plugin.waitForOutput(/listening (\S+)/))[1]).toBe('unix:///x.sock');
      expect(plugin.stdout()).toBe('listening unix:///x.sock\n');
      await plugin.stop();
      expect(await plugin.exited()).toBe(0);
    } finally {
      plugin.kill();
      await tmp.cleanup();
    }
  }, 30_000);

  it('waitForOutput() throws with the output when the process exits first', async () => {
    const plugin = startPluginProcess({
      cwd: SDK_DIR,
      entry: ENTRY,
      args: ['--config', '/nonexistent/config.yaml', '--listen', 'unix:///nonexistent/x.sock'],
    });
    try {
      await expect(plugin.waitForOutput(/plugin serving/)).rejects.toThrow(
        /exited with 1 before printing \/plugin serving\/; stdout:[\s\S]*cannot read the file: ENOENT/,
      );
    } finally {
      plugin.kill();
    }
  }, 30_000);
});
