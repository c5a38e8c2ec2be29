import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort } from './abort-fanout.js';

describe('onAbort', () => {
  it('adds one listener per signal and calls every subscriber still waiting, once', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const unsubscribers = ['a', 'b', 'c'].map((name) => onAbort(controller.signal, () => calls.push(name)));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    unsubscribers[1]!();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'c']);
  });

  it('keeps signals apart', () => {
    const first = new AbortController();
    const second = new AbortController();
    const calls: string[] = [];
    onAbort(first.signal, () => calls.push('first'));
    onAbort(second.signal, () => calls.push('second'));
    second.abort();
    expect(calls).toEqual(['second']);
  });
});
