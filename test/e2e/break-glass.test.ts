/**
 * The registration's webhooks and the break-glass switch, against a running gateway:
 * `/validate/fail` runs only the Fail hooks and `/validate/ignore` only the Ignore ones; and
 * `hookgate break-glass on` (a file in stateDir) turns every hook to failurePolicy Ignore within a
 * second, shown in the logs, the metrics and /readyz, until `off` restores the configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayProcess } from '@hookgate/devtools';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { fetchMetrics, sampleValue } from '../src/metrics-text.js';
import { podCreateReview } from '../src/pod-review.js';
import { runCli } from '../src/run-cli.js';

/** Nothing listens on port 9 (discard): every call of these hooks is a calling error. */
const DEAD = 'http://127.0.0.1:9/validate';
const WAIT = { timeout: 20_000, interval: 100 };

describe('registration webhooks and the break-glass switch', () => {
  let gateway: GatewayProcess;
  let client: AdmissionClient;

  beforeAll(async () => {
    gateway = await startGateway({
      config: gatewayConfigYaml(
        [
          webhookConfiguration('validating', 'policies', [
            { name: 'closed.example.com', clientConfig: { url: DEAD }, failurePolicy: 'Fail' },
            { name: 'open.example.com', clientConfig: { url: DEAD }, failurePolicy: 'Ignore' },
          ]),
        ],
        { workers: 2 },
      ),
    });
    client = new AdmissionClient(gateway.admissionUrl);
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
  });

  const validate = async (path: string) => (await client.post(path, podCreateReview(), { timeout: '10s' })).review;
  const breakGlass = (action: string, ...extra: string[]) =>
    runCli(['break-glass', action, '--state-dir', gateway.stateDir, ...extra]);
  const readyz = async () => (await fetch(`${gateway.metricsUrl}/readyz`)).text();
  const gauge = async () => sampleValue(await fetchMetrics(gateway.metricsUrl), 'hookgate_break_glass');

  it('runs only the Fail hooks on /validate/fail and only the Ignore hooks on /validate/ignore', async () => {
    const fail = await validate('/validate/fail');
    expect(fail.response).toMatchObject({ allowed: false, status: { code: 500 } });
    expect(fail.response?.status?.message).toContain('failed calling webhook "closed.example.com"');
    expect(await validate('/validate/ignore')).toMatchObject({
      response: { allowed: true, auditAnnotations: { 'failed-open.validating_round_0_index_0': 'open.example.com' } },
    });
    expect(await gauge()).toBe(0);
    expect(await readyz()).toBe('ok');
  });

  it('break-glass on: every hook fails open, in the logs, the metrics and /readyz; off restores them', async () => {
    const on = await breakGlass('on', '--reason', 'INC-42 policy service down');
    expect(on).toMatchObject({ code: 0, stderr: '' });
    expect(on.stdout).toContain('break glass ON since');
    await gateway.waitForLog((l) => l.level === 'warn' && String(l.msg).startsWith('break glass is ON'), 20_000);
    const line = gateway.logs.find((l) => String(l.msg).startsWith('break glass is ON'));
    expect(line).toMatchObject({ breakGlass: true, reason: 'INC-42 policy service down' });

    // Every worker applies it: every answer of a run of requests fails open.
    await expect
      .poll(async () => {
        const answers = await Promise.all([1, 2, 3, 4].map(() => validate('/validate/fail')));
        return answers.every((a) => a.response?.allowed === true);
      }, WAIT)
      .toBe(true);
    expect(await validate('/validate/fail')).toMatchObject({
      response: { allowed: true, auditAnnotations: { 'failed-open.validating_round_0_index_0': 'closed.example.com' } },
    });
    expect(await validate('/validate')).toMatchObject({ response: { allowed: true } });
    expect(gateway.logs.find((l) => l['decision'] === 'fail-open' && l['hook'] === 'closed.example.com')).toMatchObject(
      { breakGlass: true },
    );
    expect(await gauge()).toBe(1);
    expect(await readyz()).toMatch(
      /^ok\nbreak glass is ON since \S+ \(INC-42 policy service down\): every hook fails open$/,
    );
    expect((await breakGlass('status')).stdout).toContain('break glass is ON');
    // The configuration itself was not touched.
    expect(
      gateway.logs.filter((l) => l.msg === 'configuration reloaded' || l.msg === 'configuration files unchanged'),
    ).toEqual([]);

    expect(await breakGlass('off')).toMatchObject({
      code: 0,
      stdout: 'break glass off: the configured failure policies apply again.\n',
    });
    await gateway.waitForLog((l) => String(l.msg).startsWith('break glass is off'), 20_000);
    await expect
      .poll(async () => {
        const answers = await Promise.all([1, 2, 3, 4].map(() => validate('/validate/fail')));
        return answers.every((a) => a.response?.allowed === false);
      }, WAIT)
      .toBe(true);
    expect(await gauge()).toBe(0);
    expect(await readyz()).toBe('ok');
    expect((await breakGlass('status')).stdout).toBe('break glass is off\n');
  });

  it('break-glass without a state directory or configuration says what to give', async () => {
    expect(await runCli(['break-glass', 'on'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'give --state-dir DIR or --config PATH (whose stateDir is used)\n',
    });
  });
});
