/**
 * deploy/monitoring checked with Debian's prometheus package: promtool accepts the alert rules and
 * passes their unit tests, and a real Prometheus, scraping a running gateway (two workers, TLS, a
 * plugin and bridge webhooks) with the shipped node-local scrape job and rule file, evaluates every
 * dashboard query and every alert expression. Where traffic was sent, the queries have results;
 * the alerts that traffic provokes (failing closed, failing open, timeouts, matchConditions
 * errors) return the hooks that provoked them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { REPO_ROOT, readGatewayCa, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { AdmissionClient } from '../src/admission-client.js';
import { createRulesFor, failingBridgeHooks, gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startPlugin, type PluginProcess } from '../src/plugin-process.js';
import { createReviewOf, podCreateReview } from '../src/pod-review.js';
import { promtool, startPrometheus, type PrometheusProcess } from '../src/prometheus.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';

const MONITORING = join(REPO_ROOT, 'deploy/monitoring');
const ALERTS_FILE = join(MONITORING, 'hookgate-alerts.yaml');

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface DashboardPanel {
  title: string;
  type: string;
  targets?: { expr: string }[];
  panels?: DashboardPanel[];
}
interface Dashboard {
  panels: DashboardPanel[];
  templating: { list: { name: string; type: string; definition?: string }[] };
}

async function alertRules(): Promise<AlertRule[]> {
  const doc = parse(await readFile(ALERTS_FILE, 'utf8')) as { groups: { rules: AlertRule[] }[] };
  return doc.groups.flatMap((g) => g.rules);
}

async function dashboard(): Promise<Dashboard> {
  return JSON.parse(await readFile(join(MONITORING, 'hookgate-dashboard.json'), 'utf8')) as Dashboard;
}

function dashboardQueries(board: Dashboard): { title: string; expr: string }[] {
  const panels = board.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
  return panels.flatMap((p) => (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr })));
}

/** Grafana's variables as "All" and a rate window the short test scrape fills. */
function asPromQL(expr: string): string {
  return expr.replaceAll('$__rate_interval', '1m').replaceAll('$instance', '.*').replaceAll('$hook', '.*');
}

/** Metric names a query reads (Hookgate's, the standard process and Node ones, `up`). */
function metricNames(expr: string): string[] {
  return [...new Set(expr.match(/\b(hookgate_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+|up)\b(?=\s*[{[)\s/])/g))];
}

/**
 * Metrics other processes export (the controller's hookgate_reconcile_*) or that come with the
 * side-effect queue (hookgate_side_effect_*, issue 10): a gateway alone has none of them.
 */
const notFromThisGateway = (name: string) => /^hookgate_(reconcile|side_effect)_/.test(name);

describe('the alert rules and scrape configuration (promtool)', () => {
  it('promtool check rules accepts the alert rules', async () => {
    const result = await promtool(['check', 'rules', ALERTS_FILE]);
    expect(result.output).toContain(`SUCCESS: ${(await alertRules()).length} rules found`);
    expect(result.code).toBe(0);
  });

  it('promtool test rules passes the fixtures, with every alert tested', async () => {
    const result = await promtool(['test', 'rules', 'tests/hookgate-alerts.test.yaml'], MONITORING);
    expect(result.output).toContain('SUCCESS');
    expect(result.code).toBe(0);
    const fixtures = await readFile(join(MONITORING, 'tests/hookgate-alerts.test.yaml'), 'utf8');
    const tested = new Set(
      (parse(fixtures) as { tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests
        .flatMap((t) => t.alert_rule_test)
        .filter((t) => t.exp_alerts.length > 0)
        .map((t) => t.alertname),
    );
    expect([...tested].sort()).toEqual((await alertRules()).map((r) => r.alert).sort());
  });

  it('gives every alert a severity, a summary, a description and a runbook', async () => {
    for (const rule of await alertRules()) {
      expect(['critical', 'warning', 'info'], rule.alert).toContain(rule.labels?.['severity']);
      for (const key of ['summary', 'description', 'runbook'])
        expect(rule.annotations?.[key]?.trim().length ?? 0, `${rule.alert} ${key}`).toBeGreaterThan(10);
    }
  });

  it('promtool check config accepts the node-local scrape job', async () => {
    const result = await promtool(['check', 'config', join(MONITORING, 'prometheus-scrape-node-local.yaml')]);
    expect(result.output).toContain('SUCCESS');
    expect(result.code).toBe(0);
  });

  it('selects the static pod by the label and port name it has, with job hookgate as the rules expect', async () => {
    const pod = parse(await readFile(join(REPO_ROOT, 'deploy/node/hookgate-pod.yaml'), 'utf8')) as {
      metadata: { namespace: string; labels: Record<string, string> };
      spec: { hostNetwork: boolean; containers: { ports?: { name: string; containerPort: number }[] }[] };
    };
    const podMonitor = parse(await readFile(join(MONITORING, 'podmonitor.yaml'), 'utf8')) as {
      spec: {
        jobLabel: string;
        namespaceSelector: { matchNames: string[] };
        selector: { matchLabels: Record<string, string> };
        podMetricsEndpoints: { port: string }[];
      };
    };
    const scrape = parse(await readFile(join(MONITORING, 'prometheus-scrape.yaml'), 'utf8')) as {
      scrape_configs: {
        job_name: string;
        relabel_configs: { source_labels?: string[]; regex?: string; action?: string }[];
      }[];
    };
    const port = pod.spec.containers[0]?.ports?.find((p) => p.containerPort === 9443);
    expect(pod.spec.hostNetwork).toBe(true);
    expect(port?.name).toBe('metrics');
    expect(podMonitor.spec.namespaceSelector.matchNames).toEqual([pod.metadata.namespace]);
    for (const [key, value] of Object.entries(podMonitor.spec.selector.matchLabels))
      expect(pod.metadata.labels[key]).toBe(value);
    expect(podMonitor.spec.podMetricsEndpoints.map((e) => e.port)).toEqual([port?.name]);
    expect(pod.metadata.labels[podMonitor.spec.jobLabel]).toBe('hookgate');
    const [job] = scrape.scrape_configs;
    expect(job?.job_name).toBe('hookgate');
    const keep = (label: string) =>
      job?.relabel_configs.find((r) => r.action === 'keep' && r.source_labels?.[0] === label)?.regex;
    expect(keep('__meta_kubernetes_pod_label_component')).toBe(pod.metadata.labels['component']);
    expect(keep('__meta_kubernetes_pod_container_port_name')).toBe(port?.name);
    for (const rule of await alertRules())
      if (rule.expr.includes('job=')) expect(rule.expr, rule.alert).toContain('job="hookgate"');
  });
});

describe('the Grafana dashboard', () => {
  it('has unique panel ids and queries every target through the data source variable', async () => {
    const board = await dashboard();
    const panels = board.panels.flatMap((p) => [p, ...(p.panels ?? [])]) as (DashboardPanel & {
      id: number;
      datasource?: { uid: string };
      targets?: { refId: string; expr: string; datasource?: { uid: string } }[];
    })[];
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    expect(board.templating.list.map((v) => v.name)).toEqual(['datasource', 'instance', 'hook']);
    for (const panel of panels.filter((p) => p.type !== 'row')) {
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect(target.datasource?.uid, panel.title).toBe('${datasource}');
        expect(target.refId, panel.title).toMatch(/^[A-Z]$/);
      }
    }
  });

  it('says in its description which panels wait for the side-effect queue metrics', async () => {
    const { description } = JSON.parse(await readFile(join(MONITORING, 'hookgate-dashboard.json'), 'utf8')) as {
      description: string;
    };
    expect(description).toContain('hookgate_side_effect_*');
    expect(description).toContain('hookgate_reconcile_*');
  });
});

describe('a real Prometheus scraping a running gateway', () => {
  let dir: TempDir;
  let webhook: TestWebhookServer;
  let plugin: PluginProcess;
  let gateway: GatewayProcess;
  let client: AdmissionClient;
  let prometheus: PrometheusProcess;

  /** One of each: allowed, denied, failing closed and open on timeouts, conditions erroring, side effects. */
  const traffic = () =>
    Promise.all([
      client.post('/mutate', podCreateReview()),
      client.post('/validate', podCreateReview()),
      client.post('/validate', podCreateReview()),
      client.post('/validate', createReviewOf('secrets', 'Secret')),
      client.post('/validate', createReviewOf('services', 'Service')),
      client.post('/validate', createReviewOf('endpoints', 'Endpoints')),
      client.post('/validate', createReviewOf('resourcequotas', 'ResourceQuota')),
    ]);
  /** Waits until Prometheus answers `expr` with at least one sample (vi.waitFor: it runs in beforeAll too). */
  const pollUntilResult = (expr: string) =>
    vi.waitFor(
      async () => {
        if ((await prometheus.query(expr)).length === 0) throw new Error(`no result yet for ${expr}`);
      },
      { timeout: 30_000, interval: 500 },
    );

  beforeAll(async () => {
    dir = await tempDir('hookgate-monitoring-');
    webhook = await startWebhookServer();
    plugin = await startPlugin('behaviour-plugin.ts', [`unix://${join(dir.dir, 'behaviours.sock')}`, 'behaviours']);
    const url = (behaviour: string) => ({ url: `${webhook.origin}/${behaviour}` });
    gateway = await startGateway({
      insecureHttp: false,
      config: gatewayConfigYaml(
        [
          webhookConfiguration('mutating', 'labels', [
            { name: 'add-label.example.com', clientConfig: url('addLabel'), rules: createRulesFor('pods') },
          ]),
          webhookConfiguration('validating', 'checks', [
            {
              name: 'allow.example.com',
              clientConfig: url('allow'),
              rules: createRulesFor('pods'),
              namespaceSelector: { matchExpressions: [{ key: 'frozen', operator: 'DoesNotExist' }] },
            },
            {
              name: 'conditions.example.com',
              clientConfig: url('allow'),
              rules: createRulesFor('pods'),
              failurePolicy: 'Ignore',
              // The pod has no `team` label: the expression errors.
              matchConditions: [{ name: 'team-x', expression: "object.metadata.labels['team'] == 'x'" }],
            },
            ...failingBridgeHooks(webhook.origin),
            { name: 'allow.plugin.test', clientConfig: { plugin: 'behaviours' }, rules: createRulesFor('pods') },
            {
              name: 'side-effect.plugin.test',
              clientConfig: { plugin: 'behaviours' },
              rules: createRulesFor('resourcequotas'),
              sideEffects: 'NoneOnDryRun',
            },
          ]),
        ],
        { workers: 2, plugins: [{ name: 'behaviours', target: plugin.target }] },
      ),
    });
    client = new AdmissionClient(gateway.admissionUrl, { ca: await readGatewayCa(gateway) });

    // The shipped node-local job, pointed at this gateway's metrics port, scraped every second.
    const shipped = parse(await readFile(join(MONITORING, 'prometheus-scrape-node-local.yaml'), 'utf8')) as {
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const job = shipped.scrape_configs[0]!;
    expect(job.static_configs[0]?.targets).toEqual(['127.0.0.1:9443']);
    job.static_configs[0]!.targets = [new URL(gateway.metricsUrl).host];
    prometheus = await startPrometheus({
      config: stringify({
        global: { scrape_interval: '1s', evaluation_interval: '1s' },
        rule_files: ['hookgate-alerts.yaml'],
        scrape_configs: [job],
      }),
      files: { 'hookgate-alerts.yaml': await readFile(ALERTS_FILE, 'utf8') },
    });

    // Two rounds with a scrape between: rate() needs a series seen before it grew.
    await traffic();
    await pollUntilResult('hookgate_admission_webhook_fail_open_count');
    await traffic();
    await pollUntilResult('increase(hookgate_admission_webhook_fail_open_count[1m]) > 0');
  }, 120_000);

  afterAll(async () => {
    await prometheus?.stop();
    await client?.close();
    await gateway?.stop();
    await plugin?.stop();
    await webhook?.close();
    await dir?.cleanup();
  });

  it('scrapes the gateway as job hookgate', async () => {
    const up = await prometheus.query('up{job="hookgate"}');
    expect(up.map((s) => s.value[1])).toEqual(['1']);
  });

  it('has a result for every dashboard query on the gateway, and a valid query for the rest', async () => {
    const board = await dashboard();
    const queries = dashboardQueries(board);
    expect(queries.length).toBeGreaterThan(20);
    for (const { title, expr } of queries) {
      const result = await prometheus.query(asPromQL(expr));
      if (metricNames(expr).some(notFromThisGateway)) continue;
      expect(result.length, `${title}: ${expr}`).toBeGreaterThan(0);
    }
    // The variables' label_values(metric, label) as PromQL.
    for (const variable of board.templating.list.filter((v) => v.type === 'query')) {
      const match = /^label_values\((.+), (\w+)\)$/.exec(variable.definition ?? '');
      expect(match, variable.name).not.toBeNull();
      const values = await prometheus.query(`count by (${match![2]}) (${asPromQL(match![1]!)})`);
      expect(values.length, variable.name).toBeGreaterThan(0);
    }
  });

  it('reads every metric the alert rules name from the gateway, except the queue and controller ones', async () => {
    for (const rule of await alertRules()) {
      for (const name of metricNames(rule.expr)) {
        if (notFromThisGateway(name)) continue;
        expect((await prometheus.query(`count(${name})`)).length, `${rule.alert}: ${name}`).toBe(1);
      }
    }
  });

  it('evaluates every alert; those the traffic provoked name the hooks that did', async () => {
    const provoked: Record<string, string[]> = {
      HookgateWebhookFailingClosed: ['hang-fail.example.com'],
      HookgateWebhookFailingOpen: ['hang-ignore.example.com'],
      HookgateWebhookTimeouts: ['hang-fail.example.com', 'hang-ignore.example.com'],
      HookgateMatchConditionErrors: ['conditions.example.com'],
      // The hanging hooks took their whole 1 s timeout: p99 in the (1, 2.5] bucket.
      HookgateWebhookLatencyHigh: ['hang-fail.example.com', 'hang-ignore.example.com'],
    };
    for (const rule of await alertRules()) {
      const result = await prometheus.query(rule.expr);
      const hooks = [...new Set(result.map((s) => s.metric['name']))].sort();
      expect(hooks, rule.alert).toEqual(provoked[rule.alert] ?? []);
    }
  });

  it('loads every rule and evaluates each without error, the provoked ones pending', async () => {
    await expect
      .poll(
        async () => (await prometheus.rules()).filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.lastError}`),
        {
          timeout: 15_000,
          interval: 500,
        },
      )
      .toEqual([]);
    expect((await prometheus.rules()).length).toBe((await alertRules()).length);
    await pollUntilResult('ALERTS{alertname="HookgateWebhookFailingOpen", alertstate="pending"}');
  });

  it('reports process metrics per worker under their standard names, and the build', async () => {
    const starts = await prometheus.query('process_start_time_seconds{job="hookgate"}');
    expect(new Set(starts.map((s) => s.metric['worker'])).size).toBe(2);
    const build = await prometheus.query('hookgate_build_info');
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'apps/gateway/package.json'), 'utf8')) as {
      version: string;
    };
    expect(build.map((s) => [s.metric['version'], s.metric['nodejs_version'], s.value[1]])).toEqual([
      [version, process.version, '1'],
    ]);
    const circuit = await prometheus.query('sum by (plugin) (hookgate_plugin_circuit_state{state="closed"})');
    expect(circuit.map((s) => [s.metric['plugin'], s.value[1]])).toEqual([['behaviours', '2']]);
  });
});
