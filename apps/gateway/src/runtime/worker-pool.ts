/**
 * The primary's workers: forks them, answers each worker's hello with the current configuration
 * (and registry snapshot), tracks which ones listen and what each applied, replaces a worker that
 * dies (giving up on a crash loop), broadcasts new configurations and registry snapshots, and
 * stops them all gracefully (SIGKILL after the grace period).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@hookgate/observability';
import { isWorkerMessage, type PrimaryMessage } from './messages.js';

/** More than this many unexpected exits within the window is a crash loop. */
const CRASH_LIMIT = 5;
const CRASH_WINDOW_MS = 60_000;

export interface ListenFailure {
  readonly address: string;
  /** The system error code (EADDRINUSE, EACCES, EADDRNOTAVAIL...). */
  readonly code: string;
  readonly cause: string;
}

export class WorkerPool {
  readonly #listening = new Map<number, number>();
  /** Configuration and registry generations each worker last applied. */
  readonly #applied = new Map<number, { readonly generation: number; readonly registryGeneration: number }>();
  readonly #crashes: number[] = [];
  #stopping = false;
  #announced = false;
  #onAllListening: ((port: number) => void) | undefined;
  #onGaveUp: (() => void) | undefined;
  #onListenFailed: ((failure: ListenFailure) => void) | undefined;
  #listenFailed = false;
  #everListened = false;

  constructor(
    private readonly size: number,
    private readonly log: Logger,
    private readonly configuration: () => PrimaryMessage,
  ) {}

  onAllListening(listener: (port: number) => void): void {
    this.#onAllListening = listener;
  }

  onGaveUp(listener: () => void): void {
    this.#onGaveUp = listener;
  }

  /** A worker could not bind the admission listener: reported once; no worker is replaced from then on. */
  onListenFailed(listener: (failure: ListenFailure) => void): void {
    this.#onListenFailed = listener;
  }

  /** Why the gateway is not alive, if it is not: workers listened once and none does any more. */
  notLiveReason(): string | undefined {
    if (this.#listenFailed) return 'the admission listener could not bind';
    if (this.#everListened && this.#listening.size === 0)
      return 'no gateway worker is listening for admission requests';
    return undefined;
  }

  listeningCount(): number {
    return this.#listening.size;
  }

  start(): void {
    cluster.on('message', (worker, message: unknown) => this.#onMessage(worker, message));
    cluster.on('exit', (worker, code, signal) => this.#onExit(worker, code, signal));
    for (let i = 0; i < this.size; i += 1) cluster.fork();
  }

  broadcast(message: PrimaryMessage): void {
    for (const worker of Object.values(cluster.workers ?? {})) if (worker?.isConnected()) worker.send(message);
  }

  /** Asks every worker to finish in-flight requests and exit; kills the ones still running after graceMs. */
  async stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const exited = workers.map(
      (w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve()))),
    );
    for (const w of workers) if (w.isConnected()) w.send({ type: 'hookgate:shutdown' } satisfies PrimaryMessage);
    const timer = setTimeout(() => {
      for (const w of workers) if (!w.isDead()) w.process.kill('SIGKILL');
    }, graceMs);
    await Promise.all(exited);
    clearTimeout(timer);
  }

  #onMessage(worker: Worker, message: unknown): void {
    if (!isWorkerMessage(message)) return;
    if (message.type === 'hookgate:hello') worker.send(this.configuration());
    if (message.type === 'hookgate:applied') {
      const previous = this.#applied.get(worker.id);
      this.#applied.set(worker.id, { generation: message.generation, registryGeneration: message.registryGeneration });
      const live = [...this.#listening.keys()].map((id) => this.#applied.get(id));
      if (live.length === 0) return;
      if (previous?.generation !== message.generation && live.every((a) => a?.generation === message.generation)) {
        this.log.info(
          { generation: message.generation, workers: live.length },
          'configuration applied by every worker',
        );
      }
      if (
        previous?.registryGeneration !== message.registryGeneration &&
        live.every((a) => a?.registryGeneration === message.registryGeneration)
      ) {
        this.log.info(
          { registryGeneration: message.registryGeneration, workers: live.length },
          'registrations applied by every worker',
        );
      }
    }
    if (message.type === 'hookgate:listen-failed') {
      this.#stopping = true;
      if (this.#listenFailed) return;
      this.#listenFailed = true;
      this.#onListenFailed?.({ address: message.address, code: message.code, cause: message.cause });
    }
    if (message.type === 'hookgate:listening') {
      this.#everListened = true;
      this.#listening.set(worker.id, message.port);
      if (!this.#announced && this.#listening.size >= this.size) {
        this.#announced = true;
        this.#onAllListening?.(message.port);
      }
    }
  }

  #onExit(worker: Worker, code: number | null, signal: string | null): void {
    this.#listening.delete(worker.id);
    this.#applied.delete(worker.id);
    if (this.#stopping) return;
    this.log.error(
      { worker: worker.id, workerPid: worker.process.pid, code, signal },
      'gateway worker exited unexpectedly; starting a replacement',
    );
    const now = Date.now();
    this.#crashes.push(now);
    while (this.#crashes.length > 0 && now - this.#crashes[0]! > CRASH_WINDOW_MS) this.#crashes.shift();
    if (this.#crashes.length > CRASH_LIMIT) {
      this.#onGaveUp?.();
      return;
    }
    cluster.fork();
  }
}
