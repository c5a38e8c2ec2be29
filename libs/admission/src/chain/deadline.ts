/**
 * Deadlines (k8s-semantics.md §11). The apiserver tells Hookgate how long it will wait with
 * `?timeout=<Go duration>`; Hookgate must answer before that, so that each inner hook's own
 * failurePolicy decides a slow hook, not the failurePolicy of Hookgate's registration.
 *
 * Request budget = timeout − margin, margin = max(minMarginMs, marginRatio × timeout), at most half
 * the timeout. Defaults 300 ms and 10 %: the apiserver's clock started before it connected and
 * wrote the request, our answer still has to be written and decoded, and when the apiserver's own
 * request deadline is the tighter one it rounds the remaining time *up* to whole seconds (up to
 * ~1 s of time that does not exist). 10 % of the usual 10 s is 1 s, which covers that rounding;
 * 300 ms keeps short timeouts safe against event-loop stalls on a busy 2-core control plane.
 *
 * The margin is enforced, not advertised: each hook is told in its own `?timeout=` what the
 * apiserver would tell it (the time left until min(its timeoutSeconds, the apiserver's deadline)),
 * so that a hook sees the same `10s`, `5s`, `8s` sequence as behind the apiserver's dispatcher.
 */
import type { Result } from '../result.js';
import { ok, err } from '../result.js';
import { goQuote } from '../errors/go-quote.js';

export interface RequestBudgetOptions {
  /** Fixed part of the safety margin, ms. Default 300. */
  readonly minMarginMs?: number;
  /** Proportional part of the safety margin. Default 0.1. */
  readonly marginRatio?: number;
  /** Used when the request carries no usable `?timeout=`. Default 10 s (the v1 default timeoutSeconds). */
  readonly defaultTimeoutMs?: number;
}

export const DEFAULT_MIN_MARGIN_MS = 300;
export const DEFAULT_MARGIN_RATIO = 0.1;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

export interface RequestBudget {
  /** Absolute end of the budget (ms, same clock as `now`): ChainEnv.deadline. */
  readonly deadline: number;
  /** When the apiserver gives up (now + its timeout, no margin): ChainEnv.apiserverDeadline. */
  readonly apiserverDeadline: number;
  /** The apiserver's timeout as understood (ms). */
  readonly timeoutMs: number;
  readonly marginMs: number;
  /** Where timeoutMs came from. */
  readonly source: 'query' | 'default';
  /** Why `?timeout=` was ignored (unparsable, not positive), for a log line. */
  readonly problem?: string;
}

/** The request budget from the apiserver's `?timeout=` value (absent → the default timeout). */
export function computeRequestBudget(
  now: number,
  timeoutParam: string | undefined,
  options: RequestBudgetOptions = {},
): RequestBudget {
  const minMargin = options.minMarginMs ?? DEFAULT_MIN_MARGIN_MS;
  const ratio = options.marginRatio ?? DEFAULT_MARGIN_RATIO;
  const fallback = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  let timeoutMs = fallback;
  let source: RequestBudget['source'] = 'default';
  let problem: string | undefined;
  if (timeoutParam !== undefined) {
    const parsed = parseGoDuration(timeoutParam);
    if (!parsed.ok) problem = parsed.error;
    else if (!(parsed.value > 0)) problem = `timeout ${goQuote(timeoutParam)} is not positive`;
    else {
      timeoutMs = parsed.value;
      source = 'query';
    }
  }
  const marginMs = Math.min(Math.max(minMargin, ratio * timeoutMs), timeoutMs / 2);
  const budget: RequestBudget = {
    deadline: now + timeoutMs - marginMs,
    apiserverDeadline: now + timeoutMs,
    timeoutMs,
    marginMs,
    source,
  };
  return problem === undefined ? budget : { ...budget, problem };
}

export interface HookDeadline {
  /** Absolute deadline of this call, enforced: min(now + timeoutSeconds, request budget). */
  readonly deadline: number;
  /** ms left; ≤ 0 when the request budget is already spent. */
  readonly remainingMs: number;
  /**
   * The `?timeout=` seconds the call is told: the time until min(now + timeoutSeconds, the apiserver's
   * deadline), rounded up, as the apiserver computes it; 0 when nothing remains.
   */
  readonly timeoutSeconds: number;
}

/**
 * Per-call deadline (§11): a hook never gets more than its timeoutSeconds nor more than the request has
 * left. `apiserverDeadline` (default: the budget) is the deadline without Hookgate's safety margin.
 */
export function computeHookDeadline(
  now: number,
  hookTimeoutSeconds: number,
  requestDeadline: number,
  apiserverDeadline = requestDeadline,
): HookDeadline {
  const own = now + hookTimeoutSeconds * 1000;
  const deadline = Math.min(own, requestDeadline);
  const toldMs = Math.min(own, Math.max(apiserverDeadline, requestDeadline)) - now;
  // Whole microseconds first: with a fractional clock (performance.now) (now + 2000) - now can be
  // 2000.0000000002, which must still read `2s`, as Go's integer durations do.
  const toldUs = Math.round(toldMs * 1000);
  return { deadline, remainingMs: deadline - now, timeoutSeconds: toldUs > 0 ? Math.ceil(toldUs / 1_000_000) : 0 };
}

/** Go's Duration is an int64 of nanoseconds (2^63 − 1, as a float). */
const MAX_DURATION_NS = 2 ** 63;

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5
  μs: 1e-3, // U+03BC
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** time.ParseDuration → milliseconds, with Go's error texts (`time: invalid duration "x"`). */
export function parseGoDuration(text: string): Result<number, string> {
  const invalid = err(`time: invalid duration ${goQuote(text)}`);
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s.startsWith('-');
    s = s.slice(1);
  }
  if (s === '0') return ok(0);
  if (s === '') return invalid;
  let total = 0;
  while (s !== '') {
    const number = /^([0-9]*)(\.([0-9]*))?/.exec(s);
    const whole = number?.[1] ?? '';
    const fraction = number?.[3] ?? '';
    const hasDot = number?.[2] !== undefined;
    if (whole === '' && fraction === '') return invalid;
    s = s.slice(whole.length + (hasDot ? 1 + fraction.length : 0));
    const unitMatch = /^[^0-9.]*/.exec(s);
    const unit = unitMatch?.[0] ?? '';
    if (unit === '') return err(`time: missing unit in duration ${goQuote(text)}`);
    const scale = UNIT_MS[unit];
    if (scale === undefined) return err(`time: unknown unit ${goQuote(unit)} in duration ${goQuote(text)}`);
    s = s.slice(unit.length);
    total += Number(`${whole === '' ? '0' : whole}.${fraction === '' ? '0' : fraction}`) * scale;
    if (total * 1e6 > MAX_DURATION_NS) return invalid;
  }
  return ok(negative ? -total : total);
}
