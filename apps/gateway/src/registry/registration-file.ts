/**
 * Registrations survive a gateway restart: without this, a plugin that died while the gateway
 * restarted would have its Fail hooks vanish (fail open) instead of failing closed. The file holds
 * the registrations as accepted (content, target, TLS CA and server name, lease times); it is rewritten atomically after
 * every change, writes coalesced, mode 0600.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Registration, RegistrySnapshot } from './types.js';

const FORMAT = 'hookgate.dev/registrations/v1';

interface FileContent {
  readonly format: typeof FORMAT;
  readonly registrations: readonly Registration[];
}

/** The saved registrations; none when the file does not exist. Throws a clear error on a corrupt file. */
export async function loadRegistrations(file: string): Promise<Registration[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const fix = `fix it, or delete it to forget the registrations it holds (live plugins register again when they renew their lease)`;
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    throw new Error(`registry state file ${file} is not valid JSON (${(error as Error).message}): ${fix}`);
  }
  if (!isFileContent(content)) throw new Error(`registry state file ${file} is not a ${FORMAT} document: ${fix}`);
  return content.registrations.map((r) => ({ ...r }));
}

/** Writes snapshots to `file`; a save while a write is in flight is folded into the next write. */
export class RegistrationFileWriter {
  readonly #file: string;
  readonly #onError: (error: unknown) => void;
  #pending: RegistrySnapshot | undefined;
  #writing: Promise<void> | undefined;

  constructor(file: string, onError: (error: unknown) => void) {
    this.#file = file;
    this.#onError = onError;
  }

  save(snapshot: RegistrySnapshot): void {
    this.#pending = snapshot;
    this.#writing ??= this.#drain();
  }

  /** Resolves once everything saved so far is on disk (or failed and was reported). */
  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending !== undefined) {
        const snapshot = this.#pending;
        this.#pending = undefined;
        await this.#write(snapshot).catch(this.#onError);
      }
    } finally {
      this.#writing = undefined;
    }
  }

  async #write(snapshot: RegistrySnapshot): Promise<void> {
    const content: FileContent = {
      format: FORMAT,
      registrations: snapshot.registrations.map(
        ({ plugin, target, tls, configurations, leaseSeconds, registeredAt, renewedAt, expiresAt }) => ({
          plugin,
          target,
          ...(tls === undefined ? {} : { tls }),
          configurations,
          leaseSeconds,
          registeredAt,
          renewedAt,
          expiresAt,
        }),
      ),
    };
    const temporary = `${this.#file}.${process.pid}.tmp`;
    // The state directory may not exist yet on a first start (the TLS material may live elsewhere).
    await mkdir(dirname(this.#file), { recursive: true, mode: 0o700 });
    await writeFile(temporary, `${JSON.stringify(content, null, 1)}\n`, { mode: 0o600 });
    await rename(temporary, this.#file);
  }
}

function isFileContent(value: unknown): value is FileContent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v['format'] !== FORMAT || !Array.isArray(v['registrations'])) return false;
  return v['registrations'].every((r: unknown) => {
    if (typeof r !== 'object' || r === null) return false;
    const x = r as Record<string, unknown>;
    return (
      typeof x['plugin'] === 'string' &&
      typeof x['target'] === 'string' &&
      (x['tls'] === undefined || isSavedTls(x['tls'])) &&
      Array.isArray(x['configurations']) &&
      ['leaseSeconds', 'registeredAt', 'renewedAt', 'expiresAt'].every((k) => typeof x[k] === 'number')
    );
  });
}

function isSavedTls(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return typeof t['ca'] === 'string' && (t['serverName'] === undefined || typeof t['serverName'] === 'string');
}
