/**
 * The plugins a `hookgate review` or `hookgate test` run calls: one already answering at its
 * configured target is used as it is; otherwise, when the configuration declares a `command` for
 * it, the CLI starts it for the run on a private unix socket and stops it afterwards (by pid).
 * A plugin that is neither running nor startable is reported, and its hooks then fail by their
 * failurePolicy, as they would in the gateway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadPluginTls, type LoadedConfiguration, type PluginConfiguration } from '@hookgate/config';
import { createPluginClient } from '@hookgate/plugin-client';

/** The placeholder in `command` arguments for the address the started plugin listens on. */
export const TARGET_VARIABLE = 'HOOKGATE_PLUGIN_TARGET';
/** A plugin started with tsx needs a few seconds on a loaded machine; 30 s is a hung start. */
const START_TIMEOUT_MS = 30_000;
const PROBE_TIMEOUT_MS = 1_000;
const STOP_GRACE_MS = 5_000;

export interface PluginState {
  readonly name: string;
  /** running: answered at its target; started: started from its command; unavailable: neither. */
  readonly state: 'running' | 'started' | 'unavailable';
  readonly target: string;
  readonly pid?: number;
  /** Why it is unavailable. */
  readonly detail?: string;
}

export interface PreparedPlugins {
  /** The configuration with started plugins' targets pointing at their private sockets. */
  readonly configuration: LoadedConfiguration;
  readonly plugins: readonly PluginState[];
  /** Stops the plugins this run started and removes their sockets. */
  stop(): Promise<void>;
}

export async function preparePlugins(configuration: LoadedConfiguration): Promise<PreparedPlugins> {
  const declared = configuration.gateway.plugins;
  const used = usedPluginNames(configuration);
  const configDir = configuration.sources[0] ? dirname(configuration.sources[0].file) : process.cwd();
  const children: ChildProcess[] = [];
  // One private directory for every plugin this run starts (unix socket paths are short: no nesting).
  const socketDir = declared.some((p) => p.command && used.has(p.name))
    ? await mkdtemp(join(tmpdir(), 'hookgate-review-'))
    : undefined;
  const killAll = () => {
    for (const child of children) if (isRunning(child)) child.kill('SIGKILL');
  };
  process.once('exit', killAll);

  const states = await Promise.all(
    declared.map(async (plugin): Promise<PluginState> => {
      if (!used.has(plugin.name)) return { name: plugin.name, state: 'running', target: plugin.target };
      if (await isServing(plugin, plugin.target)) return { name: plugin.name, state: 'running', target: plugin.target };
      if (!plugin.command)
        return {
          name: plugin.name,
          state: 'unavailable',
          target: plugin.target,
          detail: `nothing answers at ${plugin.target} and the configuration declares no command to start it`,
        };
      const target = `unix://${join(socketDir!, `${plugin.name}.sock`)}`;
      const started = startPlugin(plugin, plugin.command, target, configDir);
      children.push(started.child);
      const failure = await started.ready;
      return failure === undefined
        ? { name: plugin.name, state: 'started', target, ...(started.child.pid ? { pid: started.child.pid } : {}) }
        : { name: plugin.name, state: 'unavailable', target: plugin.target, detail: failure };
    }),
  );

  const targets = new Map(states.filter((s) => s.state === 'started').map((s) => [s.name, s.target]));
  return {
    configuration: {
      ...configuration,
      gateway: {
        ...configuration.gateway,
        plugins: declared.map((p) => (targets.has(p.name) ? { ...p, target: targets.get(p.name)! } : p)),
      },
    },
    plugins: states.filter((s) => used.has(s.name)),
    async stop() {
      process.removeListener('exit', killAll);
      await Promise.all(children.map(stopChild));
      if (socketDir) await rm(socketDir, { recursive: true, force: true });
    },
  };
}

/** Plugins that some hook calls: the others need not run for a review. */
function usedPluginNames(configuration: LoadedConfiguration): Set<string> {
  const names = new Set<string>();
  for (const c of configuration.webhookConfigurations)
    for (const w of c.webhooks) {
      const plugin = (w.clientConfig as { plugin?: unknown }).plugin;
      if (typeof plugin === 'string') names.add(plugin);
    }
  return names;
}

function startPlugin(
  plugin: PluginConfiguration,
  command: readonly string[],
  target: string,
  cwd: string,
): { child: ChildProcess; ready: Promise<string | undefined> } {
  const [program, ...args] = command.map((part) => part.replaceAll(`$(${TARGET_VARIABLE})`, target));
  const child = spawn(program!, args, {
    cwd,
    env: { ...process.env, [TARGET_VARIABLE]: target },
    // The plugin's log lines would mix with the report: only its stderr is kept, for errors.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not run ${program}: ${error.message}`));
    child.once('exit', (code, signal) =>
      resolve(`its command exited with ${signal ?? code} before serving${stderr ? `: ${stderr.trim()}` : ''}`),
    );
  });
  const ready = (async (): Promise<string | undefined> => {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let gone: string | undefined;
    void exited.then((why) => (gone = why));
    while (Date.now() < deadline) {
      if (gone !== undefined) return gone;
      if (await isServing(plugin, target)) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return gone ?? `it did not serve on ${target} within ${START_TIMEOUT_MS / 1000} s`;
  })();
  return { child, ready };
}

/** A health check on a fresh channel (a channel that failed once waits before reconnecting). */
async function isServing(plugin: PluginConfiguration, target: string): Promise<boolean> {
  let tls: ReturnType<typeof loadPluginTls>;
  try {
    tls = loadPluginTls(plugin.tls);
  } catch {
    return false;
  }
  const client = createPluginClient(plugin.name, target, {
    ...(tls ? { tls } : {}),
    circuitBreaker: false,
    probeTimeoutMs: PROBE_TIMEOUT_MS,
  });
  try {
    return (await client.checkHealth()) === 'SERVING';
  } catch {
    return false;
  } finally {
    client.close();
  }
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

async function stopChild(child: ChildProcess): Promise<void> {
  if (!isRunning(child) || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(force);
}
