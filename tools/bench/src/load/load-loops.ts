/**
 * The two load shapes, bounded by time and by count. Latency is per review (all its webhook calls),
 * from the moment the review is started to its last answer.
 */
import type { AdmitOne } from './dispatch.js';
import type { LoadSpec } from './protocol.js';

export interface Samples {
  readonly latenciesMs: Float64Array;
  readonly completed: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  readonly elapsedMs: number;
}

class Recorder {
  readonly latencies: Float64Array;
  completed = 0;
  errors = 0;
  firstError: string | undefined;

  constructor(capacity: number) {
    this.latencies = new Float64Array(capacity);
  }

  async admit(admit: AdmitOne): Promise<void> {
    const started = performance.now();
    try {
      await admit();
      if (this.completed < this.latencies.length) this.latencies[this.completed] = performance.now() - started;
      this.completed += 1;
    } catch (error) {
      this.errors += 1;
      this.firstError ??= (error as Error).message;
    }
  }

  samples(elapsedMs: number): Samples {
    return {
      latenciesMs: this.latencies.subarray(0, Math.min(this.completed, this.latencies.length)),
      completed: this.completed,
      errors: this.errors,
      firstError: this.firstError,
      elapsedMs,
    };
  }
}

export function runLoad(load: LoadSpec, admit: AdmitOne): Promise<Samples> {
  return load.kind === 'closed'
    ? closedLoop(load.concurrency, load.durationMs, load.maxReviews, admit)
    : pacedLoop(load.rate, load.durationMs, load.maxReviews, admit);
}

async function closedLoop(
  concurrency: number,
  durationMs: number,
  maxReviews: number,
  admit: AdmitOne,
): Promise<Samples> {
  const recorder = new Recorder(maxReviews);
  const started = performance.now();
  const until = started + durationMs;
  let issued = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < maxReviews && performance.now() < until) {
        issued += 1;
        await recorder.admit(admit);
      }
    }),
  );
  return recorder.samples(performance.now() - started);
}

/**
 * Starts reviews at `rate` per second on a 1 ms timer, without waiting for answers, so a slow answer
 * does not delay the next review (no coordinated omission). A timer tick starts every review due by then.
 */
async function pacedLoop(rate: number, durationMs: number, maxReviews: number, admit: AdmitOne): Promise<Samples> {
  const recorder = new Recorder(maxReviews);
  const total = Math.min(maxReviews, Math.max(1, Math.floor((rate * durationMs) / 1000)));
  const intervalMs = 1000 / rate;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let issued = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1);
      while (issued < due) {
        issued += 1;
        const review = recorder.admit(admit).finally(() => inFlight.delete(review));
        inFlight.add(review);
      }
      if (issued < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  return recorder.samples(performance.now() - started);
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}
