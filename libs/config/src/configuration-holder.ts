/**
 * The configuration in use, swapped atomically on reload. A reload reads and checks the whole
 * configuration (and runs `prepare`, e.g. compiling hooks) before anything changes; if anything
 * fails, the last good snapshot stays and the failure is kept in `lastError` for logs and metrics.
 * Requests hold the snapshot they started with, so in-flight work finishes on its configuration.
 *
 *   const opened = await ConfigurationHolder.open(path, { prepare: (c) => compile(c) });
 *   if (!opened.ok) exit(opened.error);
 *   const holder = opened.value;
 *   holder.onReload((outcome) => log(outcome));
 *   const stop = watchConfiguration(path, () => void holder.reload());
 *   const unhook = reloadOnSighup(() => void holder.reload());
 *   // per request: const { prepared } = holder.current();
 */
import { ok } from '@hookgate/admission';
import type { Result } from '@hookgate/admission';
import type { ConfigError } from './config-error.js';
import { loadConfiguration } from './load-configuration.js';
import type { LoadOptions, LoadedConfiguration } from './load-configuration.js';

export interface ConfigurationSnapshot<T> {
  /** 1 for the first configuration, +1 on every successful change. */
  readonly generation: number;
  readonly loadedAt: Date;
  readonly configuration: LoadedConfiguration;
  readonly prepared: T;
}

export type ReloadOutcome<T> =
  | { readonly kind: 'updated'; readonly snapshot: ConfigurationSnapshot<T> }
  /** The files are byte-for-byte what is running: nothing to do. */
  | { readonly kind: 'unchanged'; readonly snapshot: ConfigurationSnapshot<T> }
  /** Still running `snapshot`, the last good one. */
  | { readonly kind: 'failed'; readonly errors: readonly ConfigError[]; readonly snapshot: ConfigurationSnapshot<T> };

export type Prepare<T> = (
  configuration: LoadedConfiguration,
) => Result<T, ConfigError[]> | Promise<Result<T, ConfigError[]>>;

export interface HolderOptions<T> {
  /** Builds what requests use (compiled hooks…); a failure makes the reload fail like an invalid file. */
  readonly prepare?: Prepare<T>;
  readonly load?: LoadOptions;
  readonly now?: () => Date;
}

export class ConfigurationHolder<T = LoadedConfiguration> {
  #snapshot: ConfigurationSnapshot<T>;
  #lastError: { readonly at: Date; readonly errors: readonly ConfigError[] } | undefined;
  #running: Promise<ReloadOutcome<T>> | undefined;
  #queued: Promise<ReloadOutcome<T>> | undefined;
  readonly #listeners = new Set<(outcome: ReloadOutcome<T>) => void>();

  private constructor(
    readonly path: string,
    private readonly options: HolderOptions<T>,
    private readonly prepare: Prepare<T>,
    first: ConfigurationSnapshot<T>,
  ) {
    this.#snapshot = first;
  }

  /** Loads the configuration for the first time; there is no last good one to fall back on, so errors are returned. */
  static async open<T = LoadedConfiguration>(
    path: string,
    options: HolderOptions<T> = {},
  ): Promise<Result<ConfigurationHolder<T>, ConfigError[]>> {
    const prepare = options.prepare ?? (((c: LoadedConfiguration) => ok(c)) as unknown as Prepare<T>);
    const loaded = await loadAndPrepare(path, options, prepare);
    if (loaded === 'unchanged') throw new Error('unreachable: no digest to compare on first load');
    if (!loaded.ok) return loaded;
    const now = options.now ?? (() => new Date());
    return ok(new ConfigurationHolder(path, options, prepare, { generation: 1, loadedAt: now(), ...loaded.value }));
  }

  current(): ConfigurationSnapshot<T> {
    return this.#snapshot;
  }

  get generation(): number {
    return this.#snapshot.generation;
  }

  /** The failure of the latest reload, cleared by the next one that succeeds. */
  get lastError(): { readonly at: Date; readonly errors: readonly ConfigError[] } | undefined {
    return this.#lastError;
  }

  onReload(listener: (outcome: ReloadOutcome<T>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Reads the configuration again. Calls during a reload share one follow-up reload, so a burst
   * of file events costs at most two loads and the last one sees the final files.
   */
  reload(): Promise<ReloadOutcome<T>> {
    if (this.#running === undefined) {
      this.#running = this.#reloadOnce().finally(() => (this.#running = undefined));
      return this.#running;
    }
    this.#queued ??= this.#running.then(() => {
      this.#queued = undefined;
      return this.reload();
    });
    return this.#queued;
  }

  async #reloadOnce(): Promise<ReloadOutcome<T>> {
    const now = this.options.now ?? (() => new Date());
    let loaded: Awaited<ReturnType<typeof loadAndPrepare<T>>>;
    try {
      loaded = await loadAndPrepare(this.path, this.options, this.prepare, this.#snapshot.configuration.digest);
    } catch (e) {
      // Whatever went wrong, a reload must never take down what is serving: keep the last good one.
      const reason = e instanceof Error ? e.message : String(e);
      loaded = {
        ok: false,
        error: [
          {
            file: this.path,
            document: 0,
            field: '',
            rule: 'DocumentNotSupported',
            message: `loading the configuration failed: ${reason}`,
          },
        ],
      };
    }
    let outcome: ReloadOutcome<T>;
    if (loaded === 'unchanged') {
      this.#lastError = undefined;
      outcome = { kind: 'unchanged', snapshot: this.#snapshot };
    } else if (!loaded.ok) {
      this.#lastError = { at: now(), errors: loaded.error };
      outcome = { kind: 'failed', errors: loaded.error, snapshot: this.#snapshot };
    } else {
      this.#lastError = undefined;
      this.#snapshot = { generation: this.#snapshot.generation + 1, loadedAt: now(), ...loaded.value };
      outcome = { kind: 'updated', snapshot: this.#snapshot };
    }
    for (const listener of this.#listeners) listener(outcome);
    return outcome;
  }
}

async function loadAndPrepare<T>(
  path: string,
  options: HolderOptions<T>,
  prepare: Prepare<T>,
  currentDigest?: string,
): Promise<Result<{ configuration: LoadedConfiguration; prepared: T }, ConfigError[]> | 'unchanged'> {
  const loaded = await loadConfiguration(path, options.load);
  if (!loaded.ok) return loaded;
  if (loaded.value.digest === currentDigest) return 'unchanged';
  let prepared: Result<T, ConfigError[]>;
  try {
    prepared = await prepare(loaded.value);
  } catch (e) {
    // prepare is the caller's code: a throw is reported like any other reason to keep the old configuration.
    prepared = {
      ok: false,
      error: [
        {
          file: path,
          document: 0,
          field: '',
          rule: 'DocumentNotSupported',
          message: `preparing the configuration failed: ${(e as Error).message}`,
        },
      ],
    };
  }
  if (!prepared.ok) return prepared;
  return ok({ configuration: loaded.value, prepared: prepared.value });
}
