import { describe, expect, it } from 'vitest';
import { median, medianOfRuns } from './stats.js';

describe('median', () => {
  it('averages the two middle values of an even count and skips non-finite ones', () => {
    expect(median([4, 1, Number.NaN, 3, 2])).toBe(2.5);
  });
});

describe('medianOfRuns', () => {
  it('takes each numeric field on its own and keeps the other fields of the first run', () => {
    const runs = [
      { name: 'unary', perSecond: 300, p50Ms: 0.9 },
      { name: 'unary', perSecond: 100, p50Ms: 0.5 },
      { name: 'unary', perSecond: 200, p50Ms: 0.7 },
    ];
    expect(medianOfRuns(runs)).toEqual({ name: 'unary', perSecond: 200, p50Ms: 0.7 });
  });

  it('reports the upper middle value for an even count of runs', () => {
    expect(medianOfRuns([{ calls: 1 }, { calls: 4 }, { calls: 2 }, { calls: 3 }])).toEqual({ calls: 3 });
  });

  it('names the problem when there are no runs', () => {
    expect(() => medianOfRuns([])).toThrow(/no runs/);
  });
});
