import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimedBatch } from './timed-batch.js';

afterEach(() => vi.useRealTimers());

describe('TimedBatch', () => {
  it('hands over once full, or maxDelayMs after the first item, and never an empty batch', () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const batch = new TimedBatch<number>({ maxItems: 3, maxDelayMs: 50, flush: (items) => batches.push(items) });
    batch.add(1, 2);
    expect(batches).toEqual([]);
    batch.add(3);
    expect(batches).toEqual([[1, 2, 3]]);
    batch.add(4);
    vi.advanceTimersByTime(49);
    expect(batches).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([[1, 2, 3], [4]]);
    batch.flush();
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(2);
  });
});
