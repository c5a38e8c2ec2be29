import { describe, expect, it } from 'vitest';
import { buildHealthServer } from './health-server.js';

describe('buildHealthServer', () => {
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
    const app = buildHealthServer({
      metrics: { contentType: 'text/plain; version=0.0.4', collect: async () => 'hookgate_test_total 1\n' },
      notReadyReason: () => reason,
    });
    const res = await app.inject({ method: 'GET', url: path });
    expect({ status: res.statusCode, body: res.body }).toEqual({ status, body });
    await app.close();
  });

  it('answers 500 when the workers do not answer for metrics', async () => {
    const app = buildHealthServer({
      metrics: { contentType: 'text/plain', collect: () => Promise.reject(new Error('worker 2 did not answer')) },
      notReadyReason: () => undefined,
    });
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect({ status: res.statusCode, body: res.body }).toEqual({
      status: 500,
      body: 'metrics unavailable: worker 2 did not answer',
    });
    await app.close();
  });
});
