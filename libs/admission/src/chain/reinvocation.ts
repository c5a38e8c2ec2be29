/**
 * Re-invocation bookkeeping (k8s-semantics.md §13, apiserver mutating/reinvocationcontext.go).
 * After every call in either round: a change moves the IfNeeded hooks invoked since the last
 * change into the re-invoke set; then the hook itself joins that list if it is IfNeeded.
 * So a change never re-invokes the hook that made it, and there is never a round 2.
 */
import type { Hook } from '../types/hook.js';

export class ReinvocationTracker {
  /** IfNeeded hooks invoked since the last change (keyed by Hook.uid). */
  private previouslyInvoked = new Set<string>();
  private readonly reinvoke = new Set<string>();
  private changedInRound0 = false;

  /** Record one call (successful or not) of `hook` in `round`, and whether it changed the object. */
  recordCall(hook: Pick<Hook, 'uid' | 'reinvocationPolicy'>, round: 0 | 1, changed: boolean): void {
    if (changed) {
      for (const uid of this.previouslyInvoked) this.reinvoke.add(uid);
      this.previouslyInvoked = new Set();
      if (round === 0) this.changedInRound0 = true;
    }
    if (hook.reinvocationPolicy === 'IfNeeded') this.previouslyInvoked.add(hook.uid);
  }

  /** Whether round 1 runs: some round-0 call changed the object. */
  get shouldRunRound1(): boolean {
    return this.changedInRound0;
  }

  /** In round 1, only hooks in the re-invoke set are called (if they still match). */
  shouldReinvoke(hook: Pick<Hook, 'uid'>): boolean {
    return this.reinvoke.has(hook.uid);
  }
}
