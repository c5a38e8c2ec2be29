/**
 * A circuit breaker per plugin: a dead or hung plugin costs microseconds, not its whole timeout.
 * closed → (N consecutive transport failures) → open → (cool-down) → half-open: one trial call,
 * or a health probe, decides → closed, or open again with a longer cool-down.
 * Only transport failures and timeouts count; a hook's own error is an answer (the plugin is up).
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** `pass`: go ahead; `trial`: go ahead, you are the half-open probe; `reject`: fail at once. */
export type CircuitAdmission = 'pass' | 'trial' | 'reject';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit (default 5). */
  readonly failureThreshold?: number;
  /** First cool-down before a probe (default 2 s); doubles after each failed probe. */
  readonly cooldownMs?: number;
  /** Longest cool-down (default 30 s). */
  readonly maxCooldownMs?: number;
  readonly now?: () => number;
  readonly onStateChange?: (state: CircuitState, previous: CircuitState) => void;
}

export class CircuitBreaker {
  readonly failureThreshold: number;
  readonly #baseCooldownMs: number;
  readonly #maxCooldownMs: number;
  readonly #now: () => number;
  readonly #onStateChange: CircuitBreakerOptions['onStateChange'];
  #state: CircuitState = 'closed';
  #failures = 0;
  #cooldownMs: number;
  #retryAt = 0;
  #trialInFlight = false;

  constructor(options: CircuitBreakerOptions = {}) {
    this.failureThreshold = Math.max(1, options.failureThreshold ?? 5);
    this.#baseCooldownMs = Math.max(1, options.cooldownMs ?? 2000);
    this.#maxCooldownMs = Math.max(this.#baseCooldownMs, options.maxCooldownMs ?? 30_000);
    this.#cooldownMs = this.#baseCooldownMs;
    this.#now = options.now ?? Date.now;
    this.#onStateChange = options.onStateChange;
  }

  get state(): CircuitState {
    return this.#state;
  }

  get consecutiveFailures(): number {
    return this.#failures;
  }

  /** Time until a trial call may go through (0 unless open). */
  get retryInMs(): number {
    return this.#state === 'open' ? Math.max(0, this.#retryAt - this.#now()) : 0;
  }

  /** Asks to make a call. A `trial` must be followed by recordSuccess, recordFailure or releaseTrial. */
  admit(): CircuitAdmission {
    if (this.#state === 'closed') return 'pass';
    if (this.#state === 'open') {
      if (this.#now() < this.#retryAt) return 'reject';
      this.#transition('half-open');
    }
    if (this.#trialInFlight) return 'reject';
    this.#trialInFlight = true;
    return 'trial';
  }

  /** The plugin answered (any answer, a hook error included). */
  recordSuccess(): void {
    this.#failures = 0;
    this.#trialInFlight = false;
    this.#cooldownMs = this.#baseCooldownMs;
    if (this.#state !== 'closed') this.#transition('closed');
  }

  /** A transport failure or a timeout. */
  recordFailure(): void {
    this.#failures++;
    if (this.#state === 'half-open') {
      this.#trialInFlight = false;
      this.#cooldownMs = Math.min(this.#cooldownMs * 2, this.#maxCooldownMs);
      this.#open();
    } else if (this.#state === 'closed' && this.#failures >= this.failureThreshold) {
      this.#open();
    }
  }

  /** The trial ended without telling anything (cancelled by the caller): let the next call try. */
  releaseTrial(): void {
    if (!this.#trialInFlight) return;
    this.#trialInFlight = false;
    if (this.#state === 'half-open') {
      this.#retryAt = this.#now();
      this.#transition('open');
    }
  }

  /** A health probe passed: close. */
  probeSucceeded(): void {
    this.recordSuccess();
  }

  /** A health probe failed while open: wait a longer cool-down. */
  probeFailed(): void {
    if (this.#state === 'closed') return;
    this.#cooldownMs = Math.min(this.#cooldownMs * 2, this.#maxCooldownMs);
    if (!this.#trialInFlight) this.#open();
  }

  #open(): void {
    this.#retryAt = this.#now() + this.#cooldownMs;
    this.#transition('open');
  }

  #transition(next: CircuitState): void {
    const previous = this.#state;
    if (previous === next) return;
    this.#state = next;
    this.#onStateChange?.(next, previous);
  }
}
