/**
 * The registry's unix socket. Its file permissions are the authentication, so the socket must
 * never be reachable with looser permissions, not even for an instant: it is bound inside a fresh
 * 0700 directory, chmod-ed, then renamed into place (rename keeps the listening socket working).
 */
import { chmod, lstat, mkdir, mkdtemp, rename, rmdir, unlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import { ServerCredentials } from '@grpc/grpc-js';

/** 0600: the gateway's user only. 0660: its group too (put plugin users in that group). */
export type SocketMode = 0o600 | 0o660;

/**
 * Makes `socketPath` free to bind: creates its directory, removes a socket left by a process that
 * died, and refuses when a live process answers on it or when the path is not a socket.
 */
export async function claimSocketPath(socketPath: string): Promise<void> {
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o750 });
  let isSocket: boolean;
  try {
    isSocket = (await lstat(socketPath)).isSocket();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!isSocket) {
    throw new Error(
      `registry socket ${socketPath} exists and is not a socket; remove it or set registry.socket to another path`,
    );
  }
  if (await answers(socketPath)) {
    throw new Error(
      `another process (probably a running gateway) serves the registry on ${socketPath}; stop it, or set registry.socket to another path`,
    );
  }
  await unlink(socketPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/** Binds `server` on `socketPath` with `mode`; returns the socket's inode, to remove only our own file later. */
export async function bindRegistrySocket(server: grpc.Server, socketPath: string, mode: SocketMode): Promise<number> {
  const privateDir = await mkdtemp(path.join(path.dirname(socketPath), '.registry-'));
  const temporary = path.join(privateDir, 'r.sock');
  try {
    await new Promise<void>((resolve, reject) => {
      server.bindAsync(`unix:${temporary}`, ServerCredentials.createInsecure(), (error) =>
        error ? reject(error) : resolve(),
      );
    });
    await chmod(temporary, mode);
    await rename(temporary, socketPath);
    return (await lstat(socketPath)).ino;
  } finally {
    await unlink(temporary).catch(() => undefined);
    await rmdir(privateDir).catch(() => undefined);
  }
}

/** Removes the socket file if it is still the one we bound (never another process's). */
export async function releaseSocketPath(socketPath: string, inode: number): Promise<void> {
  try {
    if ((await lstat(socketPath)).ino !== inode) return;
    await unlink(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
