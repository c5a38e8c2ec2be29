/**
 * One 'abort' listener per AbortSignal, however many calls wait on it. The chain hands the same
 * request signal to every hook call (validating hooks run concurrently), and a listener per call
 * would trip Node's MaxListeners warning and cost an add/remove per call.
 */
type Callback = () => void;

const waiting = new WeakMap<AbortSignal, Set<Callback>>();

/** Calls `callback` once if `signal` aborts; the returned function unsubscribes. */
export function onAbort(signal: AbortSignal, callback: Callback): () => void {
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const set = new Set<Callback>();
    callbacks = set;
    waiting.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const cb of set) cb();
        set.clear();
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => set.delete(callback);
}
