/** Text shared by the commands: configuration summaries and decision reports. */
import type { ChainOutcome, TraceEvent } from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';

export function summarizeConfiguration(c: LoadedConfiguration): string {
  let mutating = 0;
  let validating = 0;
  for (const w of c.webhookConfigurations) {
    if (w.kind === 'MutatingWebhookConfiguration') mutating += w.webhooks.length;
    else validating += w.webhooks.length;
  }
  return `${mutating} mutating and ${validating} validating hook(s) in ${c.webhookConfigurations.length} webhook configuration(s), ${c.gateway.plugins.length} plugin(s)`;
}

export function formatOutcome(title: string, outcome: ChainOutcome): string {
  const lines = [`${title}: ${outcome.allowed ? 'allowed' : 'DENIED'}`];
  if (outcome.status)
    lines.push(
      `  status: ${outcome.status.code ?? ''} ${outcome.status.reason ?? ''}`.trimEnd(),
      `  message: ${outcome.status.message ?? ''}`,
    );
  for (const event of outcome.trace) lines.push(`  ${formatEvent(event)}`);
  if (outcome.patch && outcome.patch.length > 0) {
    lines.push('  patch:');
    for (const op of outcome.patch) lines.push(`    ${JSON.stringify(op)}`);
  }
  for (const w of outcome.warnings) lines.push(`  warning: ${w}`);
  for (const [k, v] of Object.entries(outcome.auditAnnotations)) lines.push(`  audit annotation: ${k}=${v}`);
  for (const s of outcome.sideEffects)
    lines.push(`  side effect: ${s.hook} ${s.kind} ${s.key}${s.violation ? ` (violation: ${s.violation})` : ''}`);
  return lines.join('\n');
}

function formatEvent(event: TraceEvent): string {
  const round = event.round === 1 ? ' (round 1)' : '';
  switch (event.type) {
    case 'skip':
      return `- ${event.hook}${round}: skipped (${event.reason})`;
    case 'reject':
      return `✗ ${event.hook}${round}: rejected before the call (${event.reason}, ${event.code})`;
    case 'conditions':
      return `  ${event.hook}${round}: matchConditions evaluated in ${event.durationMs.toFixed(1)} ms${event.errors > 0 ? `, ${event.errors} failed to evaluate` : ''}`;
    case 'call': {
      const failure = event.failure ? `: ${event.failure.message}` : '';
      return `${event.outcome === 'allowed' || event.outcome === 'failed-open' ? '✓' : '✗'} ${event.hook}${round}: ${event.outcome}${event.mutated ? ', mutated' : ''} in ${event.durationMs.toFixed(1)} ms${failure}`;
    }
  }
}
