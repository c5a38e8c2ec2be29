/** Items collected until `maxItems`, or `maxDelayMs` after the first one, then handed to `flush` together. */
export class TimedBatch<T> {
  readonly #maxItems: number;
  readonly #maxDelayMs: number;
  readonly #flush: (items: T[]) => void;
  #items: T[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(options: {
    readonly maxItems: number;
    readonly maxDelayMs: number;
    readonly flush: (items: T[]) => void;
  }) {
    this.#maxItems = options.maxItems;
    this.#maxDelayMs = options.maxDelayMs;
    this.#flush = options.flush;
  }

  add(...items: T[]): void {
    this.#items.push(...items);
    if (this.#items.length >= this.#maxItems) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), this.#maxDelayMs);
  }

  /** Hands over what waits now (nothing: no call). */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#items.length === 0) return;
    const items = this.#items;
    this.#items = [];
    this.#flush(items);
  }
}
