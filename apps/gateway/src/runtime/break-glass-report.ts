/**
 * How the primary shows the break-glass switch: one log line per change (warn when on), the gauge
 * `hookgate_break_glass` (1 while on), and a line on /readyz. The primary owns the gauge: it is
 * the one process that reads the switch (workers only apply it).
 */
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '@hookgate/observability';
import { breakGlassPath, type BreakGlassState } from '../break-glass/index.js';

export function createBreakGlassGauge(registry: Registry): Gauge {
  return new Gauge({
    name: 'hookgate_break_glass',
    help: 'Whether the break-glass switch is on (1): every hook fails open (failurePolicy Ignore) until <stateDir>/break-glass is removed.',
    registers: [registry],
  });
}

export function reportBreakGlass(
  log: Logger,
  gauge: Gauge,
  state: BreakGlassState | undefined,
  stateDir: string,
  atStart = false,
): void {
  gauge.set(state === undefined ? 0 : 1);
  const file = breakGlassPath(stateDir);
  if (state !== undefined) {
    log.warn(
      { breakGlass: true, since: state.since, reason: state.reason, file },
      'break glass is ON: every hook fails open (failurePolicy Ignore); denials still deny. `hookgate break-glass off` restores the configured failure policies',
    );
  } else if (!atStart) {
    log.info({ breakGlass: false, file }, 'break glass is off: every hook has its configured failurePolicy again');
  }
}

export function breakGlassDetails(state: BreakGlassState | undefined): string[] {
  if (state === undefined) return [];
  const since = state.since ? ` since ${state.since}` : '';
  const reason = state.reason ? ` (${state.reason})` : '';
  return [`break glass is ON${since}${reason}: every hook fails open`];
}
