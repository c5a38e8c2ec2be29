/**
 * Change notifications for hot reload: a debounced fs.watch on the configuration (the directory,
 * or the file's directory, since editors and ConfigMap updates replace files by rename), and SIGHUP.
 * Both only say "look again"; ConfigurationHolder.reload() decides whether anything changed.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';

export interface WatchOptions {
  /** Quiet time after the last event before onChange runs. Default 200 ms. */
  readonly debounceMs?: number;
  readonly onError?: (error: Error) => void;
}

export interface ConfigurationWatch {
  close(): void;
}

export async function watchConfiguration(
  path: string,
  onChange: () => void,
  options: WatchOptions = {},
): Promise<ConfigurationWatch> {
  const root = resolve(path);
  const isDir = (await stat(root)).isDirectory();
  const dir = isDir ? root : dirname(root);
  const name = basename(root);
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(dir, (_event, filename) => {
    // For a single file, ignore its neighbours, but not the `..data` swap of a mounted ConfigMap.
    if (!isDir && filename !== null && filename !== name && !filename.startsWith('..')) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, options.debounceMs ?? 200);
  });
  watcher.on('error', (e) => options.onError?.(e));
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}

/** Runs `reload` on SIGHUP; returns the function that removes the handler. */
export function reloadOnSighup(reload: () => void): () => void {
  const handler = () => reload();
  process.on('SIGHUP', handler);
  return () => {
    process.off('SIGHUP', handler);
  };
}
