/**
 * Process lifecycle: a worker that dies is replaced while the other keeps serving; graceful
 * shutdown on SIGTERM stops accepting, turns /readyz to 503 while it drains, answers the requests
 * in flight, and every process exits with 0. An admission or metrics port that is taken stops the
 * start with one structured log line naming the address and the cause, and exit code 1. /livez
 * answers 503 while no worker listens for admission requests.
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { startGateway, type GatewayProcess } from '@hookgate/devtools';
import { podCreateReview } from '../src/pod-review.js';
import { runCli } from '../src/run-cli.js';
import { startWebhookServer, type TestWebhookServer } from '../src/webhook-server.js';

describe('gateway process lifecycle', () => {
  let webhook: TestWebhookServer;
  let gateway: GatewayProcess;
  let client: AdmissionClient;

  beforeAll(async () => {
    webhook = await startWebhookServer();
    gateway = await startGateway({
      config: gatewayConfigYaml(
        [
          webhookConfiguration('validating', 'slow', [
            { name: 'slow.example.com', clientConfig: { url: `${webhook.origin}/slow` } },
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
    await webhook?.close();
  });

  it('replaces a worker that dies and keeps serving', async () => {
    const listening = (l: { msg?: string }) => String(l.msg).startsWith('Server listening at');
    const workerPids = gateway.logs.filter(listening).map((l) => l['pid'] as number);
    expect(workerPids).toHaveLength(2);
    process.kill(workerPids[0]!, 'SIGKILL');
    await gateway.waitForLog(
      (l) => l.msg === 'gateway worker exited unexpectedly; starting a replacement' && l['workerPid'] === workerPids[0],
    );
    await gateway.waitForLog((l) => listening(l) && !workerPids.includes(l['pid'] as number));
    for (let i = 0; i < 4; i += 1) {
      const deployment = podCreateReview({
        kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      });
      const { review } = await client.post('/validate', deployment, { timeout: '10s' });
      expect(review.response?.allowed).toBe(true);
    }
    expect((await fetch(`${gateway.metricsUrl}/readyz`)).status).toBe(200);
  });

  it('answers the requests in flight, then exits 0', async () => {
    webhook.reset();
    const inFlight = [
      client.post('/validate', podCreateReview(), { timeout: '10s' }),
      client.post('/validate', podCreateReview(), { timeout: '10s' }),
    ];
    while (webhook.callsTo('slow').length < 2) await new Promise((r) => setTimeout(r, 20));
    gateway.signal('SIGTERM');
    await gateway.waitForLog((l) => String(l.msg).startsWith('shutting down'));
    const readyz = await fetch(`${gateway.metricsUrl}/readyz`).catch(() => undefined);
    if (readyz) expect(readyz.status).toBe(503);
    for (const answer of await Promise.all(inFlight)) {
      expect(answer.status).toBe(200);
      expect(answer.review.response?.allowed).toBe(true);
    }
    expect(await gateway.waitForExit(30_000)).toBe(0);
    expect(gateway.logs.filter((l) => l.msg === 'worker stopped')).toHaveLength(2);
    expect(gateway.logs.at(-1)?.msg).toBe('hookgate stopped');
    await expect(fetch(`${gateway.metricsUrl}/livez`)).rejects.toThrow();
  });
});

/** `hookgate serve` with one port taken by another listener: it exits by itself (runCli's timeout is the bound). */
async function serveWithPortTaken(which: 'admission' | 'metrics') {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as AddressInfo).port;
  const dir = await mkdtemp(join(tmpdir(), 'hookgate-bind-'));
  try {
    const config = join(dir, 'hookgate.yaml');
    await writeFile(config, gatewayConfigYaml([], { workers: 2 }));
    const ports =
      which === 'admission'
        ? ['--port', String(port), '--metrics-port', '0']
        : ['--port', '0', '--metrics-port', String(port)];
    const result = await runCli([
      'serve',
      '--config',
      config,
      '--host',
      '127.0.0.1',
      ...ports,
      '--insecure-http',
      '--state-dir',
      join(dir, 'state'),
    ]);
    return { port, result };
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

describe('gateway start with a port taken', () => {
  it.each([
    ['admission', 'admission requests'],
    ['metrics', '/metrics, /livez and /readyz'],
  ] as const)(
    '%s port: exits 1 with one structured line naming the address and the cause',
    async (which, what) => {
      const { port, result } = await serveWithPortTaken(which);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('');
      const lines = result.stdout
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const naming = lines.filter((l) => JSON.stringify(l).includes(`127.0.0.1:${port}`));
      expect(naming).toEqual([
        expect.objectContaining({
          level: 'fatal',
          msg: `cannot listen for ${what} on 127.0.0.1:${port}: address already in use (EADDRINUSE); the gateway stops`,
          address: `127.0.0.1:${port}`,
          code: 'EADDRINUSE',
          errorCode: 'HG_ERR_GATEWAY_LISTEN',
        }),
      ]);
      // Nothing about replacing workers: a worker that cannot bind is not a crash to retry.
      expect(lines.filter((l) => String(l['msg']).includes('exited unexpectedly'))).toEqual([]);
    },
    60_000,
  );
});

describe('gateway liveness', () => {
  it('/livez answers 503 while no worker listens for admission requests, 200 once one does again', async () => {
    // A replacement worker reads the bearer token file before it listens. Made a FIFO, the file
    // holds the replacement there (no crash, no crash loop) until the test writes the token into it.
    const gateway = await startGateway({
      config: gatewayConfigYaml([], { workers: 1, extra: { admission: { bearerTokenFile: 'token' } } }),
      files: { token: 'secret-token\n' },
    });
    let released = false;
    try {
      const livez = async () => {
        const res = await fetch(`${gateway.metricsUrl}/livez`);
        return `${res.status} ${await res.text()}`;
      };
      expect(await livez()).toBe('200 ok');
      const token = join(gateway.configDir, 'token');
      await rm(token);
      execFileSync('mkfifo', [token]);
      const worker = gateway.logs.find((l) => String(l.msg).startsWith('Server listening at'))!['pid'] as number;
      process.kill(worker, 'SIGKILL');
      await expect
        .poll(livez, { timeout: 20_000, interval: 100 })
        .toBe('503 not alive: no gateway worker is listening for admission requests');
      await writeFile(token, 'secret-token\n'); // opens the FIFO the replacement is reading
      released = true;
      await expect.poll(livez, { timeout: 30_000, interval: 100 }).toBe('200 ok');
    } finally {
      // A replacement still waiting on the FIFO would outlive the gateway: let it go first.
      if (!released) await releaseFifo(join(gateway.configDir, 'token'));
      await gateway.stop();
    }
  }, 90_000);
});

/** Writes the token into the FIFO if a reader waits on it (non-blocking: nobody reading, nothing to do). */
async function releaseFifo(path: string): Promise<void> {
  try {
    const handle = await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
    await handle.write('secret-token\n');
    await handle.close();
  } catch {
    // no reader (ENXIO) or no FIFO: no worker is waiting
  }
}
