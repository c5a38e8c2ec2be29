import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A GroupCommit whose flushes are recorded; each flush takes `flushMs`. */
function recordingCommit(windowMs: number, maxItems: number, flushMs = 0) {
  const batches: number[][] = [];
  const commit = new GroupCommit<number, string>({
    windowMs,
    maxItems,
    flush: async (items) => {
      batches.push([...items]);
      await new Promise((resolve) => setTimeout(resolve, flushMs));
      return items.map((i) => `done ${i}`);
    },
  });
  return { commit, batches };
}

describe('GroupCommit', () => {
  it('flushes items submitted together as one batch, resolving each with its own result', async () => {
    const { commit, batches } = recordingCommit(5, 100);
    expect(await Promise.all([1, 2, 3].map((i) => commit.submit(i)))).toEqual(['done 1', 'done 2', 'done 3']);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('flushes at once when maxItems are waiting, without waiting for the window', async () => {
    const { commit, batches } = recordingCommit(60_000, 2);
    await Promise.all([1, 2, 3, 4].map((i) => commit.submit(i)));
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('gathers the items submitted during a flush into the next batch', async () => {
    const { commit, batches } = recordingCommit(0, 100, 20);
    const first = commit.submit(1);
    await new Promise((resolve) => setTimeout(resolve, 5)); // the first flush is running
    await Promise.all([first, commit.submit(2), commit.submit(3)]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('serves a caller that submits again as soon as its previous item resolved (no lost wake-up)', async () => {
    const { commit, batches } = recordingCommit(0, 100);
    for (let i = 0; i < 50; i++) expect(await commit.submit(i)).toBe(`done ${i}`);
    expect(batches).toHaveLength(50);
  });

  it('rejects every item of a batch whose flush failed, and goes on with the next', async () => {
    let calls = 0;
    const commit = new GroupCommit<number, number>({
      windowMs: 0,
      maxItems: 100,
      flush: async (items) => {
        if (calls++ === 0) throw new Error('disk full');
        return [...items];
      },
    });
    const failed = await Promise.allSettled([commit.submit(1), commit.submit(2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await commit.submit(3)).toBe(3);
  });

  it('drain flushes what waits now and resolves when nothing is left', async () => {
    const { commit, batches } = recordingCommit(60_000, 100);
    const pending = [commit.submit(1), commit.submit(2)];
    await commit.drain();
    expect(batches).toEqual([[1, 2]]);
    await expect(Promise.all(pending)).resolves.toEqual(['done 1', 'done 2']);
  });
});
