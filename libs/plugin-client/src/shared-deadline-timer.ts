/**
 * One timer for every deadline of a stream's messages in flight, instead of a setTimeout and a
 * clearTimeout per message. It is armed for the earliest deadline; a message whose deadline is
 * later (the common case: the same timeoutSeconds for every hook) costs no timer call at all, and an
 * answer costs none either (the timer simply finds nothing due when it fires). When it fires, the
 * owner settles what is due and names the next deadline.
 */
export class SharedDeadlineTimer {
  /** Called when the timer fires, with the clock's time: settle what is due, return the next deadline (or none). */
  readonly #expire: (now: number) => number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Number.POSITIVE_INFINITY;

  constructor(expire: (now: number) => number | undefined) {
    this.#expire = expire;
  }

  /** A new deadline (performance.now() clock). */
  add(deadline: number): void {
    if (deadline >= this.#armedFor) return;
    clearTimeout(this.#timer);
    this.#arm(deadline);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  #arm(deadline: number): void {
    this.#armedFor = deadline;
    this.#timer = setTimeout(this.#fire, Math.max(0, deadline - performance.now()));
    // The calls in flight keep the process alive (their stream), not their deadlines.
    this.#timer.unref();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const next = this.#expire(performance.now());
    if (next !== undefined) this.#arm(next);
  };
}
