/**
 * The local stack's reconciliation controller: its configuration (the stack's plugins and Redis)
 * and where it answers. There is no apiserver in the local stack: with `KUBECONFIG` set the
 * controller reads that cluster; without, it is given a kubeconfig of a server that does not
 * answer, so jobs that need a read wait (no attempt used) while the ones that do not (requests the
 * gateway denied, dryRun) are reconciled at once, which is what the README's try-it shows.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface StackController {
  /** The controller's configuration file. */
  readonly config: string;
  readonly readyz: string;
  readonly dashboard: string;
  /** What the controller reads objects from, for the stack's log. */
  readonly cluster: string;
}

export async function writeStackControllerConfig(options: {
  readonly configDir: string;
  readonly redisUrl: string;
  readonly plugins: readonly { name: string; target: string }[];
  readonly env: Readonly<Record<string, string | undefined>>;
}): Promise<StackController> {
  const { configDir, env } = options;
  const healthPort = Number(env['HOOKGATE_CONTROLLER_PORT'] ?? 9464);
  const dashboardPort = Number(env['HOOKGATE_DASHBOARD_PORT'] ?? 9465);
  let kubeconfig = env['KUBECONFIG'];
  const cluster = kubeconfig ? `KUBECONFIG ${kubeconfig}` : 'none (set KUBECONFIG to reconcile against a cluster)';
  if (!kubeconfig) {
    kubeconfig = join(configDir, 'no-cluster.kubeconfig');
    // Port 9 (discard): nothing answers, so a read is 'unavailable' and its job waits.
    await writeFile(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'none', cluster: { server: 'http://127.0.0.1:9', 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'none', user: {} }],
        contexts: [{ name: 'none', context: { cluster: 'none', user: 'none' } }],
        'current-context': 'none',
      }),
    );
  }
  const config = join(configDir, 'controller.yaml');
  await writeFile(
    config,
    stringify({
      redis: { url: options.redisUrl },
      plugins: options.plugins,
      kubernetes: { mode: 'kubeconfig', kubeconfig },
      // Short waits, to see a side effect reconciled within seconds locally.
      graceMs: 2_000,
      confirmDelayMs: 10_000,
      resync: { intervalMs: 60_000, minAgeMs: 30_000 },
      health: { host: '127.0.0.1', port: healthPort },
      dashboard: { host: '127.0.0.1', port: dashboardPort },
    }),
  );
  return {
    config,
    readyz: `http://127.0.0.1:${healthPort}/readyz`,
    dashboard: `http://127.0.0.1:${dashboardPort}/queues`,
    cluster,
  };
}
