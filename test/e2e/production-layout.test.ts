/**
 * The built output as an image runs it: the production layout (built dist/ plus `npm ci --omit=dev`,
 * the same steps as the Dockerfiles, tools/dev/src/production-layout.ts) in a temp dir, no dev
 * dependency in it, and the gateway (`hookgate serve`) and the pod-defaults plugin started from it
 * with plain node, without the repository's development condition: a review over HTTPS is answered
 * with the plugin's patch. Needs the build (`npm test` builds first: this project's test target
 * depends on the build of the CLI and pod-defaults; alone: `npm run build` first).
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REPO_ROOT,
  installProductionDependencies,
  readGatewayCa,
  startGateway,
  writeProductionLayout,
  type GatewayProcess,
} from '@hookgate/devtools';
import { startPluginProcess, type PluginProcess } from '@hookgate/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionClient, decodePatch } from '../src/admission-client.js';
import { pluginFile } from '../src/builtin-plugins.js';
import { corpusReview, inNamespace } from '../src/corpus.js';
import { gatewayConfigYaml } from '../src/gateway-config.js';

const DEV_ONLY = ['tsx', 'typescript', 'vitest', '@vitest', 'esbuild', 'nx', 'fast-check'];
/** Processes started from the layout see none of the repository's development settings. */
const PRODUCTION_ENV = { NODE_OPTIONS: undefined, npm_config_node_options: undefined };

describe('the production layout (built output, production dependencies only)', () => {
  let dir: string;
  let layoutDir: string;
  let plugin: PluginProcess | undefined;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-production-'));
    layoutDir = join(dir, 'app');
    const layout = await writeProductionLayout(REPO_ROOT, layoutDir, [
      '@hookgate/cli',
      '@hookgate/plugin-pod-defaults',
    ]);
    // From the npm cache `npm ci` of the repository filled; the registry only for what it lacks.
    await installProductionDependencies(layoutDir, layout);
  }, 180_000);
  afterAll(async () => {
    await gateway?.stop();
    await plugin?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('holds no development dependency and no TypeScript source', async () => {
    const installed = await readdir(join(layoutDir, 'node_modules'));
    expect(installed.filter((name) => DEV_ONLY.includes(name))).toEqual([]);
    expect(installed).toContain('fastify');
    for (const app of ['apps/cli', 'apps/gateway', 'apps/plugins/pod-defaults', 'libs/proto']) {
      const entries = await readdir(join(layoutDir, app));
      expect(entries).toContain('dist');
      expect(entries).not.toContain('src');
    }
    // The gRPC contract is loaded from .proto files at run time: they ship beside dist/.
    expect((await stat(join(layoutDir, 'libs/proto/proto/hookgate/plugin/v1/plugin.proto'))).isFile()).toBe(true);
  });

  it('serves a review over HTTPS from the built gateway and plugin', async () => {
    const socket = join(dir, 'pod-defaults.sock');
    const target = `unix://${socket}`;
    plugin = startPluginProcess({
      cwd: join(layoutDir, 'apps/plugins/pod-defaults'),
      entry: 'dist/main.js',
      execArgv: [],
      args: ['--config', pluginFile('pod-defaults', 'config.example.yaml'), '--listen', target],
      env: PRODUCTION_ENV,
    });
    await plugin.serving(target);

    const webhooks = await readFile(pluginFile('pod-defaults', 'webhooks.yaml'), 'utf8');
    gateway = await startGateway({
      config: `${gatewayConfigYaml([], {
        plugins: [{ name: 'pod-defaults', target }],
        namespaces: [{ name: 'payments', labels: {} }],
      })}---\n${webhooks}`,
      cliBin: join(layoutDir, 'apps/cli/bin/hookgate.mjs'),
      cwd: layoutDir,
      env: PRODUCTION_ENV,
      insecureHttp: false,
    });
    expect(gateway.admissionUrl).toMatch(/^https:/);

    const client = new AdmissionClient(gateway.admissionUrl, { ca: await readGatewayCa(gateway) });
    try {
      const review = inNamespace(corpusReview('kubewarden-policy-server-pod-create'), 'payments');
      const { status, review: answer } = await client.post('/mutate', review, { timeout: '10s' });
      expect(status).toBe(200);
      expect(answer.response).toMatchObject({ uid: review.request.uid, allowed: true, patchType: 'JSONPatch' });
      expect(decodePatch(answer.response?.patch)).toContainEqual({
        op: 'add',
        path: '/spec/containers/0/resources/requests',
        value: { cpu: '50m', memory: '64Mi' },
      });
    } finally {
      await client.close();
    }
  });
});
