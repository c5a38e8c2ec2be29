/**
 * The local stack, one command (`npm start`): Redis (found or started), the four built-in plugins
 * as their own processes on unix sockets, the gateway serving them over https on 127.0.0.1:8443
 * with metrics on 127.0.0.1:9443, and the reconciliation controller (health on 127.0.0.1:9464, the
 * queue dashboard on 127.0.0.1:9465). A plugin or the controller that exits is restarted with backoff (logged); the
 * gateway exiting stops the stack. Ctrl-C stops everything it started (by pid).
 *
 * Environment (README.md, "The local stack"): REDIS_URL (else 127.0.0.1:6379, else a redis-server of its own), HOOKGATE_PORT,
 * HOOKGATE_METRICS_PORT, HOOKGATE_CONTROLLER_PORT, HOOKGATE_DASHBOARD_PORT, KUBECONFIG (the
 * controller's cluster; none by default, see stack-controller.ts), HOOKGATE_STACK_DIR (default .hookgate/dev).
 *
 * Its own lines are in the schema of every Hookgate process (component `stack`), so the whole
 * output reads well through `npm start | npx pino-pretty`.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';
import { createLogger } from '@hookgate/observability';
import { ensureRedis } from './redis.js';
import { superviseProcess, type SupervisedProcess } from './supervised-process.js';
import { writeStackControllerConfig } from './stack-controller.js';

const repo = resolve(fileURLToPath(import.meta.url), '../../../..');
const PLUGINS = ['pod-defaults', 'required-labels', 'immutable-fields', 'ledger'] as const;

const children: SupervisedProcess[] = [];
const log = createLogger({ component: 'stack' });
let stopping = false;

async function main(): Promise<void> {
  const dir = resolve(process.env['HOOKGATE_STACK_DIR'] ?? join(repo, '.hookgate/dev'));
  const run = join(dir, 'run');
  await rm(run, { recursive: true, force: true });
  await mkdir(run, { recursive: true });
  const configDir = join(dir, 'config');
  await rm(configDir, { recursive: true, force: true });
  await mkdir(configDir, { recursive: true });

  const redis = await ensureRedis();
  process.once('exit', () => void redis.stop());
  log.info({ redis: redis.url, source: redis.source }, 'redis ready');

  for (const name of PLUGINS) {
    const pluginDir = join(repo, 'apps/plugins', name);
    start(
      `plugin ${name}`,
      [
        join(pluginDir, 'src/main.ts'),
        '--config',
        join(pluginDir, 'config.example.yaml'),
        '--listen',
        `unix://${join(run, `${name}.sock`)}`,
      ],
      {
        REDIS_URL: redis.url,
      },
    );
    await writeFile(join(configDir, `${name}.yaml`), await readFile(join(pluginDir, 'webhooks.yaml')));
  }

  const gateway = parseAllDocuments(
    await readFile(join(repo, 'deploy/local/gateway.yaml'), 'utf8'),
  )[0]!.toJS() as Record<string, unknown>;
  const admission = gateway['admission'] as { port: number };
  const metrics = gateway['metrics'] as { port: number };
  admission.port = Number(process.env['HOOKGATE_PORT'] ?? admission.port);
  metrics.port = Number(process.env['HOOKGATE_METRICS_PORT'] ?? metrics.port);
  Object.assign(gateway, {
    stateDir: join(dir, 'state'),
    redis: { ...(gateway['redis'] as Record<string, unknown>), url: redis.url },
    spoolDir: join(dir, 'spool'),
    plugins: PLUGINS.map((name) => ({ name, target: `unix://${join(run, `${name}.sock`)}` })),
  });
  await writeFile(join(configDir, '00-gateway.yaml'), stringify(gateway));

  start('gateway', [join(repo, 'apps/cli/bin/hookgate.mjs'), 'serve', '--config', configDir], {});
  await waitReady(`http://127.0.0.1:${metrics.port}/readyz`);
  // Not in configDir: the gateway reads (and reloads) every file there as its own configuration.
  const controllerDir = join(dir, 'controller');
  await rm(controllerDir, { recursive: true, force: true });
  await mkdir(controllerDir, { recursive: true });
  const controller = await writeStackControllerConfig({
    configDir: controllerDir,
    redisUrl: redis.url,
    plugins: gateway['plugins'] as { name: string; target: string }[],
    env: process.env,
  });
  start('controller', [join(repo, 'apps/controller/src/main.ts'), '--config', controller.config], { REDIS_URL: '' });
  await waitReady(controller.readyz);
  const ca = join(dir, 'state/tls/ca.crt');
  log.info(
    {
      admission: `https://127.0.0.1:${admission.port}`,
      ca,
      metrics: `http://127.0.0.1:${metrics.port}/metrics`,
      dashboard: controller.dashboard,
      cluster: controller.cluster,
      try: `curl -s --cacert ${ca} -H 'Content-Type: application/json' --data @test/fixtures/corpus/admission-reviews/kubewarden-policy-server-pod-create.json https://127.0.0.1:${admission.port}/mutate`,
    },
    `stack ready; queue dashboard at ${controller.dashboard}; Ctrl-C stops it`,
  );
}

/** Plugins and the controller are restarted with backoff when they exit; the gateway exiting stops the stack. */
function start(name: string, args: string[], env: Record<string, string>): void {
  const restart = name !== 'gateway';
  children.push(
    superviseProcess({
      name,
      args: args[0]!.endsWith('.mjs') ? args : ['--import', 'tsx', ...args],
      cwd: repo,
      env: { ...process.env, ...env },
      log,
      restart,
      onExit: (exit) => {
        log.error({ process: name, exit }, 'a stack process exited; stopping the stack');
        void stop(1);
      },
    }),
  );
}

async function waitReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs / 1000}s (see the log above)`);
}

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map((child) => child.stop()));
  process.exit(code);
}

process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
main().catch((error: unknown) => {
  log.error({ error: error instanceof Error ? error.message : String(error) }, 'the stack could not start');
  void stop(1);
});
