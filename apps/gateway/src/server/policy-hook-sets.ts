/**
 * The hook sets behind the registration's two webhooks per phase (`/mutate/fail`, `/mutate/ignore`,
 * ...): the apiserver calls each with the requests its rules cover, and the gateway runs only the
 * hooks of that failure policy there, so a request both reach still runs each hook once.
 * And the break-glass view of a set: every hook fails open.
 */
import { buildHookSet, type FailurePolicyType, type Hook, type HookSet } from '@hookgate/admission';

export type PolicyHookSets = Readonly<Record<FailurePolicyType, HookSet>>;

const split = new WeakMap<HookSet, PolicyHookSets>();

/** The hooks of `set` split by their configured failurePolicy (cached per set). */
export function hookSetsByPolicy(set: HookSet): PolicyHookSets {
  let sets = split.get(set);
  if (sets === undefined) {
    const only = (policy: FailurePolicyType) =>
      buildHookSet(
        set.mutating.filter((h) => h.failurePolicy === policy),
        set.validating.filter((h) => h.failurePolicy === policy),
      );
    sets = Object.freeze({ Fail: only('Fail'), Ignore: only('Ignore') });
    split.set(set, sets);
  }
  return sets;
}

/** The same hooks with failurePolicy Ignore: calling errors fail open; denials still deny. */
export function failingOpen(set: HookSet): HookSet {
  const ignore = (h: Hook): Hook =>
    h.failurePolicy === 'Ignore' ? h : Object.freeze({ ...h, failurePolicy: 'Ignore' });
  return buildHookSet(set.mutating.map(ignore), set.validating.map(ignore));
}
