import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROLLER_DEFAULTS, loadControllerConfig, readControllerConfig } from './config.js';

const DIR = '/etc/hookgate';
const minimal = { plugins: [{ name: 'ledger', target: 'unix:///run/hookgate/ledger.sock' }] };
const read = (document: unknown, env: Record<string, string> = {}) =>
  readControllerConfig(document, { configDir: DIR, env });

describe('readControllerConfig', () => {
  it('takes no plugins at all: it serves those registered at run time', () => {
    for (const document of [{}, { plugins: [] }]) {
      const result = read(document);
      expect(result.ok && [result.config.plugins, result.config.registeredPlugins]).toEqual([
        [],
        { enabled: true, pollMs: 2_000 },
      ]);
    }
  });

  it('fills every default from a minimal document', () => {
    const result = read(minimal);
    expect(result).toEqual({
      ok: true,
      config: {
        redis: { url: 'redis://127.0.0.1:6379', prefix: '{hookgate}' },
        plugins: [{ name: 'ledger', target: 'unix:///run/hookgate/ledger.sock' }],
        registeredPlugins: { enabled: true, pollMs: 2_000 },
        kubernetes: { mode: 'inCluster' },
        concurrency: CONTROLLER_DEFAULTS.concurrency,
        lockDurationMs: 60_000,
        stalledIntervalMs: 30_000,
        maxStalledCount: 2,
        graceMs: 10_000,
        confirmDelayMs: 90_000,
        unavailableDelayMs: 5_000,
        reconcileTimeoutMs: 10_000,
        readTimeoutMs: 10_000,
        attempts: 12,
        backoff: { baseMs: 1_000, capMs: 300_000 },
        shutdownTimeoutMs: 10_000,
        health: { host: '127.0.0.1', port: 9464 },
        // jitter a tenth of the interval; min age the grace period plus the confirm delay
        resync: { intervalMs: 600_000, jitterMs: 60_000, minAgeMs: 100_000, pageSize: 100 },
        dashboard: { enabled: true, host: '127.0.0.1', port: 9465 },
        logLevel: 'info',
      },
    });
  });

  it('reads resync and dashboard, and refuses an interval too short to be one', () => {
    const ok = read({ ...minimal, resync: { intervalMs: 0 }, dashboard: { enabled: false } });
    expect(ok).toMatchObject({
      ok: true,
      config: { resync: { intervalMs: 0, jitterMs: 0 }, dashboard: { enabled: false } },
    });
    const bad = read({ ...minimal, resync: { intervalMs: 50, pageSize: 0, every: 1 } });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.errors.join('\n')).toMatch(/resync\.intervalMs.*0 \(off\) or at least 1000/);
    expect(bad.ok ? [] : bad.errors.join('\n')).toMatch(/resync\.pageSize/);
    expect(bad.ok ? [] : bad.errors.join('\n')).toMatch(/resync\.every/);
  });

  it('reads every field, resolving files against the configuration directory', () => {
    const result = read({
      redis: { url: 'rediss://redis.example:6380', prefix: '{hg-a}' },
      plugins: [
        {
          name: 'ledger',
          target: 'ledger.example:7443',
          tls: { caFile: 'ca.pem', certFile: '/abs/cert.pem', keyFile: 'key.pem', serverName: 'ledger' },
        },
      ],
      registeredPlugins: { clientTls: { certFile: 'client.crt', keyFile: 'client.key' } },
      kubernetes: { mode: 'kubeconfig', kubeconfig: 'kube/config' },
      concurrency: 2,
      lockDurationMs: 30_000,
      stalledIntervalMs: 5_000,
      maxStalledCount: 1,
      graceMs: 0,
      confirmDelayMs: 1_000,
      unavailableDelayMs: 200,
      reconcileTimeoutMs: 5_000,
      readTimeoutMs: 2_000,
      attempts: 3,
      backoff: { baseMs: 10, capMs: 100 },
      shutdownTimeoutMs: 500,
      health: { host: '0.0.0.0', port: 0 },
      logLevel: 'debug',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.plugins[0]!.tls).toEqual({
      caFile: '/etc/hookgate/ca.pem',
      certFile: '/abs/cert.pem',
      keyFile: '/etc/hookgate/key.pem',
      serverName: 'ledger',
    });
    expect(result.config.registeredPlugins).toEqual({
      enabled: true,
      pollMs: 2_000,
      clientTls: { certFile: '/etc/hookgate/client.crt', keyFile: '/etc/hookgate/client.key' },
    });
    expect(result.config.kubernetes).toEqual({ mode: 'kubeconfig', kubeconfig: '/etc/hookgate/kube/config' });
    expect(result.config.backoff).toEqual({ baseMs: 10, capMs: 100 });
    expect(result.config.redis).toEqual({ url: 'rediss://redis.example:6380', prefix: '{hg-a}' });
  });

  it('REDIS_URL overrides redis.url', () => {
    const result = read({ ...minimal, redis: { url: 'redis://file:6379' } }, { REDIS_URL: 'redis://env:6390' });
    expect(result.ok && result.config.redis.url).toBe('redis://env:6390');
  });

  const bad: { name: string; document: unknown; env?: Record<string, string>; errors: string[] }[] = [
    {
      name: 'no plugins, registered plugins not followed',
      document: { registeredPlugins: { enabled: false } },
      errors: [
        'plugins: Required value: list the plugins whose queues this controller serves (registeredPlugins is disabled)',
      ],
    },
    {
      name: 'an empty plugin list, registered plugins not followed',
      document: { plugins: [], registeredPlugins: { enabled: false } },
      errors: [
        'plugins: Invalid value: []string{}: must be a non-empty list of { name, target, tls? } (registeredPlugins is disabled)',
      ],
    },
    {
      name: 'plugins not a list',
      document: { plugins: 'ledger' },
      errors: ['plugins: Invalid value: "ledger": must be a list of { name, target, tls? }'],
    },
    {
      name: 'a poll interval too short, an unknown registeredPlugins field',
      document: { registeredPlugins: { pollMs: 5, watch: true } },
      errors: ['registeredPlugins.pollMs: Invalid value: 5', 'registeredPlugins.watch: Unknown field'],
    },
    {
      name: 'a plugin without name or target, an unknown field',
      document: { plugins: [{ port: 1 }] },
      errors: [
        'plugins[0].name: Required value',
        'plugins[0].target: Required value',
        'plugins[0].port: Unknown field',
      ],
    },
    {
      name: 'a bad plugin name, a duplicate and a bad target',
      document: {
        plugins: [
          { name: 'Ledger', target: 'unix://relative.sock' },
          { name: 'a', target: 'a:1' },
          { name: 'a', target: 'a:2' },
        ],
      },
      errors: ['plugins[0].name', 'plugins[0].target', 'plugins[2].name: Duplicate value: "a"'],
    },
    {
      name: 'a client certificate without its key',
      document: { plugins: [{ name: 'a', target: 'a:1', tls: { certFile: 'c.pem' } }] },
      errors: ['plugins[0].tls.keyFile: Required value: certFile and keyFile go together'],
    },
    {
      name: 'a registered-plugin client key without its certificate',
      document: { registeredPlugins: { clientTls: { keyFile: 'k.pem' } } },
      errors: ['registeredPlugins.clientTls.certFile: Required value: certFile and keyFile go together'],
    },
    {
      name: 'a bad Redis URL and prefix',
      document: { ...minimal, redis: { url: 'http://x', prefix: 'a:b' } },
      errors: ['redis.url: Invalid value: "http://x"', 'redis.prefix: Invalid value: "a:b"'],
    },
    {
      name: 'a bad REDIS_URL',
      document: minimal,
      env: { REDIS_URL: 'localhost:6379' },
      errors: ['REDIS_URL (environment): Invalid value: "localhost:6379": must be a URL of one of the forms'],
    },
    {
      name: 'a Sentinel REDIS_URL without the master name, password hidden',
      document: minimal,
      env: { REDIS_URL: 'redis+sentinel://:secret@s1:26379,s2:26379' },
      errors: [
        'REDIS_URL (environment): Invalid value: "redis+sentinel://:***@s1:26379,s2:26379": must name the master after the hosts',
      ],
    },
    {
      name: 'a Cluster URL with a prefix without a hash tag',
      document: { ...minimal, redis: { url: 'redis+cluster://n1:6379,n2:6379', prefix: 'hookgate' } },
      errors: ['redis.prefix: Invalid value: "hookgate": has no {hash tag}, which Redis Cluster needs'],
    },
    {
      name: 'a kubeconfig path with mode inCluster, and an unknown mode',
      document: { ...minimal, kubernetes: { mode: 'inCluster', kubeconfig: 'x' } },
      errors: ['kubernetes.kubeconfig: Invalid value: "x": may only be set when mode is kubeconfig'],
    },
    {
      name: 'kubernetes mode none',
      document: { ...minimal, kubernetes: { mode: 'none' } },
      errors: ['kubernetes.mode: Unsupported value: "none"'],
    },
    {
      name: 'numbers out of range or of the wrong type',
      document: {
        ...minimal,
        concurrency: 0,
        stalledIntervalMs: 'soon',
        maxStalledCount: -1,
        graceMs: 1.5,
        confirmDelayMs: -1,
        unavailableDelayMs: 0,
        attempts: 0,
        shutdownTimeoutMs: 0,
        health: { port: 70000 },
      },
      errors: [
        'concurrency: Invalid value: 0',
        'stalledIntervalMs: Invalid value: "soon": must be an integer',
        'maxStalledCount: Invalid value: -1',
        'graceMs: Invalid value: 1.5: must be an integer',
        'confirmDelayMs: Invalid value: -1',
        'unavailableDelayMs: Invalid value: 0',
        'attempts: Invalid value: 0',
        'shutdownTimeoutMs: Invalid value: 0',
        'health.port: Invalid value: 70000',
      ],
    },
    {
      name: 'a lock shorter than one run',
      document: { ...minimal, lockDurationMs: 5_000, readTimeoutMs: 2_000, reconcileTimeoutMs: 3_000 },
      errors: ['lockDurationMs: Invalid value: 5000: must be longer than readTimeoutMs + reconcileTimeoutMs (5000)'],
    },
    {
      name: 'a backoff cap below its base',
      document: { ...minimal, backoff: { baseMs: 100, capMs: 10 } },
      errors: ['backoff.capMs: Invalid value: 10: must be at least backoff.baseMs (100)'],
    },
    {
      name: 'an unknown log level and an unknown top-level field',
      document: { ...minimal, logLevel: 'loud', concurrencey: 3 },
      errors: ['logLevel: Unsupported value: "loud"', 'concurrencey: Unknown field'],
    },
  ];

  it.each(bad)('refuses $name, naming each field', ({ document, env, errors }) => {
    const result = read(document, env);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    for (const want of errors)
      expect(
        result.errors.some((e) => e.startsWith(want)),
        `${want} in ${result.errors.join(' | ')}`,
      ).toBe(true);
    expect(result.errors).toHaveLength(errors.length);
  });
});

describe('loadControllerConfig', () => {
  it('names the file with each problem, and reports YAML errors', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hookgate-controller-config-'));
    try {
      const bad = path.join(dir, 'bad.yaml');
      await writeFile(bad, 'plugins:\n  - name: ledger\n');
      expect(await loadControllerConfig(bad, {})).toEqual({
        ok: false,
        errors: [`${bad}: plugins[0].target: Required value`],
      });
      const broken = path.join(dir, 'broken.yaml');
      await writeFile(broken, 'plugins: [\n');
      const result = await loadControllerConfig(broken, {});
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors[0]).toContain(broken);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
