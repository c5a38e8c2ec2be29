import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./testing/fixtures/default-logger-main.ts', import.meta.url));

describe("servePlugin's default logger", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-sdk-logger-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the gateway schema: level label, ISO time, pid, hostname, the plugin as component', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', FIXTURE, '--listen', `unix://${join(dir, 'p.sock')}`],
      { timeout: 20_000 },
    );
    const raw = stdout.split('\n').filter((line) => line.trim() !== '');
    const lines = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => l['msg'])).toEqual(['plugin serving', 'plugin stopped']);
    for (const line of lines) {
      expect(line).toMatchObject({
        level: 'info',
        hostname: hostname(),
        component: 'team-label',
        plugin: 'team-label',
      });
      expect(line['time']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(line['pid']).toEqual(expect.any(Number));
      expect(line).not.toHaveProperty('name');
    }
    for (const line of raw) expect(line.split('"component":').length - 1).toBe(1);
  }, 30_000);
});
