import { describe, expect, it } from 'vitest';
import type { LoadedConfiguration } from '@hookgate/config';
import { applyServeOptions } from './effective-configuration.js';

const loaded = {
  gateway: {
    admission: { host: '127.0.0.1', port: 8443, tls: { disabled: false, clientCAFile: '/ca.pem' } },
    metrics: { host: '127.0.0.1', port: 9443 },
    stateDir: '/var/lib/hookgate',
    registry: { disabled: false, socket: '/var/lib/hookgate/registry.sock' },
    logLevel: 'info',
    workers: 2,
  },
  webhookConfigurations: [],
  sources: [],
  digest: 'd',
} as unknown as LoadedConfiguration;

describe('applyServeOptions', () => {
  const cases = [
    {
      name: 'no flags: the file wins',
      options: {},
      expected: {
        admission: { host: '127.0.0.1', port: 8443, tls: { disabled: false } },
        metrics: { port: 9443 },
        workers: 2,
      },
    },
    {
      name: 'listener flags override',
      options: { host: '::1', port: 0, metricsPort: 0 },
      expected: { admission: { host: '::1', port: 0 }, metrics: { port: 0 } },
    },
    {
      name: '--insecure-http turns TLS off',
      options: { insecureHttp: true },
      expected: { admission: { tls: { disabled: true, clientCAFile: '/ca.pem' } } },
    },
    {
      name: 'state dir, log level and workers',
      options: { stateDir: '/tmp/s', logLevel: 'debug' as const, workers: 1 },
      expected: { stateDir: '/tmp/s', logLevel: 'debug', workers: 1 },
    },
    {
      name: '--state-dir moves the default registry socket with it',
      options: { stateDir: '/tmp/s' },
      expected: { registry: { disabled: false, socket: '/tmp/s/registry.sock' } },
    },
  ];
  it.each(cases)('$name', ({ options, expected }) => {
    expect(applyServeOptions(loaded, { configPath: '/etc/hookgate', ...options }).gateway).toMatchObject(expected);
  });

  it('--state-dir leaves a registry socket the file placed elsewhere', () => {
    const elsewhere = {
      ...loaded,
      gateway: {
        ...loaded.gateway,
        registry: { disabled: false, socket: '/run/hookgate/registry.sock' },
      },
    } as LoadedConfiguration;
    expect(applyServeOptions(elsewhere, { configPath: '/etc/hookgate', stateDir: '/tmp/s' }).gateway).toMatchObject({
      stateDir: '/tmp/s',
      registry: { socket: '/run/hookgate/registry.sock' },
    });
  });

  it('--state-dir moves the default spool with it, and leaves one the file placed elsewhere', () => {
    const queued = (dir: string) =>
      ({
        ...loaded,
        gateway: {
          ...loaded.gateway,
          redis: { url: 'redis://127.0.0.1:6379' },
          spool: { dir, maxBytes: 4096, replayWindowMinutes: 10 },
        },
      }) as unknown as LoadedConfiguration;
    const options = { configPath: '/etc/hookgate', stateDir: '/tmp/s' };
    expect(applyServeOptions(queued('/var/lib/hookgate/spool'), options).gateway.spool).toEqual({
      dir: '/tmp/s/spool',
      maxBytes: 4096,
      replayWindowMinutes: 10,
    });
    expect(applyServeOptions(queued('/srv/spool'), options).gateway.spool?.dir).toBe('/srv/spool');
    expect(applyServeOptions(loaded, options).gateway.spool).toBeUndefined();
  });
});
