/** A plugin over TCP with TLS: the SDK serves the certificate, the gateway client checks it against the CA. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, servePlugin, type PluginServer } from '@hookgate/plugin-sdk';
import { tempDir } from '@hookgate/plugin-sdk/testing';
import { ensureSelfManagedCertificates } from '../tls/index.js';
import { createPluginClient, type PluginClientOptions } from '@hookgate/plugin-client';
import { pluginInvoker } from './plugin-invoker.js';
import { callFor, hookFor } from './test/fixtures.js';

const never = new AbortController().signal;

describe('plugin over TLS', () => {
  let server: PluginServer;
  let ca = '';
  let otherCa = '';
  let cleanup = async (): Promise<void> => {};

  beforeAll(async () => {
    const tmp = await tempDir();
    cleanup = tmp.cleanup;
    const material = await ensureSelfManagedCertificates({ stateDir: `${tmp.dir}/a` });
    ca = material.ca;
    otherCa = (await ensureSelfManagedCertificates({ stateDir: `${tmp.dir}/b` })).ca;
    server = await servePlugin(
      definePlugin({ name: 'secure', hooks: { allow: { phase: 'validating', validate: () => ({ allowed: true }) } } }),
      {
        listen: '127.0.0.1:0',
        tls: { key: material.key, cert: material.cert },
        logger: false,
      },
    );
  }, 30_000);
  afterAll(async () => {
    await server.shutdown(100);
    await cleanup();
  });

  const cases: { name: string; options: () => PluginClientOptions; ok: boolean }[] = [
    {
      name: 'a client trusting the CA gets answers (name checked: localhost)',
      options: () => ({ tls: { ca, serverName: 'localhost' } }),
      ok: true,
    },
    {
      name: 'a client trusting another CA fails as a transport failure',
      options: () => ({ tls: { ca: otherCa, serverName: 'localhost' } }),
      ok: false,
    },
    { name: 'a plaintext client fails as a transport failure', options: () => ({}), ok: false },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const client = createPluginClient('secure', server.target, {
        ...c.options(),
        circuitBreaker: false,
        probeTimeoutMs: 1000,
      });
      try {
        const reply = await pluginInvoker(new Map([['secure', client]]))(
          callFor(hookFor('allow', 'validating', 'secure'), { deadline: Date.now() + 2000 }),
          never,
        );
        if (c.ok) expect(reply).toEqual({ ok: true, answer: { allowed: true } });
        else
          expect(reply).toMatchObject({
            ok: false,
            failure: { kind: expect.stringMatching(/^(transport|timeout)$/), code: 503 },
          });
      } finally {
        client.close();
      }
    });
  }
});
