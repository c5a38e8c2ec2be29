/** A clock the test moves by hand, so deadlines are exact and no test waits on real time. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
  /** Moves forward to `time` (never backwards). */
  advanceTo(time: number): void;
}

export function createTestClock(start = 1_000_000): TestClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += Math.max(0, ms);
    },
    advanceTo: (time) => {
      current = Math.max(current, time);
    },
  };
}
