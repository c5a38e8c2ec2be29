/**
 * Group commit: callers submit items one by one, and the items submitted within a short window (or
 * up to a count) are flushed together, so one write and one fsync serve them all. While a flush
 * runs, new items gather and are flushed as soon as it ends, without waiting for another window:
 * under load the batch size follows the fsync time.
 */
export interface GroupCommitOptions<T, R> {
  /** How long the first item of a batch waits for company; 0 waits only for the current tick. */
  readonly windowMs: number;
  /** A batch this large is flushed at once, without waiting for the window. */
  readonly maxItems: number;
  /** Writes one batch; returns one result per item, in order, or throws to reject the batch. */
  readonly flush: (items: readonly T[]) => Promise<readonly R[]>;
}

interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommit<T, R> {
  readonly #options: GroupCommitOptions<T, R>;
  #queue: Waiting<T, R>[] = [];
  #timer: { cancel(): void } | undefined;
  #running: Promise<void> | undefined;

  constructor(options: GroupCommitOptions<T, R>) {
    this.#options = options;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  /** Flushes whatever waits now, and resolves once nothing is waiting or being flushed. */
  async drain(): Promise<void> {
    this.#cancelTimer();
    while (this.#running !== undefined || this.#queue.length > 0) {
      await (this.#running ?? this.#start());
    }
  }

  #schedule(): void {
    if (this.#running !== undefined) return; // the running flush takes the new item next
    if (this.#queue.length >= this.#options.maxItems) {
      this.#cancelTimer();
      void this.#start();
    } else if (this.#timer === undefined) {
      const fire = () => {
        this.#timer = undefined;
        if (this.#running === undefined) void this.#start();
      };
      if (this.#options.windowMs > 0) {
        const timer = setTimeout(fire, this.#options.windowMs);
        this.#timer = { cancel: () => clearTimeout(timer) };
      } else {
        const immediate = setImmediate(fire);
        this.#timer = { cancel: () => clearImmediate(immediate) };
      }
    }
  }

  #cancelTimer(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  #start(): Promise<void> {
    this.#running = this.#flushAll().finally(() => {
      this.#running = undefined;
      // Items submitted after the last batch was taken, but before this ran, saw a flush running.
      if (this.#queue.length > 0) this.#schedule();
    });
    return this.#running;
  }

  async #flushAll(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#options.maxItems);
      try {
        const results = await this.#options.flush(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i] as R));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
  }
}
