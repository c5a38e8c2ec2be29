import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ReportedSideEffect } from '@hookgate/admission';
import { createGatewayMetrics, createLogger, createMetricsRegistry } from '@hookgate/observability';
import { loggingSideEffectSink, type SideEffectContext } from './side-effects.js';

const context: SideEffectContext = {
  uid: 'u1',
  phase: 'validating',
  operation: 'CREATE',
  resource: 'v1/pods',
  namespace: 'ns',
  name: 'web',
  allowed: true,
  dryRun: false,
};

describe('loggingSideEffectSink', () => {
  const cases = [
    { name: 'a normal side effect is logged at info', violation: undefined, level: 'info', label: 'none' },
    { name: 'one on a dryRun request is a violation', violation: 'dry-run' as const, level: 'warn', label: 'dry-run' },
    {
      name: 'one from a sideEffects None hook is a violation',
      violation: 'side-effects-none' as const,
      level: 'warn',
      label: 'side-effects-none',
    },
  ];
  it.each(cases)('$name', async ({ violation, level, label }) => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()),
    });
    const registry = createMetricsRegistry();
    const sink = loggingSideEffectSink(
      createLogger({ component: 'test', destination }),
      createGatewayMetrics(registry),
    );
    const effect: ReportedSideEffect = {
      hook: 'quota.example.com',
      configuration: 'c',
      kind: 'reservation',
      key: 'ns/web',
      payload: new TextEncoder().encode('secret-payload'),
      ...(violation ? { violation } : {}),
    };
    sink.record([effect], context);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level,
      hook: 'quota.example.com',
      kind: 'reservation',
      key: 'ns/web',
      uid: 'u1',
      namespace: 'ns',
      objectName: 'web',
    });
    expect(JSON.stringify(lines)).not.toContain('secret-payload');
    expect(await registry.metrics()).toContain(
      `hookgate_admission_webhook_side_effects_total{name="quota.example.com",type="validating",kind="reservation",violation="${label}"} 1`,
    );
  });
});
