import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createRequestIds } from './request-id.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/request-ids.ts', import.meta.url));

describe('createRequestIds', () => {
  it('counts after one prefix within a process', () => {
    const next = createRequestIds('p');
    expect([next(), next(), next()]).toEqual(['p-1', 'p-2', 'p-3']);
  });

  it('gives two processes (two gateway workers) ids that never meet', async () => {
    const run = () => promisify(execFile)(process.execPath, ['--import', 'tsx', FIXTURE], { timeout: 20_000 });
    const outputs = await Promise.all([run(), run()]);
    const [first, second] = outputs.map(({ stdout }) => stdout.trim().split('\n'));
    expect(first).toHaveLength(3);
    expect(second).toHaveLength(3);
    for (const id of [...first!, ...second!]) expect(id).toMatch(/^[0-9a-f]{12}-[1-3]$/);
    expect(new Set([...first!, ...second!]).size).toBe(6);
  }, 30_000);
});
