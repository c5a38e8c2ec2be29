import { describe, expect, it } from 'vitest';
import {
  clampCode,
  createGatewayMetrics,
  createMetricsRegistry,
  createWorkerProcessRegistry,
  forgetPlugin,
  recordConfigReload,
  registerBuildInfo,
  setCircuitState,
  stepType,
  webhookType,
} from './metrics.js';

/**
 * The apiserver's admission metrics as staging/src/k8s.io/apiserver/pkg/admission/metrics/metrics.go
 * declares them (name without the `apiserver_` prefix, type, label names in order, buckets).
 */
const APISERVER_ADMISSION_METRICS = [
  {
    name: 'admission_step_admission_duration_seconds',
    type: 'histogram',
    labels: ['type', 'operation', 'rejected'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5],
  },
  {
    name: 'admission_webhook_admission_duration_seconds',
    type: 'histogram',
    labels: ['name', 'type', 'operation', 'rejected'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25],
  },
  {
    name: 'admission_webhook_rejection_count',
    type: 'counter',
    labels: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
  },
  { name: 'admission_webhook_fail_open_count', type: 'counter', labels: ['name', 'type'] },
  {
    name: 'admission_webhook_request_total',
    type: 'counter',
    labels: ['name', 'type', 'operation', 'code', 'rejected'],
  },
  {
    name: 'admission_match_condition_evaluation_errors_total',
    type: 'counter',
    labels: ['name', 'kind', 'type', 'operation'],
  },
  {
    name: 'admission_match_condition_exclusions_total',
    type: 'counter',
    labels: ['name', 'kind', 'type', 'operation'],
  },
  {
    name: 'admission_match_condition_evaluation_seconds',
    type: 'histogram',
    labels: ['name', 'kind', 'type', 'operation'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25],
  },
] as const;

interface MetricShape {
  type: string;
  labelNames: string[];
  upperBounds?: number[];
}

describe('createGatewayMetrics', () => {
  it('mirrors every apiserver admission metric under hookgate_: type, label names and buckets', () => {
    const registry = createMetricsRegistry();
    createGatewayMetrics(registry);
    for (const want of APISERVER_ADMISSION_METRICS) {
      const metric = registry.getSingleMetric(`hookgate_${want.name}`) as unknown as MetricShape | undefined;
      expect(metric, want.name).toBeDefined();
      expect(metric!.type, want.name).toBe(want.type);
      expect(metric!.labelNames, want.name).toEqual(want.labels);
      if ('buckets' in want) expect(metric!.upperBounds, want.name).toEqual(want.buckets);
    }
  });

  it('names every metric hookgate_<name>_<unit> with no old label names', async () => {
    const registry = createMetricsRegistry();
    createGatewayMetrics(registry);
    const metrics = await registry.getMetricsAsJSON();
    expect(metrics).toHaveLength(20);
    for (const m of metrics) {
      expect(m.name).toMatch(/^hookgate_[a-z_]+(_total|_count|_seconds|_state|_successful|_generation)$/);
      expect((registry.getSingleMetric(m.name) as unknown as MetricShape).labelNames).not.toContain('phase');
    }
  });

  it('renders the apiserver label values: type admit or validating, rejection codes', async () => {
    const registry = createMetricsRegistry();
    const m = createGatewayMetrics(registry);
    m.hookRejections.inc({
      name: 'nonStatusError',
      type: webhookType('validating'),
      operation: 'UPDATE',
      error_type: 'calling_webhook_error',
      rejection_code: '503',
    });
    m.hookDuration.observe(
      { name: 'a.example.com', type: webhookType('mutating'), operation: 'CREATE', rejected: 'false' },
      0.003,
    );
    m.stepDuration.observe({ type: stepType('validating'), operation: 'CREATE', rejected: 'true' }, 0.003);
    const text = await registry.metrics();
    expect(text).toContain(
      'hookgate_admission_webhook_rejection_count{name="nonStatusError",type="validating",operation="UPDATE",error_type="calling_webhook_error",rejection_code="503"} 1',
    );
    expect(text).toContain(
      'hookgate_admission_webhook_admission_duration_seconds_bucket{le="0.005",name="a.example.com",type="admit",operation="CREATE",rejected="false"} 1',
    );
    expect(text).toContain(
      'hookgate_admission_step_admission_duration_seconds_bucket{le="0.005",type="validate",operation="CREATE",rejected="true"} 1',
    );
  });

  it('keeps one circuit state at 1 per worker and forgets deregistered plugins', async () => {
    const registry = createMetricsRegistry();
    const m = createGatewayMetrics(registry, { worker: '3' });
    setCircuitState(m, 'pod-defaults', 'closed');
    setCircuitState(m, 'pod-defaults', 'open');
    const values = (await m.circuitState.get()).values.map((v) => [v.labels.state, v.labels.worker, v.value]);
    expect(values).toEqual([
      ['closed', '3', 0],
      ['open', '3', 1],
      ['half-open', '3', 0],
    ]);
    forgetPlugin(m, 'pod-defaults');
    expect((await m.circuitState.get()).values).toEqual([]);
  });

  it('labels a single process worker 0', async () => {
    const m = createGatewayMetrics(createMetricsRegistry());
    setCircuitState(m, 'p', 'closed');
    expect((await m.circuitState.get()).values[0]?.labels.worker).toBe('0');
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
});

describe('process metrics', () => {
  it('uses the standard names, without a prefix', async () => {
    const text = await createMetricsRegistry({ collectDefault: true }).metrics();
    for (const name of ['process_cpu_seconds_total', 'process_start_time_seconds', 'nodejs_eventloop_lag_seconds'])
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    expect(text).not.toContain('hookgate_process');
  });

  it('labels a worker registry with its id and aggregates no series away', async () => {
    const registry = createWorkerProcessRegistry('2');
    expect(await registry.metrics()).toMatch(/^process_start_time_seconds\{worker="2"\} \d+/m);
    for (const metric of await registry.getMetricsAsJSON()) expect(metric.aggregator, metric.name).toBe('sum');
  });
});

describe('registerBuildInfo', () => {
  it('exports a constant 1 labelled with the version and the Node.js version', async () => {
    const registry = createMetricsRegistry();
    registerBuildInfo(registry, { version: '1.2.3' });
    expect(await registry.metrics()).toContain(
      `hookgate_build_info{version="1.2.3",nodejs_version="${process.version}"} 1`,
    );
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
