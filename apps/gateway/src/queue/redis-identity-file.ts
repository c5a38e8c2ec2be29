/**
 * The last Redis run_id the gateway saw, kept in stateDir across gateway restarts: when Redis
 * restarted empty while the gateway was down too (a node reboot), the first run_id read after the
 * start differs from this one and the recent jobs are replayed all the same. Written atomically
 * (temp file, rename); an unreadable file counts as "never seen", which replays: a duplicate is
 * harmless, a lost job is not.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const FILE = 'redis-run-id';

export function redisIdentityFile(stateDir: string): string {
  return join(stateDir, FILE);
}

export async function readLastRunId(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return /^[0-9a-f]+$/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

export async function writeLastRunId(file: string, runId: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  await writeFile(temp, `${runId}\n`);
  await rename(temp, file);
}
