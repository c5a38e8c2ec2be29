/**
 * A fresh directory under the OS temp dir for one test (sockets, configuration files, state), and
 * the call that removes it with everything inside. The one temp-dir helper of the repository.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface TempDir {
  readonly dir: string;
  cleanup(): Promise<void>;
}

/** `prefix` names the directory (`hookgate-<what>-XXXXXX`), so a leftover says which test made it. */
export async function tempDir(prefix = 'hookgate-test-'): Promise<TempDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
