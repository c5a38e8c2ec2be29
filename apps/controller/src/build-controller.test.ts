/**
 * The controller's workers against a real Redis (ensureRedis) and a real SDK plugin on a unix
 * socket, through the real PluginClient. Jobs are added by the gateway's SideEffectProducer. The
 * jobs here need no apiserver read (dryRun, denied by the gateway), so the kubeconfig points at a
 * port nobody listens on: a read would only ever be 'unavailable'. Each test has its own queue
 * prefix and obliterates its queue afterwards.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Queue, type Job } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger, ensureRedis, type RedisHandle } from '@hookgate/devtools';
import { createMetricsRegistry } from '@hookgate/observability';
import { definePlugin, servePlugin, type PluginServer, type ReconcileRequest } from '@hookgate/plugin-sdk';
import { tempDir, type TempDir } from '@hookgate/plugin-sdk/testing';
import { SideEffectProducer, reconcileQueueName, type SideEffectJob } from '@hookgate/queue';
import { DENIED_BY_HOOK, sampleJob } from '@hookgate/queue/testing';
import { buildController, type Controller } from './build-controller.js';
import { readControllerConfig, type ControllerConfig } from './config.js';
import { writeUnreachableKubeconfig } from './test/unreachable-kubeconfig.js';

const PLUGIN = 'ledger';
const HOOK = 'claims.ledger.example.com';
const PAYLOAD_SECRET = 'payload-must-not-be-logged';

const calls: ReconcileRequest[] = [];
const callTimes: number[] = [];
let releaseHang: () => void = () => {};
let hang = new Promise<void>((resolve) => (releaseHang = resolve));
let hangAnswersDone = false;

/** What the plugin answers depends on the effect's kind. */
const ledger = definePlugin({
  name: PLUGIN,
  hooks: { [HOOK]: { phase: 'validating', validate: () => ({ allowed: true }) } },
  async reconcile(request) {
    calls.push(request);
    callTimes.push(Date.now());
    switch (request.sideEffect.kind) {
      case 'busy':
        return { done: false, message: 'ledger busy', retryAfterMs: 400 };
      case 'later':
        return { done: false, message: 'claim still settling' };
      case 'hang':
        if (!hangAnswersDone) await hang;
        return { done: true, message: 'released after the hang' };
      default:
        return { done: true, message: `claim ${request.sideEffect.key} ${request.outcome}` };
    }
  },
});

let redis: RedisHandle;
let tmp: TempDir;
let server: PluginServer;
let kubeconfig: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = await ensureRedis();
  tmp = await tempDir('hookgate-controller-');
  server = await servePlugin(ledger, { listen: `unix://${path.join(tmp.dir, 'ledger.sock')}`, logger: false });
  kubeconfig = await writeUnreachableKubeconfig(tmp.dir);
}, 30_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  calls.length = 0;
  callTimes.length = 0;
});

afterAll(async () => {
  releaseHang();
  await server?.shutdown(200);
  await tmp?.cleanup();
  await redis?.stop();
});

interface Harness {
  readonly controller: Controller;
  readonly queue: Queue;
  readonly producer: SideEffectProducer;
  readonly logs: Record<string, unknown>[];
  readonly prefix: string;
}

/** A controller, a producer and an inspecting Queue on a prefix of their own, cleaned up after the test. */
async function start(
  overrides: Record<string, unknown> = {},
  options: { prefix?: string; target?: string; attempts?: number } = {},
): Promise<Harness> {
  const prefix = options.prefix ?? `{hgtest-${randomUUID().slice(0, 8)}}`;
  const config = controllerConfig(prefix, options.target ?? server.target, overrides);
  const { logger, logs } = capturedLogger('controller');
  const controller = await buildController(config, { logger, registry: createMetricsRegistry() });
  const producer = new SideEffectProducer({ redisUrl: redis.url, prefix, attempts: options.attempts ?? 3 });
  const queue = new Queue(reconcileQueueName(PLUGIN), { connection: { url: redis.url }, prefix });
  await waitFor('the producer to connect', async () => (producer.connectionStatus === 'ready' ? true : undefined));
  if (options.prefix === undefined) {
    cleanups.push(async () => {
      await queue.obliterate({ force: true });
      await queue.close();
    });
  } else {
    cleanups.push(() => queue.close());
  }
  cleanups.push(() => producer.close());
  cleanups.push(() => controller.close());
  return { controller, queue, producer, logs, prefix };
}

function controllerConfig(prefix: string, target: string, overrides: Record<string, unknown>): ControllerConfig {
  const result = readControllerConfig(
    {
      redis: { url: redis.url, prefix },
      plugins: [{ name: PLUGIN, target }],
      kubernetes: { mode: 'kubeconfig', kubeconfig },
      concurrency: 2,
      graceMs: 0,
      confirmDelayMs: 100,
      unavailableDelayMs: 100,
      readTimeoutMs: 500,
      reconcileTimeoutMs: 2_000,
      lockDurationMs: 5_000,
      stalledIntervalMs: 1_000,
      backoff: { baseMs: 20, capMs: 50 },
      shutdownTimeoutMs: 2_000,
      health: { host: '127.0.0.1', port: 0 },
      dashboard: { port: 0 },
      resync: { intervalMs: 0 },
      ...overrides,
    },
    { configDir: tmp.dir, env: {} },
  );
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

/** A job whose persistence needs no read: a dryRun request, or one the gateway denied (the shared sample job). */
function sideEffectJob(
  kind: string,
  admission: Partial<SideEffectJob['admission']> = {},
  denied = false,
): SideEffectJob {
  return sampleJob(
    {
      plugin: PLUGIN,
      hook: HOOK,
      effect: { kind, key: `shop/${kind}`, payload: Buffer.from(PAYLOAD_SECRET).toString('base64') },
      gateway: 'gw-test',
      time: Date.now(),
      ...(denied ? { decision: DENIED_BY_HOOK } : {}),
    },
    { uid: randomUUID(), ...admission },
  );
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function jobIn(queue: Queue, id: string, state: string): Promise<Job> {
  // The state first, then the job: a job read before its last run would be stale.
  return waitFor(`job ${id} to be ${state}`, async () =>
    (await queue.getJobState(id)) === state ? queue.getJob(id) : undefined,
  );
}

async function metricValue(controller: Controller, name: string, labels: string): Promise<number | undefined> {
  const text = await controller.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('controller workers', () => {
  it('a dryRun request: the plugin is told NOT_PERSISTED at once (no read) and the job completes', async () => {
    const { controller, queue, producer } = await start();
    const { jobId } = await producer.add(sideEffectJob('claim', { dryRun: true }));
    const job = await jobIn(queue, jobId, 'completed');
    expect(job.returnvalue).toEqual({
      outcome: 'NOT_PERSISTED',
      rule: 'dry-run',
      message: 'claim shop/claim NOT_PERSISTED',
    });
    expect(calls.map((c) => [c.outcome, c.attempt, c.admission?.dryRun])).toEqual([['NOT_PERSISTED', 1, true]]);
    expect(
      await metricValue(
        controller,
        'hookgate_reconcile_total',
        'plugin="ledger",outcome="NOT_PERSISTED",result="done"',
      ),
    ).toBe(1);
  });

  it('a request the gateway denied: the plugin answers done, the job completes after one attempt', async () => {
    const { controller, queue, producer } = await start();
    const { jobId } = await producer.add(sideEffectJob('claim', {}, true));
    const job = await jobIn(queue, jobId, 'completed');
    expect(job.returnvalue).toMatchObject({ outcome: 'NOT_PERSISTED', rule: 'denied-by-gateway' });
    // BullMQ 6 counts the completing run as an attempt made.
    expect(job.attemptsMade).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.admission?.allowed).toBe(false);
    const text = await controller.registry.metrics();
    expect(text).toMatch(/hookgate_reconcile_attempts_count\{plugin="ledger",result="done"\} 1/);
    expect(text).toMatch(/hookgate_reconcile_latency_seconds_count\{plugin="ledger",result="done"\} 1/);
  });

  it('a plugin answering not done: retried with backoff, then left in the failed set, logged and counted', async () => {
    const { controller, queue, producer, logs } = await start({}, { attempts: 3 });
    const { jobId } = await producer.add(sideEffectJob('later', {}, true));
    const job = await jobIn(queue, jobId, 'failed');
    expect(job.attemptsMade).toBe(3);
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(job.failedReason).toContain('said not done: claim still settling');
    // The decided outcome is kept between attempts: no read was needed again.
    expect(job.progress).toEqual({ stage: 'settled', outcome: 'NOT_PERSISTED', rule: 'denied-by-gateway' });

    const warning = logs.find((l) => l['level'] === 'warn' && l['jobId'] === jobId);
    expect(warning).toMatchObject({
      plugin: PLUGIN,
      hook: HOOK,
      requestUid: job.data.admission.uid,
      effectKind: 'later',
      effectKey: 'shop/later',
      attempts: 3,
      outcome: 'NOT_PERSISTED',
    });
    expect(String(warning?.['reason'])).toContain('said not done');
    expect(JSON.stringify(logs)).not.toContain(PAYLOAD_SECRET);
    expect(JSON.stringify(logs)).not.toContain(Buffer.from(PAYLOAD_SECRET).toString('base64'));

    expect(
      await metricValue(
        controller,
        'hookgate_reconcile_total',
        'plugin="ledger",outcome="NOT_PERSISTED",result="retry"',
      ),
    ).toBe(3);
    expect(
      await metricValue(
        controller,
        'hookgate_reconcile_total',
        'plugin="ledger",outcome="NOT_PERSISTED",result="dead-lettered"',
      ),
    ).toBe(1);
    // The failed-set gauge is read from Redis at scrape time, through /metrics.
    const scraped = await (await fetch(`${controller.health.url}/metrics`)).text();
    expect(scraped).toContain('hookgate_reconcile_failed_jobs{plugin="ledger"} 1');
  });

  it("the controller's own attempt limit below the job's: failed after the controller's limit", async () => {
    const { queue, producer } = await start({ attempts: 2 }, { attempts: 10 });
    const { jobId } = await producer.add(sideEffectJob('later', {}, true));
    const job = await jobIn(queue, jobId, 'failed');
    expect(calls).toHaveLength(2);
    expect(job.failedReason).toContain("the controller's limit");
  });

  it('a plugin answering not done with retry_after_ms: an attempt used, the next run after that delay', async () => {
    const { queue, producer } = await start({}, { attempts: 2 });
    const { jobId } = await producer.add(sideEffectJob('busy', {}, true));
    const job = await jobIn(queue, jobId, 'failed');
    expect(job.attemptsMade).toBe(2);
    expect(calls.map((c) => c.attempt)).toEqual([1, 2]);
    // The capped backoff alone would wait 10 to 20 ms (baseMs 20); the plugin asked for 400.
    expect(callTimes[1]! - callTimes[0]!).toBeGreaterThanOrEqual(380);
    expect(job.failedReason).toContain('retry after 400 ms');
  });

  it('a plugin that is down: the job is delayed again and again without using attempts', async () => {
    const down = `unix://${path.join(tmp.dir, 'nobody-listens.sock')}`;
    const { controller, queue, producer } = await start({}, { target: down });
    const { jobId } = await producer.add(sideEffectJob('claim', { dryRun: true }));
    await waitFor('three delays', async () => {
      const delays = await metricValue(
        controller,
        'hookgate_reconcile_total',
        'plugin="ledger",outcome="NOT_PERSISTED",result="delay"',
      );
      return delays !== undefined && delays >= 3 ? delays : undefined;
    });
    const job = (await queue.getJob(jobId))!;
    expect(job.attemptsMade).toBe(0);
    expect(['delayed', 'waiting', 'active']).toContain(await job.getState());
    expect(job.progress).toEqual({ stage: 'settled', outcome: 'NOT_PERSISTED', rule: 'dry-run' });
  });

  it('an undecodable job goes to the failed set at once, naming the field', async () => {
    const { controller, queue, logs } = await start();
    await queue.add(
      'side-effect',
      { ...sideEffectJob('claim'), admission: 'x' },
      { jobId: 'se1-undecodable', attempts: 5 },
    );
    const job = await jobIn(queue, 'se1-undecodable', 'failed');
    expect(job.failedReason).toContain('undecodable side-effect job (job field admission: must be a JSON object)');
    expect(calls).toHaveLength(0);
    // One run, no retry (5 attempts were allowed).
    expect(
      await metricValue(controller, 'hookgate_reconcile_total', 'plugin="ledger",outcome="none",result="fail"'),
    ).toBe(1);
    const warnings = logs.filter((l) => l['level'] === 'warn' && l['jobId'] === 'se1-undecodable');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ plugin: PLUGIN, attempts: 1 });
  });

  it('a stop with a job still running returns within shutdownTimeoutMs; the job runs again on the next controller', async () => {
    hang = new Promise<void>((resolve) => (releaseHang = resolve));
    hangAnswersDone = false;
    const shutdownTimeoutMs = 300;
    const settings = {
      shutdownTimeoutMs,
      lockDurationMs: 1_000,
      stalledIntervalMs: 200,
      readTimeoutMs: 200,
      reconcileTimeoutMs: 700,
    };
    const first = await start(settings);
    const { jobId } = await first.producer.add(sideEffectJob('hang', { dryRun: true }));
    await waitFor('the plugin to be called', async () => (calls.length > 0 ? true : undefined));

    const began = Date.now();
    const { forced } = await first.controller.close();
    const took = Date.now() - began;
    expect(forced).toBe(true);
    // It waited for the job (all but the last quarter, kept for handing it back), and no longer than the bound.
    expect(took).toBeGreaterThanOrEqual(shutdownTimeoutMs * 0.75 - 20);
    expect(took).toBeLessThan(shutdownTimeoutMs + 500);
    expect(await (await first.queue.getJob(jobId))!.getState()).not.toMatch(/completed|failed/);

    // The next controller (same queue) finds the abandoned job once its lock lapses, and finishes it.
    hangAnswersDone = true;
    releaseHang();
    const second = await start(settings, { prefix: first.prefix });
    const job = await jobIn(second.queue, jobId, 'completed');
    expect(job.returnvalue).toMatchObject({ outcome: 'NOT_PERSISTED', rule: 'dry-run' });
    // Handed back (the cancelled Reconcile delayed it, no attempt used), or abandoned (it stalled): one of the two.
    const handedBack = await metricValue(
      first.controller,
      'hookgate_reconcile_total',
      'plugin="ledger",outcome="NOT_PERSISTED",result="delay"',
    );
    const stalled = await metricValue(second.controller, 'hookgate_reconcile_stalled_total', 'plugin="ledger"');
    expect([handedBack ?? 0, stalled ?? 0]).toContainEqual(1);
    expect((handedBack ?? 0) + (stalled ?? 0)).toBe(1);
    if (handedBack === 1) expect(job.attemptsMade).toBe(1);
  }, 20_000);

  it('a stop with a job stuck in its read abandons it at shutdownTimeoutMs; the lock lapses and it runs again', async () => {
    // An apiserver that accepts connections and never answers: the read hangs until readTimeoutMs.
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const port = (silent.address() as { port: number }).port;
    const silentKubeconfig = path.join(tmp.dir, 'silent-kubeconfig');
    await writeFile(
      silentKubeconfig,
      `apiVersion: v1\nkind: Config\nclusters: [{ name: c, cluster: { server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true } }]\n` +
        'users: [{ name: u, user: {} }]\ncontexts: [{ name: x, context: { cluster: c, user: u } }]\ncurrent-context: x\n',
    );
    const shutdownTimeoutMs = 300;
    const settings = {
      kubernetes: { mode: 'kubeconfig', kubeconfig: silentKubeconfig },
      shutdownTimeoutMs,
      readTimeoutMs: 1_500,
      reconcileTimeoutMs: 200,
      lockDurationMs: 2_000,
      stalledIntervalMs: 200,
    };
    const first = await start(settings);
    const { jobId } = await first.producer.add(sideEffectJob('claim'));
    await waitFor('the read to start', async () => (sockets.size > 0 ? true : undefined));

    const began = Date.now();
    expect(await first.controller.close()).toEqual({ forced: true });
    expect(Date.now() - began).toBeLessThan(shutdownTimeoutMs + 500);
    expect(first.logs.some((l) => l['level'] === 'warn' && String(l['msg']).includes('abandoning'))).toBe(true);

    // The next controller finds it once the first one's lock lapses (2 s).
    const second = await start(settings, { prefix: first.prefix });
    await waitFor(
      'the abandoned job to stall',
      () => metricValue(second.controller, 'hookgate_reconcile_stalled_total', 'plugin="ledger"'),
      8_000,
    );
    expect(second.logs.some((l) => l['level'] === 'warn' && l['jobId'] === jobId)).toBe(true);
    expect(calls).toHaveLength(0);
  }, 20_000);

  it("reports the oldest waiting job's age at scrape time", async () => {
    hang = new Promise<void>((resolve) => (releaseHang = resolve));
    hangAnswersDone = false;
    const { controller, queue, producer } = await start({ concurrency: 1 });
    await producer.add(sideEffectJob('hang', { dryRun: true }));
    await waitFor('the plugin to be called', async () => (calls.length > 0 ? true : undefined));
    // The one slot is busy: this job waits.
    const { jobId } = await producer.add(sideEffectJob('claim', { dryRun: true }));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const scraped = await (await fetch(`${controller.health.url}/metrics`)).text();
    const age = Number(/hookgate_reconcile_oldest_waiting_seconds\{plugin="ledger"\} (\S+)/.exec(scraped)?.[1]);
    expect(age).toBeGreaterThanOrEqual(1);
    expect(age).toBeLessThan(10);
    releaseHang();
    await jobIn(queue, jobId, 'completed');
    const after = await (await fetch(`${controller.health.url}/metrics`)).text();
    expect(after).toContain('hookgate_reconcile_oldest_waiting_seconds{plugin="ledger"} 0');
  });

  it('a stop with nothing running is clean and quick; /readyz answers while running', async () => {
    const { controller } = await start();
    await waitFor('ready', async () => (controller.notReadyReason() === undefined ? true : undefined));
    expect((await fetch(`${controller.health.url}/readyz`)).status).toBe(200);
    const began = Date.now();
    expect(await controller.close()).toEqual({ forced: false });
    expect(Date.now() - began).toBeLessThan(2_000);
  });
});

describe('queues this controller does not serve', () => {
  it('reports the waiting jobs of a plugin it does not serve, and not its own queue', async () => {
    const { controller, queue, producer, prefix } = await start();
    // Its own queue has keys (a completed job): found in Redis, but served.
    const { jobId } = await producer.add(sideEffectJob('claim', { dryRun: true }));
    await jobIn(queue, jobId, 'completed');
    // A removed plugin's queue with a job waiting for a minute, and one holding only its resync's next run.
    const gone = new Queue(reconcileQueueName('gone'), { connection: { url: redis.url }, prefix });
    const idle = new Queue(reconcileQueueName('idle'), { connection: { url: redis.url }, prefix });
    cleanups.push(async () => {
      for (const q of [gone, idle]) {
        await q.obliterate({ force: true });
        await q.close();
      }
    });
    await gone.add('side-effect', { any: 1 }, { timestamp: Date.now() - 60_000 });
    await idle.add('resync', {}, { delay: 600_000, timestamp: Date.now() - 3_600_000 });

    const scraped = await (await fetch(`${controller.health.url}/metrics`)).text();
    const age = Number(/hookgate_reconcile_unserved_oldest_waiting_seconds\{plugin="gone"\} (\S+)/.exec(scraped)?.[1]);
    expect(age).toBeGreaterThanOrEqual(60);
    expect(age).toBeLessThan(120);
    expect(scraped).toContain('hookgate_reconcile_unserved_oldest_waiting_seconds{plugin="idle"} 0');
    expect(scraped).toContain('hookgate_reconcile_unserved_jobs{plugin="gone",state="waiting"} 1');
    expect(scraped).toContain('hookgate_reconcile_unserved_jobs{plugin="gone",state="delayed"} 0');
    expect(scraped).toContain('hookgate_reconcile_unserved_jobs{plugin="idle",state="delayed"} 1');
    expect(scraped).not.toMatch(/hookgate_reconcile_unserved_[a-z_]+\{plugin="ledger"/);
    // Its own queue keeps its usual gauges, and the removed plugins have none of those.
    expect(scraped).toContain('hookgate_reconcile_oldest_waiting_seconds{plugin="ledger"} 0');
    expect(scraped).not.toMatch(/hookgate_reconcile_oldest_waiting_seconds\{plugin="gone"/);
    // The next scrape (the queues found are kept for a while) reports them again.
    const later = await (await fetch(`${controller.health.url}/metrics`)).text();
    expect(later).toContain('hookgate_reconcile_unserved_jobs{plugin="gone",state="waiting"} 1');
  });
});

describe('periodic resync', () => {
  it('two controllers starting at once make one scheduler and one pending resync job', async () => {
    const prefix = `{hgtest-${randomUUID().slice(0, 8)}}`;
    const resync = { resync: { intervalMs: 60_000, jitterMs: 0, minAgeMs: 0 } };
    const [first] = await Promise.all([start(resync, { prefix }), start(resync, { prefix })]);
    // Runs first (cleanups run in reverse): before the queues close.
    cleanups.push(() => first.queue.obliterate({ force: true }));
    const schedulers = await first.queue.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: 'hookgate-resync', every: 60_000, name: 'resync' });
    const pending = await first.queue.getJobs(['waiting', 'prioritized', 'delayed', 'active']);
    expect(pending.filter((job) => job.name === 'resync')).toHaveLength(1);
    expect(pending[0]!.opts.priority).toBeGreaterThan(0);
  });

  it('a plugin without resync handlers answers UNIMPLEMENTED: the run is counted as such and jobs go on', async () => {
    const { controller, producer, queue } = await start({ resync: { intervalMs: 1_000, jitterMs: 0 } });
    await waitFor('a resync run', () =>
      metricValue(controller, 'hookgate_resync_runs_total', 'plugin="ledger",result="unimplemented"'),
    );
    const { jobId } = await producer.add(sideEffectJob('claim', { dryRun: true }));
    await jobIn(queue, jobId, 'completed');
    const runs = (await queue.getJobs(['completed'])).filter((job) => job.name === 'resync');
    expect(runs[0]?.returnvalue).toEqual({ result: 'unimplemented' });
  });
});

describe('queue dashboard', () => {
  it('answers read-only, with job data and return values redacted', async () => {
    const { controller, queue, producer } = await start({}, { attempts: 1 });
    const done = await producer.add(sideEffectJob('claim', { dryRun: true }));
    const failed = await producer.add(sideEffectJob('later', {}, true));
    await jobIn(queue, done.jobId, 'completed');
    await jobIn(queue, failed.jobId, 'failed');
    const base = controller.dashboardUrl!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/queues$/);

    const page = await fetch(base);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');

    const queueName = reconcileQueueName(PLUGIN);
    const listed = await fetch(`${base}/api/queues?activeQueue=${queueName}&status=latest&page=1`);
    expect(listed.status).toBe(200);
    const body = await listed.text();
    const jobs = (
      JSON.parse(body) as {
        queues: { name: string; readOnlyMode: boolean; jobs: { id: string; data: unknown; returnValue: unknown }[] }[];
      }
    ).queues.find((q) => q.name === queueName)!;
    expect(jobs.readOnlyMode).toBe(true);
    const completed = jobs.jobs.find((j) => j.id === done.jobId)!;
    expect(completed.data).toMatchObject({
      plugin: PLUGIN,
      hook: HOOK,
      effect: { kind: 'claim', key: 'shop/claim', payload: '[redacted]' },
      admission: { operation: 'CREATE', resource: 'deployments.apps', namespace: 'shop', name: 'web' },
    });
    expect(completed.returnValue).toEqual({ outcome: 'NOT_PERSISTED', rule: 'dry-run', message: '[redacted]' });
    expect(body).not.toContain(PAYLOAD_SECRET);
    expect(body).not.toContain(Buffer.from(PAYLOAD_SECRET).toString('base64'));
    expect(body).not.toContain('gw-test');

    // Server-side read-only: a retry through the dashboard's API is refused and changes nothing.
    const retry = await fetch(`${base}/api/queues/${queueName}/retry/failed`, { method: 'PUT' });
    expect(retry.status).toBe(405);
    const removal = await fetch(`${base}/api/queues/${queueName}/${failed.jobId}/clean`, { method: 'PUT' });
    expect(removal.status).toBe(405);
    expect(await queue.getJobState(failed.jobId)).toBe('failed');
  });
});

describe('registered plugins: the client identity', () => {
  it('refuses to start when registeredPlugins.clientTls names a file it cannot read, naming the field', async () => {
    const config = controllerConfig(`{hgtest-${randomUUID().slice(0, 8)}}`, server.target, {
      registeredPlugins: { clientTls: { certFile: '/nonexistent/client.crt', keyFile: '/nonexistent/client.key' } },
    });
    await expect(buildController(config, { registry: createMetricsRegistry() })).rejects.toThrow(
      /^registeredPlugins\.clientTls\.certFile: cannot read \/nonexistent\/client\.crt \(ENOENT\): give the client certificate and key/,
    );
  });
});
