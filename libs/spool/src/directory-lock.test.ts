import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HG_ERR_SPOOL_LOCKED } from '@hookgate/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDirectory } from './directory-lock.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function lockDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-spool-lock-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A node process that lives until the test kills it (by its pid). */
async function liveProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  cleanups.push(() => {
    if (child.exitCode === null) process.kill(child.pid!, 'SIGKILL');
  });
  return child as ChildProcess & { pid: number };
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

describe('lockDirectory', () => {
  it('writes our pid into the lock file and removes it on release', async () => {
    const dir = await lockDir();
    const lock = await lockDirectory(dir);
    expect(await readFile(path.join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a second lock in the same process', async () => {
    const dir = await lockDir();
    const lock = await lockDirectory(dir);
    cleanups.push(() => lock.release());
    await expect(lockDirectory(dir)).rejects.toMatchObject({ code: HG_ERR_SPOOL_LOCKED.code });
  });

  it('refuses a lock held by a live process, naming its pid and the lock file', async () => {
    const dir = await lockDir();
    const holder = await liveProcess();
    await writeFile(path.join(dir, LOCK_FILE), `${holder.pid}\n`);
    const error = await lockDirectory(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: HG_ERR_SPOOL_LOCKED.code });
    expect((error as Error).message).toBe(
      `spool ${dir} is in use by process ${holder.pid} (lock file ${path.join(dir, LOCK_FILE)}): two processes must never write one spool.`,
    );
    expect(await readFile(path.join(dir, LOCK_FILE), 'utf8')).toBe(`${holder.pid}\n`);
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = await lockDir();
    await writeFile(path.join(dir, LOCK_FILE), `${await deadPid()}\n`);
    const lock = await lockDirectory(dir);
    cleanups.push(() => lock.release());
    expect(await readFile(path.join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('takes over a lock with our own pid that this process does not hold (a restarted container)', async () => {
    const dir = await lockDir();
    await writeFile(path.join(dir, LOCK_FILE), `${process.pid}\n`);
    const lock = await lockDirectory(dir);
    cleanups.push(() => lock.release());
    await expect(lockDirectory(dir)).rejects.toMatchObject({ code: HG_ERR_SPOOL_LOCKED.code });
  });

  it('refuses a lock file without a pid rather than guessing', async () => {
    const dir = await lockDir();
    await writeFile(path.join(dir, LOCK_FILE), '');
    await expect(lockDirectory(dir)).rejects.toThrow(/in use by process unknown \(the lock file holds no pid\)/);
  });
});
