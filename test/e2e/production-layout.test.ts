/**
 * The built output as an image runs it: the production layout (built dist/ plus `npm ci --omit=dev`,
 * the same steps as the Dockerfiles, tools/dev/src/production-layout.ts) in a temp dir, no dev
 * dependency in it, and the gateway (`hookgate serve`) and the pod-defaults plugin started from it
 * with plain node, without the repository's development condition: a review over HTTPS is answered
 * with the plugin's patch. Needs the build (`npm test` builds first: this project's test target
 * depends on the build of the CLI, the controller and the plugins; alone: `npm run build` first).
 */
import { execFile } from 'node:child_process';
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
import { BUILTIN_PLUGINS, pluginFile } from '../src/builtin-plugins.js';
import { corpusReview, inNamespace } from '../src/corpus.js';
import { gatewayConfigYaml } from '../src/gateway-config.js';
import { execForm, readDockerfile, workspacesOf, type Stage } from '../src/dockerfile.js';

// typescript is not here: valibot (under the controller's bull-board) names it as an optional peer,
// and npm installs an optional peer the lockfile holds (flagged devOptional there). Nothing loads it.
const DEV_ONLY = ['tsx', 'vitest', '@vitest', 'esbuild', 'nx', 'fast-check'];
/** Processes started from the layout see none of the repository's development settings. */
const PRODUCTION_ENV = { NODE_OPTIONS: undefined, npm_config_node_options: undefined };

/** `node <script>` with no arguments and the production environment: exit code and stderr. */
function runNode(script: string, cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script],
      { cwd, env: { ...process.env, ...PRODUCTION_ENV }, timeout: 30_000 },
      (error, _out, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stderr }),
    );
  });
}

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
      '@hookgate/controller',
      ...BUILTIN_PLUGINS.map((name) => `@hookgate/plugin-${name}`),
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
    // Nothing the repository's lockfile marks as a development-only package.
    const lock = JSON.parse(await readFile(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const names = (
      await Promise.all(
        installed.map(async (name) =>
          name.startsWith('@')
            ? (await readdir(join(layoutDir, 'node_modules', name))).map((sub) => `${name}/${sub}`)
            : [name],
        ),
      )
    ).flat();
    expect(names.filter((name) => lock.packages[`node_modules/${name}`]?.dev === true)).toEqual([]);
    expect(installed).toContain('fastify');
    for (const app of ['apps/cli', 'apps/gateway', 'apps/plugins/pod-defaults', 'libs/proto']) {
      const entries = await readdir(join(layoutDir, app));
      expect(entries).toContain('dist');
      expect(entries).not.toContain('src');
    }
    // The gRPC contract is loaded from .proto files at run time: they ship beside dist/.
    expect((await stat(join(layoutDir, 'libs/proto/proto/hookgate/plugin/v1/plugin.proto'))).isFile()).toBe(true);
  });

  // Every module of each entry point loads (static imports, the ledger's Lua scripts) before it
  // checks its arguments: the usage message proves the whole module graph runs from the layout.
  const entryPoints: [app: string, code: number, usage: string][] = [
    ['apps/controller', 2, 'usage: controller --config'],
    ...BUILTIN_PLUGINS.map((name): [string, number, string] => [`apps/plugins/${name}`, 1, `usage: ${name} --config`]),
  ];
  it.each(entryPoints)('%s/dist/main.js loads from the layout', async (app, code, usage) => {
    const run = await runNode(join(layoutDir, app, 'dist/main.js'), layoutDir);
    expect(run).toEqual({ code, stderr: expect.stringContaining(usage) });
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

describe("the Dockerfile's images (held to the production layout; Docker does not run here)", () => {
  const IMAGES = ['gateway', 'controller', 'plugins'];
  let stages: Stage[];
  let dir: string;
  beforeAll(async () => {
    stages = await readDockerfile();
    dir = await mkdtemp(join(tmpdir(), 'hookgate-images-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const stage = (name: string): Stage => {
    const found = stages.find((s) => s.name === name);
    if (found === undefined) throw new Error(`the Dockerfile has no stage ${name}`);
    return found;
  };
  const args = (of: Stage, keyword: string): string[] =>
    of.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

  it.each(IMAGES)('%s: runs as a numeric non-root user, from production dependencies only', (image) => {
    const final = stage(image);
    expect(args(final, 'USER')).toEqual([expect.stringMatching(/^[1-9]\d*:[1-9]\d*$/)]);
    expect(args(final, 'COPY')).toEqual([`--from=${image}-deps --chown=0:0 /app ./`]);
    const [install] = args(stage(`${image}-deps`), 'RUN');
    expect(install).toContain('npm ci --omit=dev');
  });

  it.each(IMAGES)('%s: installs the layout it copies, and its entry points are in that layout', async (image) => {
    const [install = ''] = args(stage(`${image}-deps`), 'RUN');
    const workspaces = workspacesOf(install);
    // The build stage writes /layout/<image> for the same packages the deps stage installs.
    const layoutCommand = args(stage('build'), 'RUN')
      .flatMap((run) => run.split('&&'))
      .find((command) => command.includes(`-- /layout/${image} `));
    expect(layoutCommand?.split(`-- /layout/${image} `)[1]?.trim().split(' ')).toEqual(workspaces);

    const layoutDir = join(dir, image);
    const layout = await writeProductionLayout(REPO_ROOT, layoutDir, workspaces);
    const entry = [...execForm(args(stage(image), 'ENTRYPOINT')[0]!), ...execForm(args(stage(image), 'CMD')[0]!)];
    const bins = await Promise.all(
      layout.shipped.map(async (folder) => {
        const manifest = JSON.parse(await readFile(join(layoutDir, folder, 'package.json'), 'utf8')) as {
          bin?: Record<string, string>;
        };
        return Object.values(manifest.bin ?? {}).map((bin) => join(layoutDir, folder, bin));
      }),
    );
    const files = [
      ...entry.filter((arg) => arg.startsWith('/app/')).map((arg) => join(layoutDir, arg.slice(5))),
      ...bins.flat(),
    ];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect((await stat(file)).isFile(), file).toBe(true);
  });
});
