/**
 * One CA for every control-plane node: two gateways with separate state directories, the CA
 * created on one and imported on the other (`hookgate ca`), serve certificates that verify against
 * the one caBundle `hookgate print-webhooks` prints; then a rotation, with both CAs in the bundle
 * while the nodes change over one by one, ending with the new CA alone.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayProcess } from '@hookgate/devtools';
import { AdmissionClient } from '../src/admission-client.js';
import { gatewayConfigYaml, webhookConfiguration } from '../src/gateway-config.js';
import { podCreateReview } from '../src/pod-review.js';
import { runCli } from '../src/run-cli.js';

const WAIT = { timeout: 20_000, interval: 200 };

/** Whether a fresh TLS connection trusting only `caPem` gets an answer from the gateway. */
async function verifies(gateway: GatewayProcess, caPem: string): Promise<boolean> {
  const client = new AdmissionClient(gateway.admissionUrl, { ca: caPem });
  try {
    const answer = await client.post('/validate/ignore', podCreateReview(), { timeout: '10s' });
    return answer.status === 200;
  } catch {
    return false;
  } finally {
    await client.close();
  }
}

describe('one CA for two gateways, and its rotation', () => {
  let dir: string;
  const stateDir = (node: 'a' | 'b') => join(dir, `state-${node}`);
  const gateways: Partial<Record<'a' | 'b', GatewayProcess>> = {};
  const config = (node: 'a' | 'b') =>
    gatewayConfigYaml(
      [
        webhookConfiguration('validating', 'policy', [
          { name: 'policy.example.com', clientConfig: { url: 'http://127.0.0.1:9/validate' }, failurePolicy: 'Ignore' },
        ]),
      ],
      { extra: { stateDir: stateDir(node) } },
    );
  const cli = async (...args: string[]) => {
    const result = await runCli(args);
    if (result.code !== 0) throw new Error(`hookgate ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result;
  };
  /** The caBundle of the printed registration, as PEM. */
  const printedBundle = async (): Promise<string> => {
    const { stdout } = await cli('print-webhooks', '--config', gateways.a!.configPath);
    const docs = parseAllDocuments(stdout).map(
      (d) => d.toJS() as { webhooks: { clientConfig: { caBundle: string } }[] },
    );
    const bundles = new Set(docs.flatMap((d) => d.webhooks.map((w) => w.clientConfig.caBundle)));
    expect(bundles.size).toBe(1);
    return Buffer.from([...bundles][0]!, 'base64').toString('utf8');
  };
  const certificates = (pem: string) => pem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-ca-'));
    await cli('ca', 'create', '--state-dir', stateDir('a'));
    const exported = await cli('ca', 'export', '--state-dir', stateDir('a'));
    await writeFile(join(dir, 'ca.pem'), exported.stdout, { mode: 0o600 });
    await cli('ca', 'import', '--state-dir', stateDir('b'), join(dir, 'ca.pem'));
    for (const node of ['a', 'b'] as const)
      gateways[node] = await startGateway({ config: config(node), stateDir: stateDir(node), insecureHttp: false });
  }, 90_000);
  afterAll(async () => {
    for (const gateway of Object.values(gateways)) await gateway?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('both gateways serve certificates that verify against the one printed caBundle', async () => {
    const bundle = await printedBundle();
    expect(certificates(bundle)).toBe(1);
    expect(bundle).toBe(await readFile(join(stateDir('b'), 'tls/ca.crt'), 'utf8'));
    expect(await verifies(gateways.a!, bundle)).toBe(true);
    expect(await verifies(gateways.b!, bundle)).toBe(true);
    // The check is real: a CA the gateways do not use verifies neither.
    const stranger = join(dir, 'stranger');
    await cli('ca', 'create', '--state-dir', stranger);
    const strangerCa = await readFile(join(stranger, 'tls/ca.crt'), 'utf8');
    expect(await verifies(gateways.a!, strangerCa)).toBe(false);
    expect(await verifies(gateways.b!, strangerCa)).toBe(false);
  });

  it('refuses to import a file that is not a CA, or over another CA without --force', async () => {
    await writeFile(join(dir, 'not-a-ca.pem'), 'hello\n');
    expect(await runCli(['ca', 'import', '--state-dir', stateDir('b'), join(dir, 'not-a-ca.pem')])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'hookgate ca import: the file must hold the CA private key and certificate (the output of `hookgate ca export`)\n',
    });
    await cli('ca', 'create', '--state-dir', join(dir, 'other'));
    const other = await cli('ca', 'export', '--state-dir', join(dir, 'other'));
    await writeFile(join(dir, 'other.pem'), other.stdout);
    const refused = await runCli(['ca', 'import', '--state-dir', stateDir('b'), join(dir, 'other.pem')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already holds another CA');
  });

  it('rotates with both CAs in the caBundle while the nodes change over, then the new CA alone', async () => {
    const oldCa = await readFile(join(stateDir('a'), 'tls/ca.crt'), 'utf8');
    await cli('ca', 'create', '--next', '--state-dir', stateDir('a'));
    const next = await cli('ca', 'export', '--next', '--state-dir', stateDir('a'));
    await writeFile(join(dir, 'next.pem'), next.stdout, { mode: 0o600 });
    await cli('ca', 'import', '--next', '--state-dir', stateDir('b'), join(dir, 'next.pem'));
    const newCa = await readFile(join(stateDir('a'), 'tls/ca-next.crt'), 'utf8');

    // 1. Apply this bundle first: it trusts both CAs.
    const during = await printedBundle();
    expect(certificates(during)).toBe(2);
    expect(during).toBe(oldCa + newCa);

    // 2. Node a changes over: it serves from the new CA; node b still from the old one; the bundle verifies both.
    await cli('ca', 'promote', '--state-dir', stateDir('a'));
    await expect.poll(() => verifies(gateways.a!, newCa), WAIT).toBe(true);
    expect(await verifies(gateways.b!, oldCa)).toBe(true);
    expect(await verifies(gateways.a!, during)).toBe(true);
    expect(await verifies(gateways.b!, during)).toBe(true);

    // 3. Node b changes over.
    await cli('ca', 'promote', '--state-dir', stateDir('b'));
    await expect.poll(() => verifies(gateways.b!, newCa), WAIT).toBe(true);
    expect(await verifies(gateways.a!, during)).toBe(true);
    expect(await verifies(gateways.b!, during)).toBe(true);
    // Until drop-previous, the printed bundle still trusts the old CA (ca-previous.crt).
    expect(await printedBundle()).toBe(newCa + oldCa);

    // 4. The old CA leaves the bundle.
    await cli('ca', 'drop-previous', '--state-dir', stateDir('a'));
    await cli('ca', 'drop-previous', '--state-dir', stateDir('b'));
    const after = await printedBundle();
    expect(after).toBe(newCa);
    expect(await verifies(gateways.a!, after)).toBe(true);
    expect(await verifies(gateways.b!, after)).toBe(true);
    expect(await verifies(gateways.a!, oldCa)).toBe(false);
    expect(await verifies(gateways.b!, oldCa)).toBe(false);
  }, 90_000);
});
