/**
 * `hookgate serve` as its own process, exactly as an operator runs it (plain http for the
 * benchmark, loopback ports chosen up front), started by the shared launcher inside a supervisor
 * process that stops it if the harness dies; ready once /readyz says 200 and every worker is forked.
 */
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '@hookgate/devtools';
import type { RunningPlugin, TlsFiles } from '../processes/start-hooks.js';
import type { ChildSet, TrackedChild } from '../processes/child-set.js';
import { isReadyLine } from '../processes/exit-with-parent.js';
import type { GatewaySupervisorOptions } from '../processes/gateway-supervisor.js';
import { REPO_ROOT, benchScript, nodeArgs } from '../processes/node-scripts.js';
import { childPids } from '../load/proc-cpu.js';
import { writeGatewayConfig, type GatewayHookSet } from './gateway-config.js';

const READY_TIMEOUT_MS = 60_000;

export interface RunningGateway {
  readonly origin: string;
  readonly primaryPid: number;
  readonly workerPids: readonly number[];
  readonly configDir: string;
  stop(): Promise<void>;
}

export interface GatewayStartOptions {
  readonly workDir: string;
  readonly hooks: GatewayHookSet;
  readonly plugins: readonly RunningPlugin[];
  readonly workers: number;
  /** Serve admission over https (the bridge scenario). */
  readonly tls?: TlsFiles;
  /** Write V8 CPU profiles of the primary and the workers here (node --cpu-prof). */
  readonly cpuProfileDir?: string;
}

export async function startGateway(children: ChildSet, options: GatewayStartOptions): Promise<RunningGateway> {
  const dir = await mkdtemp(path.join(options.workDir, 'gateway-'));
  const [port, metricsPort] = [await freePort(), await freePort()];
  const configDir = path.join(dir, 'config');
  await writeGatewayConfig(configDir, options.hooks, options.plugins, {
    port,
    metricsPort,
    workers: options.workers,
    stateDir: path.join(dir, 'state'),
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  });
  const supervised: GatewaySupervisorOptions = {
    configDir,
    stateDir: path.join(dir, 'state'),
    port,
    metricsPort,
    workers: options.workers,
    https: options.tls !== undefined,
    execArgv: options.cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir],
  };
  // The CLI registers tsx itself; --cpu-prof is inherited by the cluster workers through execArgv.
  const supervisor = children.start(
    'gateway',
    process.execPath,
    nodeArgs(benchScript('processes/gateway-supervisor.ts'), [JSON.stringify(supervised)]),
    { cwd: REPO_ROOT },
  );
  const started = await supervisor.readyLine(isReadyLine, READY_TIMEOUT_MS);
  const primaryPid = started.pid ?? 0;
  children.adoptGrandchildren([primaryPid]);
  await waitReady(supervisor, primaryPid, `http://127.0.0.1:${metricsPort}/readyz`, options.workers);
  const workerPids = childPids(primaryPid);
  children.adoptGrandchildren(workerPids);
  return {
    origin: `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    primaryPid,
    workerPids,
    configDir,
    stop: async () => {
      await children.stop(supervisor, 45_000);
      children.killStragglers([primaryPid, ...workerPids]);
    },
  };
}

/** Ready: /readyz answers 200 and every worker has been forked (the warm-up covers their last steps). */
async function waitReady(child: TrackedChild, primaryPid: number, readyz: string, workers: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.child.exitCode !== null || child.child.signalCode !== null)
      throw new Error(
        `the gateway exited (${child.child.exitCode ?? child.child.signalCode}) before it was ready:\n${child.output()}`,
      );
    const ready = await fetch(readyz, { signal: AbortSignal.timeout(1000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready && childPids(primaryPid).length >= workers) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the gateway was not ready (${readyz}) within ${READY_TIMEOUT_MS} ms:\n${child.output()}`);
}
