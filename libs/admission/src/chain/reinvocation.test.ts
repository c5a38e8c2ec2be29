import { describe, expect, it } from 'vitest';
import { ReinvocationTracker } from './reinvocation.js';

type Step = { hook: string; policy: 'IfNeeded' | 'Never'; changed: boolean };

function track(round0: Step[], round1: Step[] = []) {
  const t = new ReinvocationTracker();
  const hook = (s: Step) => ({ uid: s.hook, reinvocationPolicy: s.policy });
  for (const s of round0) t.recordCall(hook(s), 0, s.changed);
  const before = Object.fromEntries(round0.map((s) => [s.hook, t.shouldReinvoke({ uid: s.hook })]));
  for (const s of round1) t.recordCall(hook(s), 1, s.changed);
  return { t, before };
}

describe('ReinvocationTracker (§13)', () => {
  it.each([
    {
      name: 'a change re-invokes the IfNeeded hooks before it, not itself',
      round0: [
        { hook: 'a', policy: 'IfNeeded', changed: false },
        { hook: 'b', policy: 'IfNeeded', changed: true },
      ],
      want: { a: true, b: false },
      round1: true,
    },
    {
      name: 'Never hooks are never re-invoked',
      round0: [
        { hook: 'a', policy: 'Never', changed: false },
        { hook: 'b', policy: 'Never', changed: true },
      ],
      want: { a: false, b: false },
      round1: true,
    },
    {
      name: 'no change, no round 1',
      round0: [{ hook: 'a', policy: 'IfNeeded', changed: false }],
      want: { a: false },
      round1: false,
    },
    {
      name: 'hooks after the last change are not re-invoked',
      round0: [
        { hook: 'a', policy: 'IfNeeded', changed: true },
        { hook: 'b', policy: 'IfNeeded', changed: false },
      ],
      want: { a: false, b: false },
      round1: true,
    },
  ] as Array<{ name: string; round0: Step[]; want: Record<string, boolean>; round1: boolean }>)(
    '$name',
    ({ round0, want, round1 }) => {
      const { t, before } = track(round0);
      expect(before).toEqual(want);
      expect(t.shouldRunRound1).toBe(round1);
    },
  );

  it('a change in round 1 pulls in the hooks invoked since the last change, the last changer included', () => {
    const { t } = track(
      [
        { hook: 'a', policy: 'IfNeeded', changed: false },
        { hook: 'b', policy: 'IfNeeded', changed: true },
        { hook: 'c', policy: 'IfNeeded', changed: false },
      ],
      [{ hook: 'a', policy: 'IfNeeded', changed: true }],
    );
    // b joined the list right after its own round-0 change; a's round-1 change moves b and c.
    expect(t.shouldReinvoke({ uid: 'c' })).toBe(true);
    expect(t.shouldReinvoke({ uid: 'b' })).toBe(true);
  });

  it('a change in round 1 alone does not ask for another round', () => {
    const t = new ReinvocationTracker();
    t.recordCall({ uid: 'a', reinvocationPolicy: 'IfNeeded' }, 1, true);
    expect(t.shouldRunRound1).toBe(false);
  });
});
