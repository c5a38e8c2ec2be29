/** `unix:///path.sock`, `unix:relative.sock` or `host:port` → a grpc-js bind address. */
import { lstat, unlink } from 'node:fs/promises';
import net from 'node:net';

export type ListenAddress =
  | { readonly kind: 'unix'; readonly path: string }
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number };

export function parseListen(listen: string): ListenAddress {
  if (listen.startsWith('unix://')) return { kind: 'unix', path: listen.slice('unix://'.length) };
  if (listen.startsWith('unix:')) return { kind: 'unix', path: listen.slice('unix:'.length) };
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(listen);
  if (match === null) {
    throw new Error(`listen address ${JSON.stringify(listen)} is neither unix:///path.sock nor host:port`);
  }
  const port = Number(match[3]);
  if (port > 65535) throw new Error(`listen address ${JSON.stringify(listen)}: port out of range`);
  return { kind: 'tcp', host: match[1] ?? match[2] ?? '', port };
}

export function bindAddress(address: ListenAddress): string {
  if (address.kind === 'unix') return `unix:${address.path}`;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host || '0.0.0.0';
  return `${host}:${address.port}`;
}

/**
 * A socket file left by a process that died would make bind fail with EADDRINUSE: remove it, but
 * only when nothing answers on it (never steal a live plugin's socket).
 */
export async function removeStaleSocket(path: string): Promise<void> {
  try {
    if (!(await lstat(path)).isSocket()) return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (await isListening(path)) {
    throw new Error(`another process is serving on ${path}; stop it or choose another socket`);
  }
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

function isListening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
