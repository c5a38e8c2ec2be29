/**
 * Runs `hookgate serve` as its child and stops it by pid when the harness goes away, even when the
 * harness is killed outright (its end of our stdin closes): the gateway itself does not watch stdin.
 *
 *   node --import tsx gateway-supervisor.ts [node flags --] HOOKGATE_BIN serve ...   (prints {"ready":true,"pid":N})
 */
import { spawn } from 'node:child_process';
import { announceReady, exitWithParent } from './exit-with-parent.js';

const GRACE_MS = 40_000;

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const [nodeFlags, command] = split >= 0 ? [argv.slice(0, split), argv.slice(split + 1)] : [[], argv];
if (command.length === 0) {
  process.stderr.write('usage: gateway-supervisor.ts [node flags --] HOOKGATE_BIN serve ...\n');
  process.exit(2);
}

const gateway = spawn(process.execPath, [...nodeFlags, ...command], { stdio: ['ignore', 'inherit', 'inherit'] });
const exited = new Promise<void>((resolve) => gateway.once('exit', () => resolve()));
gateway.once('exit', (code, signal) => {
  process.stderr.write(`hookgate serve exited (${code ?? signal})\n`);
  process.exit(code ?? 1);
});

exitWithParent(async () => {
  if (gateway.pid === undefined || gateway.exitCode !== null || gateway.signalCode !== null) return;
  process.kill(gateway.pid, 'SIGTERM');
  const timer = setTimeout(() => gateway.pid !== undefined && process.kill(gateway.pid, 'SIGKILL'), GRACE_MS);
  await exited;
  clearTimeout(timer);
});
announceReady({ pid: gateway.pid });
