import { describe, expect, it } from 'vitest';
import {
  clampCode,
  createGatewayMetrics,
  createMetricsRegistry,
  forgetPlugin,
  recordConfigReload,
  setCircuitState,
} from './metrics.js';

describe('createGatewayMetrics', () => {
  it('registers every metric under hookgate_ with Prometheus naming', async () => {
    const registry = createMetricsRegistry();
    createGatewayMetrics(registry);
    const names = (await registry.getMetricsAsJSON()).map((m) => m.name);
    expect(names).toHaveLength(19);
    for (const name of names)
      expect(name).toMatch(/^hookgate_[a-z_]+(_total|_seconds|_state|_successful|_generation)$/);
  });

  it('renders the apiserver-style hook series', async () => {
    const registry = createMetricsRegistry();
    const m = createGatewayMetrics(registry);
    m.hookRejections.inc({
      name: 'nonStatusError',
      phase: 'validating',
      operation: 'UPDATE',
      error_type: 'calling_webhook_error',
      rejection_code: '503',
    });
    m.hookDuration.observe(
      { name: 'a.example.com', phase: 'mutating', operation: 'CREATE', rejected: 'false' },
      0.0003,
    );
    const text = await registry.metrics();
    expect(text).toContain(
      'hookgate_webhook_rejections_total{name="nonStatusError",phase="validating",operation="UPDATE",error_type="calling_webhook_error",rejection_code="503"} 1',
    );
    expect(text).toContain(
      'hookgate_webhook_admission_duration_seconds_bucket{le="0.0005",name="a.example.com",phase="mutating",operation="CREATE",rejected="false"} 1',
    );
  });

  it('keeps one circuit state at 1 and forgets deregistered plugins', async () => {
    const registry = createMetricsRegistry();
    const m = createGatewayMetrics(registry);
    setCircuitState(m, 'pod-defaults', 'closed');
    setCircuitState(m, 'pod-defaults', 'open');
    const values = (await m.circuitState.get()).values.map((v) => [v.labels.state, v.value]);
    expect(values).toEqual([
      ['closed', 0],
      ['open', 1],
      ['half-open', 0],
    ]);
    forgetPlugin(m, 'pod-defaults');
    expect((await m.circuitState.get()).values).toEqual([]);
  });

  it('records reload success and failure', async () => {
    const registry = createMetricsRegistry();
    const m = createGatewayMetrics(registry);
    recordConfigReload(m, { ok: true, generation: 3, at: new Date(5000) });
    recordConfigReload(m, { ok: false });
    const text = await registry.metrics();
    expect(text).toContain('hookgate_config_reloads_total{result="success"} 1');
    expect(text).toContain('hookgate_config_reloads_total{result="failure"} 1');
    expect(text).toContain('hookgate_config_last_reload_successful 0');
    expect(text).toContain('hookgate_config_generation 3');
    expect(text).toContain('hookgate_config_last_reload_success_timestamp_seconds 5');
  });

  it('collects default process metrics when asked', async () => {
    const registry = createMetricsRegistry({ collectDefault: true });
    expect(await registry.metrics()).toContain('hookgate_process_cpu_seconds_total');
  });
});

describe('clampCode', () => {
  const cases = [
    { name: 'success', code: 200, want: '200' },
    { name: 'denial', code: 403, want: '403' },
    { name: 'above 600', code: 999, want: '600' },
    { name: 'non-HTTP error', code: 0, want: '0' },
    { name: 'negative', code: -1, want: '0' },
    { name: 'NaN', code: Number.NaN, want: '0' },
  ];
  for (const c of cases) it(c.name, () => expect(clampCode(c.code)).toBe(c.want));
});
