/**
 * A lock file shared by processes on one host (the gateway's cluster workers, the CLI), so two of
 * them never create a CA or renew a certificate at the same time. The file holds the owner's pid;
 * a lock whose owner is gone is taken over.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';

export interface LockOptions {
  /** Give up after this long. Default 10 s. */
  readonly waitMs?: number;
  readonly retryMs?: number;
}

export async function withFileLock<T>(path: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.waitMs ?? 10_000);
  for (;;) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await ownerIsGone(path)) {
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (Date.now() >= deadline) {
        throw new Error(`lock ${path} is held by another process; if no hookgate process is running, delete the file`);
      }
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 25));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}

async function ownerIsGone(path: string): Promise<boolean> {
  let pid: number;
  try {
    pid = Number((await readFile(path, 'utf8')).trim());
  } catch {
    return false; // just released or being written: retry
  }
  // An empty file is usually a lock being written right now; only an old one is abandoned.
  if (!Number.isInteger(pid) || pid <= 0) {
    const age = await stat(path).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    return age > 5_000;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
