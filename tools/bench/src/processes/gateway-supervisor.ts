/**
 * Runs `hookgate serve` through the shared launcher (@hookgate/devtools startGateway) and stops it
 * by pid when the harness goes away, even when the harness is killed outright (its end of our
 * stdin closes): the gateway itself does not watch stdin.
 *
 *   node --import tsx gateway-supervisor.ts '<GatewaySupervisorOptions as JSON>'   (prints {"ready":true,"pid":N} once ready)
 */
import { startGateway } from '@hookgate/devtools';
import { announceReady, exitWithParent } from './exit-with-parent.js';

const GRACE_MS = 40_000;
const READY_TIMEOUT_MS = 60_000;

export interface GatewaySupervisorOptions {
  readonly configDir: string;
  readonly stateDir: string;
  readonly port: number;
  readonly metricsPort: number;
  readonly workers: number;
  /** Serve https with the configuration's certificate files (the bridge scenario) rather than plain http. */
  readonly https: boolean;
  /** Node flags for the gateway (`--cpu-prof ...`); the cluster workers inherit them through execArgv. */
  readonly execArgv: readonly string[];
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '') as GatewaySupervisorOptions;
  const gateway = await startGateway({
    configPath: options.configDir,
    stateDir: options.stateDir,
    port: options.port,
    metricsPort: options.metricsPort,
    execArgv: options.execArgv,
    insecureHttp: !options.https,
    extraArgs: ['--workers', String(options.workers), '--log-level', 'warn'],
    readyTimeoutMs: READY_TIMEOUT_MS,
    stopGraceMs: GRACE_MS,
  });
  void gateway.exited.then((code) => {
    process.stderr.write(`hookgate serve exited (${code}): ${gateway.stderr.join('\n')}\n`);
    process.exit(code ?? 1);
  });
  exitWithParent(() => gateway.stop());
  announceReady({ pid: gateway.pid });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
