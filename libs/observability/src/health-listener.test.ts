/** The health and metrics listener over real HTTP on an ephemeral port. */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addressesOf } from './listen-on-addresses.js';
import { startHealthListener, type HealthListener, type HealthListenerOptions } from './health-listener.js';

describe('startHealthListener', () => {
  const open: HealthListener[] = [];
  afterEach(async () => {
    for (const listener of open.splice(0)) await listener.close();
  });

  async function start(options: Omit<HealthListenerOptions, 'host' | 'port'>): Promise<HealthListener> {
    const listener = await startHealthListener({ host: '127.0.0.1', port: 0, ...options });
    open.push(listener);
    return listener;
  }

  async function get(listener: HealthListener, path: string, method = 'GET') {
    const res = await fetch(`${listener.url}${path}`, { method });
    return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') };
  }

  const cases = [
    { name: 'ready', reason: undefined, path: '/readyz', status: 200, body: 'ok' },
    {
      name: 'not ready yet',
      reason: 'admission listener not accepting yet',
      path: '/readyz',
      status: 503,
      body: 'not ready: admission listener not accepting yet',
    },
    { name: 'alive while not ready', reason: 'shutting down', path: '/livez', status: 200, body: 'ok' },
    { name: 'metrics', reason: undefined, path: '/metrics', status: 200, body: 'hookgate_test_total 1\n' },
  ];
  it.each(cases)('$name: GET $path → $status', async ({ reason, path, status, body }) => {
    const listener = await start({
      metrics: { contentType: 'text/plain; version=0.0.4', collect: async () => 'hookgate_test_total 1\n' },
      notReadyReason: () => reason,
    });
    const res = await get(listener, path);
    expect({ status: res.status, body: res.body }).toEqual({ status, body });
  });

  it('answers /livez 503 with the reason the process is not alive, and shows details on /readyz either way', async () => {
    const reasons: { notLive?: string; notReady?: string } = {};
    const listener = await start({
      metrics: { contentType: 'text/plain', collect: async () => '' },
      notReadyReason: () => reasons.notReady,
      notLiveReason: () => reasons.notLive,
      readyDetails: () => ['break glass is ON: every hook fails open'],
    });
    expect(await get(listener, '/livez')).toMatchObject({ status: 200, body: 'ok' });
    expect(await get(listener, '/readyz')).toMatchObject({
      status: 200,
      body: 'ok\nbreak glass is ON: every hook fails open',
    });
    reasons.notLive = 'no gateway worker is listening for admission requests';
    reasons.notReady = 'admission listener not accepting yet';
    expect(await get(listener, '/livez')).toMatchObject({
      status: 503,
      body: 'not alive: no gateway worker is listening for admission requests',
    });
    expect(await get(listener, '/readyz')).toMatchObject({
      status: 503,
      body: 'not ready: admission listener not accepting yet\nbreak glass is ON: every hook fails open',
    });
  });

  it('answers 500 when the workers do not answer for metrics', async () => {
    const listener = await start({
      metrics: { contentType: 'text/plain', collect: () => Promise.reject(new Error('worker 2 did not answer')) },
      notReadyReason: () => undefined,
    });
    const res = await get(listener, '/metrics');
    expect({ status: res.status, body: res.body }).toEqual({
      status: 500,
      body: 'metrics unavailable: worker 2 did not answer',
    });
  });

  it("serves the metrics source's content type, ignores the query, and is ready without a readiness check", async () => {
    const listener = await start({
      metrics: { contentType: 'text/plain; version=0.0.4; charset=utf-8', collect: async () => 'x 1\n' },
    });
    expect(await get(listener, '/metrics?debug=1')).toEqual({
      status: 200,
      body: 'x 1\n',
      contentType: 'text/plain; version=0.0.4; charset=utf-8',
    });
    expect((await get(listener, '/readyz')).status).toBe(200);
    expect(await get(listener, '/metrics', 'HEAD')).toMatchObject({ status: 200, body: '' });
  });

  it('answers 404 naming what it serves for any other path or method', async () => {
    const listener = await start({ metrics: { contentType: 'text/plain', collect: async () => '' } });
    for (const [path, method] of [
      ['/', 'GET'],
      ['/metrics', 'POST'],
    ] as const) {
      expect(await get(listener, path, method)).toMatchObject({
        status: 404,
        body: `not found: ${method} ${path}; this listener serves GET /metrics, /livez, /readyz\n`,
      });
    }
  });

  it('stops accepting once closed', async () => {
    const listener = await startHealthListener({
      host: '127.0.0.1',
      port: 0,
      metrics: { contentType: 'text/plain', collect: async () => '' },
    });
    expect((await get(listener, '/livez')).status).toBe(200);
    await listener.close();
    await expect(fetch(`${listener.url}/livez`)).rejects.toThrow();
  });
  it('listens on every address the host name resolves to', async () => {
    const listener = await startHealthListener({
      host: 'localhost',
      port: 0,
      metrics: { contentType: 'text/plain', collect: async () => '' },
    });
    open.push(listener);
    const expected = (await addressesOf('localhost')).map((a) => `${a.includes(':') ? `[${a}]` : a}:${listener.port}`);
    expect(listener.addresses).toEqual(expected);
    for (const address of listener.addresses) expect((await fetch(`http://${address}/livez`)).status).toBe(200);
  });

  it('rejects naming host, port and error code when the port is taken', async () => {
    const taken = await start({ metrics: { contentType: 'text/plain', collect: async () => '' } });
    await expect(
      startHealthListener({
        host: '127.0.0.1',
        port: taken.port,
        metrics: { contentType: 'text/plain', collect: async () => '' },
      }),
    ).rejects.toMatchObject({
      code: 'EADDRINUSE',
      message: `cannot listen on 127.0.0.1 port ${taken.port}: EADDRINUSE`,
    });
  });

  it('answers 500 when the readiness check throws, and keeps serving', async () => {
    const listener = await start({
      metrics: { contentType: 'text/plain', collect: async () => '' },
      notReadyReason: () => {
        throw new Error('registry state unreadable');
      },
    });
    expect(await get(listener, '/readyz')).toMatchObject({
      status: 500,
      body: 'internal error: registry state unreadable\n',
    });
    expect((await get(listener, '/livez')).status).toBe(200);
  });

  it('closes within a bounded time despite a client that never finishes its headers and a stuck scrape', async () => {
    const listener = await startHealthListener({
      host: '127.0.0.1',
      port: 0,
      metrics: { contentType: 'text/plain', collect: () => new Promise<string>(() => undefined) },
    });
    const slow = net.connect(listener.port, '127.0.0.1');
    await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
    slow.write('GET /livez HTTP/1.1\r\nHost: x\r\n');
    const slowClosed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
    slow.on('error', () => undefined);
    const scrape = fetch(`${listener.url}/metrics`).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 100)); // both requests reach the server
    const started = performance.now();
    await listener.close();
    expect(performance.now() - started).toBeLessThan(3_000);
    await slowClosed;
    expect(await scrape).toBeInstanceOf(Error);
  });
});
