/**
 * The producer against a real Redis (devtools' ensureRedis: REDIS_URL, 127.0.0.1:6379, or one of its own): each test uses a prefix of its own and
 * obliterates its queues afterwards. Unreachable Redis is an unused port or a silent TCP server.
 */
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { ensureRedis, startRedisServer, type RedisHandle } from '@hookgate/devtools';
import { isHookgateError } from '@hookgate/errors';
import { BACKOFF_TYPE } from './backoff.js';
import { buildSideEffectJob } from './build-job.js';
import { decodeJob } from './decode-job.js';
import { jobIdOf } from './job-id.js';
import type { SideEffectJob } from './job-schema.js';
import { SideEffectProducer, type StoredSideEffectJob } from './producer.js';
import type { SideEffectProducerOptions } from './producer-options.js';
import { reconcileQueueName } from './queue-names.js';

let redis: RedisHandle;
let redisUrl: string;
beforeAll(async () => {
  redis = await ensureRedis();
  redisUrl = redis.url;
});
afterAll(() => redis.stop());

/** Everything a test opened, closed and removed afterwards. */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  // All of them run; the first failure (a key left behind) is reported afterwards.
  const results = [];
  for (const cleanup of cleanups.splice(0).reverse())
    results.push(
      await cleanup().then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
  const failure = results.find((r) => r !== undefined);
  if (failure !== undefined) throw failure;
});

function uniquePrefix(): string {
  return `{hgtest-${randomUUID()}}`;
}

function startProducer(options: Partial<SideEffectProducerOptions> & { prefix: string }): SideEffectProducer {
  const producer = new SideEffectProducer({ redisUrl, ...options });
  cleanups.push(() => producer.close());
  return producer;
}

/** Obliterates the plugin's queue under this prefix when the test ends, and checks nothing is left. */
function obliterateAfterwards(prefix: string, plugin: string): void {
  cleanups.push(async () => {
    const name = reconcileQueueName(plugin);
    const queue = new Queue(name, { connection: { url: redisUrl }, prefix });
    await queue.obliterate({ force: true });
    await queue.close();
    const client = new Redis(redisUrl);
    const left = await client.keys(`${prefix}:${name}:*`);
    await client.quit();
    expect(left).toEqual([]);
  });
}

async function readyProducer(prefix: string, options: Partial<SideEffectProducerOptions> = {}) {
  const producer = startProducer({ prefix, ...options });
  await until(() => producer.connectionStatus === 'ready', 'the producer to connect');
  return producer;
}

function makeJob(
  overrides: { plugin?: string; uid?: string; hook?: string; kind?: string; key?: string } = {},
): SideEffectJob {
  return buildSideEffectJob({
    plugin: overrides.plugin ?? 'ledger',
    effect: {
      hook: overrides.hook ?? 'claims.ledger.hookgate.dev',
      kind: overrides.kind ?? 'ledger-claim',
      key: overrides.key ?? 'default/web',
      payload: new Uint8Array([1, 2, 3]),
    },
    admission: {
      uid: overrides.uid ?? randomUUID(),
      operation: 'CREATE',
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: '',
      namespace: 'default',
      name: 'web',
      generateName: '',
      objectUid: randomUUID(),
      dryRun: false,
      phase: 'validating',
    },
    decision: { allowed: true },
    gateway: 'gw-test',
    time: Date.now(),
  });
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isHookgateError(error, code as `HG_ERR_${string}`), `expected ${code}, got ${String(error)}`).toBe(true);
  return error as Error;
}

/** A port nothing listens on: bound once by the OS, then released. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** A TCP server on `port` (0 for any) that runs `onSocket` for each connection; closed after the test. */
async function tcpServer(port: number, onSocket: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onSocket(socket);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((r) => server.close(r));
  });
  return { server, port: (server.address() as { port: number }).port };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A TCP relay to the test Redis on `port` (0 for any); freeze() stops forwarding, connections stay open. */
async function relayToTestRedis(port: number): Promise<{ port: number; freeze(): void }> {
  const target = new URL(redisUrl);
  let frozen = false;
  const relay = await tcpServer(port, (socket) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    socket.on('data', (chunk) => frozen || upstream.write(chunk));
    upstream.on('data', (chunk) => frozen || socket.write(chunk));
  });
  return { port: relay.port, freeze: () => (frozen = true) };
}

describe('SideEffectProducer: added or duplicate', () => {
  it('adds a job under its deterministic id, with the job options; the same job again is a duplicate', async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    const producer = await readyProducer(prefix, { attempts: 7, keepCompleted: { ageSeconds: 600, count: 50 } });
    const job = makeJob();

    const first = await producer.add(job);
    expect(first).toEqual({ jobId: jobIdOf(job), queue: 'hookgate-reconcile-ledger', outcome: 'added' });
    expect(await producer.add(job)).toEqual({ ...first, outcome: 'duplicate' });
    // A replay of the same effect built later (another time, another gateway) is the same job.
    expect(await producer.add({ ...job, time: job.time + 5_000, gateway: 'gw-other' })).toEqual({
      ...first,
      outcome: 'duplicate',
    });

    const queue = new Queue<StoredSideEffectJob>('hookgate-reconcile-ledger', {
      connection: { url: redisUrl },
      prefix,
    });
    cleanups.push(() => queue.close());
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    const stored = await queue.getJob(first.jobId);
    expect(stored?.name).toBe('side-effect');
    expect(decodeJob(stored?.data)).toEqual({ ok: true, value: job });
    expect(stored?.opts).toMatchObject({
      attempts: 7,
      backoff: { type: BACKOFF_TYPE },
      removeOnComplete: { age: 600, count: 50 },
      removeOnFail: false,
    });
  });

  it('another request uid, hook, effect kind or key is another job', async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    const producer = await readyProducer(prefix);
    const uid = randomUUID();
    const jobs = [
      makeJob({ uid }),
      makeJob({ uid: randomUUID() }),
      makeJob({ uid, hook: 'other.ledger.hookgate.dev' }),
      makeJob({ uid, kind: 'ledger-release' }),
      makeJob({ uid, key: 'default/api' }),
    ];
    const results = await Promise.all(jobs.map((job) => producer.add(job)));
    expect(results.map((r) => r.outcome)).toEqual(['added', 'added', 'added', 'added', 'added']);
    expect(new Set(results.map((r) => r.jobId)).size).toBe(5);
  });

  it('one queue per plugin', async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    obliterateAfterwards(prefix, 'dns');
    const producer = await readyProducer(prefix);
    const uid = randomUUID();
    const [a, b] = await Promise.all([producer.add(makeJob({ uid })), producer.add(makeJob({ uid, plugin: 'dns' }))]);
    expect([a.queue, a.outcome, b.queue, b.outcome]).toEqual([
      'hookgate-reconcile-ledger',
      'added',
      'hookgate-reconcile-dns',
      'added',
    ]);
  });

  it('two producers adding the same jobs at once: each job is added exactly once', async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    const [one, two] = await Promise.all([readyProducer(prefix), readyProducer(prefix)]);
    const jobs = Array.from({ length: 20 }, () => makeJob());
    const results = await Promise.all(jobs.flatMap((job) => [one.add(job), two.add(job), one.add(job)]));
    for (const job of jobs) {
      const outcomes = results.filter((r) => r.jobId === jobIdOf(job)).map((r) => r.outcome);
      expect(outcomes.sort()).toEqual(['added', 'duplicate', 'duplicate']);
    }
  });

  it('a completed job keeps deduplicating while it is kept; one removed by the retention frees its id', async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    // Keep one completed job: the second completion removes the first.
    const producer = await readyProducer(prefix, { keepCompleted: { ageSeconds: 3_600, count: 1 } });
    const worker = new Worker('hookgate-reconcile-ledger', async () => 'reconciled', {
      connection: { url: redisUrl, maxRetriesPerRequest: null },
      prefix,
    });
    cleanups.push(() => worker.close());
    const completed: string[] = [];
    worker.on('completed', (job) => completed.push(job.id!));
    const queue = new Queue('hookgate-reconcile-ledger', { connection: { url: redisUrl }, prefix });
    cleanups.push(() => queue.close());

    const first = makeJob();
    expect((await producer.add(first)).outcome).toBe('added');
    await until(() => completed.length === 1, 'the first job to complete');
    expect(await queue.getJobState(jobIdOf(first))).toBe('completed');
    expect((await producer.add(first)).outcome).toBe('duplicate');

    expect((await producer.add(makeJob())).outcome).toBe('added');
    await until(() => completed.length === 2, 'the second job to complete');
    // BullMQ trims the completed set when a job completes: the first job is gone, its id free again.
    expect(await queue.getJob(jobIdOf(first))).toBeUndefined();
    expect((await producer.add(first)).outcome).toBe('added');
  });
});

describe('SideEffectProducer: adds sent together (group commit)', () => {
  it('sends the adds of one tick in one write and tells each added from duplicate, a repeat within the batch too', async () => {
    // A redis-server of its own: its read events are this producer's and the admin's alone.
    const own = await startRedisServer();
    cleanups.push(() => own.stop());
    const prefix = uniquePrefix();
    const producer = startProducer({ prefix, redisUrl: own.url });
    await until(() => producer.connectionStatus === 'ready', 'the producer to connect');
    const before = makeJob({ key: 'before' });
    expect((await producer.add(before)).outcome).toBe('added');
    // Each queue's first use reads Redis's version: done here, before counting.
    expect((await producer.add(makeJob({ plugin: 'dns', key: 'before' }))).outcome).toBe('added');
    const admin = new Redis(own.url);
    cleanups.push(async () => void (await admin.quit()));
    const readsBefore = await readEvents(admin);

    const fresh = makeJob({ key: 'fresh' });
    const batch = [before, fresh, fresh, makeJob({ key: 'other' }), makeJob({ plugin: 'dns' })];
    const results = await Promise.all(batch.map((job) => producer.add(job)));

    expect(results.map((r) => r.outcome)).toEqual(['duplicate', 'added', 'duplicate', 'added', 'added']);
    expect(results.map((r) => r.jobId)).toEqual(batch.map((job) => jobIdOf(job)));
    expect(results[4]!.queue).toBe('hookgate-reconcile-dns');
    // One read event for the whole batch (10 commands), one for each INFO of the admin.
    expect((await readEvents(admin)) - readsBefore).toBe(2);
    const ledger = new Queue('hookgate-reconcile-ledger', { connection: { url: own.url }, prefix });
    cleanups.push(() => ledger.close());
    expect(await ledger.getJobCounts('waiting')).toEqual({ waiting: 3 });
  });

  it('a job Redis refuses within a batch rejects alone; the others of the batch are stored', async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    obliterateAfterwards(prefix, 'broken');
    const producer = await readyProducer(prefix);
    const admin = new Redis(redisUrl);
    cleanups.push(async () => void (await admin.quit()));
    // BullMQ's add script INCRs the queue's id counter: a value that is no integer makes Redis refuse it.
    await admin.set(`${prefix}:hookgate-reconcile-broken:id`, 'not-a-number');

    const good = [makeJob({ key: 'one' }), makeJob({ key: 'two' })];
    const [first, refused, second] = await Promise.allSettled([
      producer.add(good[0]!),
      producer.add(makeJob({ plugin: 'broken' })),
      producer.add(good[1]!),
    ]);

    expect(first).toMatchObject({ status: 'fulfilled', value: { outcome: 'added' } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { outcome: 'added' } });
    expect(refused.status).toBe('rejected');
    const error = (refused as PromiseRejectedResult).reason as Error;
    expect(isHookgateError(error, 'HG_ERR_QUEUE_ADD_FAILED'), String(error)).toBe(true);
    expect(error.message).toMatch(/not an integer/);
    for (const job of good) {
      expect(await admin.exists(`${prefix}:hookgate-reconcile-ledger:${jobIdOf(job)}`)).toBe(1);
    }
  });
});

describe('SideEffectProducer: Redis unreachable or failing', () => {
  it('rejects at once with HG_ERR_QUEUE_UNAVAILABLE when nothing listens, while connecting and after', async () => {
    const port = await unusedPort();
    const producer = startProducer({ redisUrl: `redis://127.0.0.1:${port}`, prefix: uniquePrefix() });
    const job = makeJob();
    for (const wait of [0, 300]) {
      await new Promise((r) => setTimeout(r, wait));
      const started = performance.now();
      const error = await expectCode(producer.add(job), 'HG_ERR_QUEUE_UNAVAILABLE');
      expect(performance.now() - started).toBeLessThan(50);
      expect(error.message).toContain(jobIdOf(job));
      expect(error.message).toContain(`plugin ledger not added: Redis at redis://127.0.0.1:${port} is not connected`);
    }
    expect(producer.connectionStatus).not.toBe('ready');
  });

  it('rejects at once when the server accepts connections and never answers', async () => {
    const { port } = await tcpServer(0, () => {});
    const producer = startProducer({ redisUrl: `redis://127.0.0.1:${port}`, prefix: uniquePrefix() });
    await new Promise((r) => setTimeout(r, 200));
    const started = performance.now();
    await expectCode(producer.add(makeJob()), 'HG_ERR_QUEUE_UNAVAILABLE');
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('recovers on its own when Redis becomes reachable', { timeout: 15_000 }, async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    const port = await unusedPort();
    const errors: Error[] = [];
    const producer = startProducer({
      redisUrl: `redis://127.0.0.1:${port}`,
      prefix,
      onConnectionError: (e) => errors.push(e),
    });
    const job = makeJob();
    await expectCode(producer.add(job), 'HG_ERR_QUEUE_UNAVAILABLE');
    await until(() => errors.length > 0, 'a connection error');
    expect(errors[0]!.message).toMatch(/ECONNREFUSED/);
    // Redis "comes back" on that port: a relay to the test Redis.
    await relayToTestRedis(port);
    await until(() => producer.connectionStatus === 'ready', 'the producer to reconnect', 10_000);
    expect((await producer.add(job)).outcome).toBe('added');
  });

  it('rejects within addTimeoutMs when Redis stops answering mid-connection', async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    const relay = await relayToTestRedis(0);
    const producer = startProducer({ redisUrl: `redis://127.0.0.1:${relay.port}`, prefix, addTimeoutMs: 300 });
    await until(() => producer.connectionStatus === 'ready', 'the producer to connect');
    expect((await producer.add(makeJob())).outcome).toBe('added');
    relay.freeze(); // the connection stays open, nothing gets through: a partition, or a Redis stuck
    const started = performance.now();
    const error = await expectCode(producer.add(makeJob()), 'HG_ERR_QUEUE_UNAVAILABLE');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
    expect(error.message).toMatch(/is not answering within 300 ms$/);
  });

  it('rejects with HG_ERR_QUEUE_ADD_FAILED when Redis answers an error, without the password', async () => {
    const prefix = uniquePrefix();
    obliterateAfterwards(prefix, 'ledger');
    const admin = new Redis(redisUrl);
    const user = `hgtest-${randomUUID()}`;
    // A real Redis error answer: this user may not run scripts (BullMQ adds with EVALSHA).
    await admin.call('ACL', 'SETUSER', user, 'on', '>secret-pw', '~*', '&*', '+@all', '-evalsha', '-eval');
    cleanups.push(async () => {
      await admin.call('ACL', 'DELUSER', user);
      await admin.quit();
    });
    const url = new URL(redisUrl);
    url.username = user;
    url.password = 'secret-pw';
    const producer = await readyProducer(prefix, { redisUrl: url.toString() });
    const error = await expectCode(producer.add(makeJob()), 'HG_ERR_QUEUE_ADD_FAILED');
    expect(error.message).toMatch(/answered NOPERM/);
    expect(error.message).toContain(`${user}:***@`);
    expect(error.message).not.toContain('secret-pw');
  });

  it('rejects adds after close', async () => {
    const producer = await readyProducer(uniquePrefix());
    await producer.close();
    expect(producer.connectionStatus).toBe('end');
    await expectCode(producer.add(makeJob()), 'HG_ERR_QUEUE_UNAVAILABLE');
    await expectCode(producer.redisRunId(), 'HG_ERR_QUEUE_UNAVAILABLE');
  });
});

describe('SideEffectProducer: options and identity', () => {
  it.each([
    {
      name: 'a plugin name that cannot be a queue name',
      run: (p: SideEffectProducer) => p.add(makeJob({ plugin: 'Bad_Name' })),
    },
  ])('refuses $name with HG_ERR_QUEUE_OPTION_INVALID', async ({ run }) => {
    const producer = await readyProducer(uniquePrefix());
    await expectCode(run(producer), 'HG_ERR_QUEUE_OPTION_INVALID');
  });

  it('validates its options when constructed', () => {
    let caught: unknown;
    try {
      new SideEffectProducer({ redisUrl, attempts: 0 });
    } catch (error) {
      caught = error;
    }
    expect(isHookgateError(caught, 'HG_ERR_QUEUE_OPTION_INVALID'), String(caught)).toBe(true);
  });

  it("reads Redis's run_id over its connection", async () => {
    const producer = await readyProducer(uniquePrefix());
    const runId = await producer.redisRunId();
    expect(runId).toMatch(/^[0-9a-f]{40}$/);
    const client = new Redis(redisUrl);
    const info = await client.info('server');
    await client.quit();
    expect(info).toContain(`run_id:${runId}`);
  });

  it('the run_id probe rejects when Redis is unreachable', async () => {
    const producer = startProducer({ redisUrl: `redis://127.0.0.1:${await unusedPort()}`, prefix: uniquePrefix() });
    const error = await expectCode(producer.redisRunId(), 'HG_ERR_QUEUE_UNAVAILABLE');
    expect(error.message).toMatch(/^cannot read Redis's run_id: Redis at redis:\/\/127\.0\.0\.1:\d+ is not connected/);
  });
});

/** How many times Redis has read from its clients' sockets so far. */
async function readEvents(admin: Redis): Promise<number> {
  const stats = await admin.info('stats');
  return Number(/total_reads_processed:(\d+)/.exec(stats)?.[1] ?? 0);
}
