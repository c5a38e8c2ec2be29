/**
 * The admission listener's TLS and apiserver authentication, as the apiserver meets them: https with
 * the self-managed CA by default, client certificates from a client CA and a bearer token (either
 * one is enough), and operator-provided certificates reloaded on change without a restart.
 */
import { connect } from 'node:tls';
import { writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml } from '../src/gateway-config.js';
import { readGatewayCa, startGateway, type GatewayProcess } from '@hookgate/devtools';
import { podCreateReview } from '../src/pod-review.js';
import { createTestCa, type TestCa, type TestCertificate } from '../src/test-certificates.js';

const TOKEN = 'apiserver-token-0123456789';

describe('self-managed TLS with client-certificate and bearer-token authentication', () => {
  let gateway: GatewayProcess;
  let clientCa: TestCa;
  let goodClient: TestCertificate;
  let strangerClient: TestCertificate;
  let gatewayCa = '';
  const clients: AdmissionClient[] = [];
  const clientWith = (options: ConstructorParameters<typeof AdmissionClient>[1]) => {
    const client = new AdmissionClient(gateway.admissionUrl, options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    clientCa = await createTestCa('apiserver-client-ca');
    goodClient = await clientCa.issue({ commonName: 'kube-apiserver', client: true });
    strangerClient = await (await createTestCa('stranger-ca')).issue({ commonName: 'stranger', client: true });
    gateway = await startGateway({
      insecureHttp: false,
      config: gatewayConfigYaml([], {
        extra: { admission: { tls: { clientCAFile: 'client-ca.pem' }, bearerTokenFile: 'token' } },
      }),
      files: { 'client-ca.pem': clientCa.certPem, token: `${TOKEN}\n` },
    });
    gatewayCa = await readGatewayCa(gateway);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await gateway?.stop();
  });

  it('serves https with a certificate for 127.0.0.1 signed by the managed CA', async () => {
    expect(gateway.admissionUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { status } = await clientWith({ ca: gatewayCa }).post('/validate', podCreateReview(), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(status).toBe(200);
  });

  it('is refused by a client that does not trust the managed CA', async () => {
    await expect(clientWith({}).post('/validate', podCreateReview())).rejects.toThrow(
      /self[- ]signed|unable to verify|certificate/i,
    );
  });

  const cases: {
    name: string;
    options: () => ConstructorParameters<typeof AdmissionClient>[1];
    headers: Record<string, string>;
    status: number;
  }[] = [
    { name: 'nothing presented', options: () => ({ ca: gatewayCa }), headers: {}, status: 401 },
    {
      name: 'a wrong bearer token',
      options: () => ({ ca: gatewayCa }),
      headers: { authorization: 'Bearer not-the-token' },
      status: 401,
    },
    {
      name: 'the bearer token',
      options: () => ({ ca: gatewayCa }),
      headers: { authorization: `Bearer ${TOKEN}` },
      status: 200,
    },
    {
      name: 'a client certificate from the client CA',
      options: () => ({ ca: gatewayCa, clientCert: goodClient }),
      headers: {},
      status: 200,
    },
    {
      name: 'a client certificate from another CA',
      options: () => ({ ca: gatewayCa, clientCert: strangerClient }),
      headers: {},
      status: 401,
    },
  ];
  it.each(cases)('answers $status to $name', async ({ options, headers, status }) => {
    const answer = await clientWith(options()).post('/validate', podCreateReview(), { headers });
    expect(answer.status).toBe(status);
    if (status === 401)
      expect(JSON.parse(answer.text).message).toBe(
        'authentication required: present a client certificate or a bearer token',
      );
  });

  it('logs refused requests without the token', async () => {
    const refused = () =>
      gateway.logs.filter((l) => String(l.msg).startsWith('unauthenticated admission request refused'));
    // Log lines reach us through the process's stdout, after the answers.
    for (let i = 0; i < 100 && refused().length < 3; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(refused().length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(gateway.logs)).not.toContain('not-the-token');
  });
});

describe('operator-provided certificate', () => {
  let gateway: GatewayProcess;
  let ca: TestCa;

  const servedSerial = (port: number) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, ca: ca.certPem, servername: 'localhost' }, () => {
        resolve(socket.getPeerCertificate().serialNumber);
        socket.end();
      });
      socket.once('error', reject);
    });

  beforeAll(async () => {
    ca = await createTestCa('operator-ca');
    const serving = await ca.issue({ commonName: 'hookgate', dns: ['localhost'], ips: ['127.0.0.1'] });
    gateway = await startGateway({
      insecureHttp: false,
      config: gatewayConfigYaml([], { extra: { admission: { tls: { certFile: 'tls.crt', keyFile: 'tls.key' } } } }),
      files: { 'tls.crt': serving.certPem, 'tls.key': serving.keyPem },
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('serves the new certificate after the files change, without a restart', async () => {
    const port = Number(new URL(gateway.admissionUrl).port);
    const first = await servedSerial(port);
    const renewed = await ca.issue({ commonName: 'hookgate', dns: ['localhost'], ips: ['127.0.0.1'] });
    // Key first, then certificate, each replaced atomically, as cert-manager style tools do.
    for (const [name, content] of [
      ['tls.key', renewed.keyPem],
      ['tls.crt', renewed.certPem],
    ] as const) {
      await writeFile(join(gateway.configDir, `${name}.tmp`), content);
      await rename(join(gateway.configDir, `${name}.tmp`), join(gateway.configDir, name));
    }
    let serial = first;
    for (let i = 0; i < 100 && serial === first; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      serial = await servedSerial(port);
    }
    expect(serial).not.toBe(first);
    expect(gateway.exitCode()).toBeNull();
  });
});
