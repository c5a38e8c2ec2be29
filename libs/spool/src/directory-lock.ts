/**
 * One writer per spool directory: a `lock` file created with O_EXCL holding the owner's pid. A lock
 * whose pid is no longer running is stale (the owner crashed) and is taken over. Our own pid in a
 * lock this process does not hold is stale too: a container restarts its main process as pid 1.
 * Advisory only, and local: it does not work across hosts sharing a network file system.
 */
import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { HG_ERR_SPOOL_LOCKED } from '@hookgate/errors';

export const LOCK_FILE = 'lock';

/** Directories this process holds, so a second open in the same process is refused as well. */
const heldHere = new Set<string>();

export interface DirectoryLock {
  release(): Promise<void>;
}

export async function lockDirectory(dir: string): Promise<DirectoryLock> {
  const dirKey = path.resolve(dir);
  const lockFile = path.join(dirKey, LOCK_FILE);
  if (heldHere.has(dirKey)) throw new HG_ERR_SPOOL_LOCKED(dirKey, `${process.pid} (this process)`, lockFile);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockFile, 'wx');
      try {
        await handle.writeFile(`${process.pid}\n`);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      heldHere.add(dirKey);
      return {
        async release() {
          heldHere.delete(dirKey);
          await rm(lockFile, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const owner = await readOwner(lockFile);
    if (owner !== undefined && isRunning(owner)) throw new HG_ERR_SPOOL_LOCKED(dirKey, String(owner), lockFile);
    if (owner === undefined) {
      throw new HG_ERR_SPOOL_LOCKED(dirKey, 'unknown (the lock file holds no pid)', lockFile);
    }
    // Stale: its owner is gone. Not atomic: two processes reclaiming the same stale lock at the
    // same moment could both succeed (the second unlinks the first's new lock); see the README.
    await rm(lockFile, { force: true });
  }
}

async function readOwner(lockFile: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(lockFile, 'utf8')).trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return false; // not held here (checked above): left by an earlier us
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}
