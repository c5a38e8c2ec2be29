/**
 * The gateway's configuration for one scenario, as files in a directory (JSON documents, which
 * `hookgate serve --config DIR` reads in name order): a GatewayConfiguration, then the
 * Mutating/ValidatingWebhookConfigurations whose webhooks name the benchmark plugins.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hookName, pluginName, slotName, type HookPhase, type HookProfile } from '../hooks/bench-hooks.js';
import type { RunningPlugin, TlsFiles } from '../processes/start-hooks.js';
import { REVIEW_NAMESPACE } from '../review/pod-review.js';

export interface GatewayHookSet {
  readonly profile: HookProfile;
  /** Hooks bench-m0.. and bench-v0.., in order. */
  readonly mutating: number;
  readonly validating: number;
  /** false: the same hooks registered for apps/v1 deployments, so the Pod review matches none. */
  readonly matchesReview: boolean;
  /** Further registered hooks the review never matches (other resources, or Pod UPDATE/DELETE). */
  readonly fillers: number;
  /** Who serves the hooks; default: the plugin of each hook's slot (`bench-m0`...). */
  readonly backend?: HookBackend;
}

export type HookBackend =
  /** Every hook served by one plugin process. */
  | { readonly kind: 'one-plugin'; readonly plugin: string }
  /** Existing https webhooks behind the bridge: `origins[slot name]` (`m0` → `https://127.0.0.1:port`). */
  | { readonly kind: 'bridge'; readonly origins: Readonly<Record<string, string>>; readonly caBundle: string };

export interface GatewayListen {
  readonly port: number;
  readonly metricsPort: number;
  readonly workers: number;
  readonly stateDir: string;
  /** Serve admission over https with these files (the bridge scenario); plain http otherwise. */
  readonly tls?: TlsFiles;
}

type Rule = Record<string, unknown>;

const POD_CREATE: Rule = {
  operations: ['CREATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['pods'],
  scope: 'Namespaced',
};
const DEPLOYMENT_CREATE: Rule = {
  operations: ['CREATE'],
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  resources: ['deployments'],
  scope: 'Namespaced',
};
const FILLERS_PER_CONFIGURATION = 10;

export async function writeGatewayConfig(
  dir: string,
  hooks: GatewayHookSet,
  plugins: readonly RunningPlugin[],
  listen: GatewayListen,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const files: [string, unknown][] = [
    ['00-gateway.json', gatewayConfiguration(plugins, listen)],
    [
      '10-mutating.json',
      configuration('MutatingWebhookConfiguration', 'bench-mutating', matchingWebhooks(hooks, 'mutating')),
    ],
    [
      '20-validating.json',
      configuration('ValidatingWebhookConfiguration', 'bench-validating', matchingWebhooks(hooks, 'validating')),
    ],
    ['30-fillers.json', { apiVersion: 'v1', kind: 'List', items: fillerConfigurations(hooks.fillers) }],
  ];
  await Promise.all(
    files.map(([name, document]) => writeFile(path.join(dir, name), `${JSON.stringify(document, null, 1)}\n`)),
  );
}

function gatewayConfiguration(plugins: readonly RunningPlugin[], listen: GatewayListen): Record<string, unknown> {
  return {
    apiVersion: 'hookgate.dev/v1alpha1',
    kind: 'GatewayConfiguration',
    admission: {
      host: '127.0.0.1',
      port: listen.port,
      tls:
        listen.tls === undefined ? { disabled: true } : { certFile: listen.tls.certFile, keyFile: listen.tls.keyFile },
    },
    metrics: { host: '127.0.0.1', port: listen.metricsPort },
    stateDir: listen.stateDir,
    plugins: plugins.map((p) => ({ name: p.name, target: p.target })),
    namespaces: [{ name: REVIEW_NAMESPACE, labels: { team: 'payments', 'bench.hookgate.dev/tier': 'prod' } }],
    registry: { disabled: true },
    workers: listen.workers,
    logLevel: 'warn',
  };
}

function configuration(kind: string, name: string, webhooks: unknown[]): Record<string, unknown> {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks };
}

function webhook(
  phase: HookPhase,
  name: string,
  clientConfig: Record<string, unknown>,
  rule: Rule,
): Record<string, unknown> {
  return {
    name,
    clientConfig,
    rules: [rule],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    sideEffects: 'None',
    timeoutSeconds: 10,
    admissionReviewVersions: ['v1'],
    ...(phase === 'mutating' ? { reinvocationPolicy: 'Never' } : {}),
  };
}

function matchingWebhooks(hooks: GatewayHookSet, phase: HookPhase): unknown[] {
  const count = phase === 'mutating' ? hooks.mutating : hooks.validating;
  return Array.from({ length: count }, (_, index) => {
    const name = hookName(hooks.profile, phase, index);
    return webhook(
      phase,
      name,
      clientConfig(hooks.backend, phase, index, name),
      hooks.matchesReview ? POD_CREATE : DEPLOYMENT_CREATE,
    );
  });
}

function clientConfig(
  backend: HookBackend | undefined,
  phase: HookPhase,
  index: number,
  name: string,
): Record<string, unknown> {
  if (backend === undefined) return { plugin: pluginName(phase, index) };
  if (backend.kind === 'one-plugin') return { plugin: backend.plugin };
  const origin = backend.origins[slotName({ phase, index })];
  if (origin === undefined) throw new Error(`bridge scenario: no https webhook for ${name}`);
  return { url: `${origin}/${name}`, caBundle: backend.caBundle };
}

/**
 * Hooks a large cluster has for other things: custom resources in many API groups, and every tenth
 * one on Pod UPDATE/DELETE. They name existing plugins but are never called for the Pod CREATE.
 */
function fillerConfigurations(count: number): unknown[] {
  const configurations: unknown[] = [];
  for (let first = 0; first < count; first += FILLERS_PER_CONFIGURATION) {
    const phase: HookPhase = configurations.length % 2 === 0 ? 'mutating' : 'validating';
    const webhooks = [];
    for (let k = first; k < Math.min(count, first + FILLERS_PER_CONFIGURATION); k++) {
      const rule: Rule =
        k % 10 === 9
          ? {
              operations: ['UPDATE', 'DELETE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['pods'],
              scope: 'Namespaced',
            }
          : {
              operations: ['CREATE', 'UPDATE'],
              apiGroups: [`bench${k % 25}.example.com`],
              apiVersions: ['v1'],
              resources: [`widgets${k}`],
              scope: '*',
            };
      webhooks.push(webhook(phase, `filler-${k}.bench.hookgate.dev`, { plugin: pluginName(phase, 0) }, rule));
    }
    const kind = phase === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
    configurations.push(configuration(kind, `bench-fillers-${configurations.length}`, webhooks));
  }
  return configurations;
}
