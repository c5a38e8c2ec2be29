/**
 * One timer that applies lease expiries when they fall due: it always waits for the store's next
 * expiry, and is re-armed after every change (a renewal moves the next expiry).
 */
import type { RegistrationStore } from './registration-store.js';

export interface LeaseSweeper {
  stop(): void;
}

const MAX_TIMER_MS = 2_147_483_647;

export function startLeaseSweeper(store: RegistrationStore, now: () => number = Date.now): LeaseSweeper {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = (): void => {
    clearTimeout(timer);
    timer = undefined;
    const next = store.nextExpiry();
    if (stopped || next === undefined) return;
    // +1: the store expires a lease when now >= expiresAt; a timer may fire a hair early.
    timer = setTimeout(fire, Math.min(MAX_TIMER_MS, Math.max(0, next - now() + 1)));
    timer.unref();
  };
  const fire = (): void => {
    store.sweep();
    arm();
  };
  const unsubscribe = store.onChange(arm);
  arm();
  return {
    stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
    },
  };
}
